/**
 * What the Vapi and Retell stand-ins share: accounts by API key (Bearer), failure modes, playable
 * recordings with byte ranges, a sample conversation, and posting webhooks to a URL. Each
 * stand-in speaks its own platform's paths and bodies (vapi.ts, retell.ts); the product's real
 * adapters are what the tests drive against them.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { parseRange, sampleMp3 } from '../voice-provider/audio';

export type PlatformMode = 'normal' | '401' | '500' | '429';

export interface PlatformState<Call> {
  /** API key → the account's calls, by id. */
  accounts: Map<string, Map<string, Call>>;
  mode: PlatformMode;
  /** Requests left in a temporary mode (then back to normal); null: until changed. */
  modeTimes: number | null;
  requests: number;
}

export function createPlatformState<Call>(): PlatformState<Call> {
  return { accounts: new Map(), mode: 'normal', modeTimes: null, requests: 0 };
}

export const SAMPLE_CONVERSATION: { role: 'agent' | 'user'; text: string }[] = [
  { role: 'agent', text: 'Hello, you have reached the booking line. How can I help?' },
  { role: 'user', text: "I'd like to book a consultation for Friday morning, please." },
  { role: 'agent', text: 'I have nine thirty or eleven on Friday. Which works for you?' },
  { role: 'user', text: 'Nine thirty, please.' },
  { role: 'agent', text: "You're booked for Friday at nine thirty. We'll text you a reminder." },
];

export const randomPhone = () => `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
export const newId = () => randomUUID();

/** A Fastify app with the common parts: request counting, failure modes, Bearer accounts, audio. */
export function createPlatformApp<Call>(
  state: PlatformState<Call>,
  fail: (reply: FastifyReply, status: number, message: string) => unknown,
): { app: FastifyInstance; account: (request: FastifyRequest) => Map<string, Call> | null } {
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 5 * 1024 * 1024 });
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/_sim') || request.url.startsWith('/recordings/')) return;
    state.requests++;
    if (state.mode === 'normal') return;
    const mode = state.mode;
    if (state.modeTimes !== null && --state.modeTimes <= 0) {
      state.mode = 'normal';
      state.modeTimes = null;
    }
    if (mode === '429') reply.header('retry-after', '0');
    return fail(reply, Number(mode), mode === '401' ? 'Invalid API key' : 'Service unavailable');
  });
  const account = (request: FastifyRequest) => {
    const match = /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? ''));
    return match ? (state.accounts.get(match[1].trim()) ?? null) : null;
  };
  // Recordings are public, signed-looking URLs on both platforms: no key needed.
  app.get<{ Params: { id: string } }>('/recordings/:id', async (request, reply) => {
    const audio = sampleMp3();
    reply.header('content-type', 'audio/mpeg').header('accept-ranges', 'bytes');
    const range = parseRange(request.headers.range, audio.length);
    if (range === 'unsatisfiable')
      return reply.code(416).header('content-range', `bytes */${audio.length}`).send();
    if (range) {
      reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${audio.length}`);
      return reply.send(audio.subarray(range.start, range.end + 1));
    }
    return reply.send(audio);
  });
  app.post<{ Body: { mode?: PlatformMode; times?: number } }>('/_sim/mode', async (request) => {
    state.mode = request.body?.mode ?? 'normal';
    state.modeTimes = request.body?.times ?? null;
    return { ok: true };
  });
  return { app, account };
}

/** What both stand-ins hand their tests besides their own calls: accounts, modes, counts, reset, close. */
export function platformControls<Call>(state: PlatformState<Call>, app: FastifyInstance) {
  return {
    accounts: state.accounts,
    addKey: (apiKey: string) => void accountOf(state, apiKey),
    setMode(mode: PlatformMode, times?: number) {
      state.mode = mode;
      state.modeTimes = times ?? null;
    },
    requests: () => state.requests,
    reset() {
      state.accounts.clear();
      state.mode = 'normal';
      state.modeTimes = null;
      state.requests = 0;
    },
    close: () => app.close(),
  };
}

export function accountOf<Call>(state: PlatformState<Call>, apiKey: string): Map<string, Call> {
  let account = state.accounts.get(apiKey);
  if (!account) {
    account = new Map();
    state.accounts.set(apiKey, account);
  }
  return account;
}

/** POSTs a webhook body as bytes, with the platform's headers; answers the receiver's status. */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: await response.text() };
}

export async function listen(app: FastifyInstance, opts: { port?: number; host?: string }): Promise<string> {
  const address = await app.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  return address.replace('[::1]', '127.0.0.1');
}

/** The demo accounts `npm run sim` and `npm run dev` offer: a few calls a day over two weeks. */
export function seedPlatformDemo(
  sim: { addCalls(key: string, o: { count: number; endAt: number }): unknown[] },
  apiKey: string,
): void {
  const day = 86_400_000;
  for (let d = 0; d < 14; d++)
    sim.addCalls(apiKey, { count: 1 + ((d * 7) % 4), endAt: Date.now() - d * day - 3_600_000 });
}
