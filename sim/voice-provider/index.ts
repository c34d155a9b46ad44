/**
 * A local stand-in for Bland AI (DESIGN §7): the REST endpoints the adapter uses, real playable
 * recordings, post-call webhooks and live events, and failure modes. State lives in memory; the
 * /_sim/* control API and the VoiceSim methods change it through the same actions.
 */
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import {
  type AddCallsOptions,
  createSimActions,
  type ModeOptions,
  type PlaceTestCallOptions,
  type SendEventOptions,
  SimInputError,
  type WebhookAnswer,
} from './actions';
import { blandError, registerBlandRoutes } from './bland-routes';
import { registerControlRoutes } from './control-routes';
import { type BlandCallRecord, createSimState, SIM_PATHS_KEPT, type SimMode, type SimState } from './state';

export type {
  AddCallsOptions,
  ModeOptions,
  PlaceTestCallOptions,
  SendEventOptions,
  WebhookAnswer,
} from './actions';
export { correctedSegments, hasCorrectedTranscript } from './generate';
export type {
  BlandCallRecord,
  BlandCorrectedSegment,
  BlandTranscriptLine,
  CorrectedAnswer,
  FaultStatus,
  SimCall,
  SimMode,
  SimState,
} from './state';
export { SIM_PATHWAYS } from './state';

export interface VoiceSim {
  /** Base URL, e.g. http://127.0.0.1:4010; use it as BLAND_API_URL. */
  url: string;
  close(): Promise<void>;
  /** The in-memory world; look, or change it directly when a method is missing. */
  state: SimState;
  /** Adds a provider account for this key (idempotent). */
  addKey(apiKey: string): void;
  /** Creates realistic calls in the key's account (the account is created when missing). */
  addCalls(apiKey: string, options?: AddCallsOptions): BlandCallRecord[];
  /** Changes Bland fields of a stored call and moves its updated_at (for sort_by=updated_at). */
  updateCall(callId: string, patch: Record<string, unknown>): BlandCallRecord;
  setMode(mode: SimMode, options?: ModeOptions): void;
  /** The call stays; its recording answers 404 CALL_RECORDING_NOT_FOUND from now on. */
  expireRecording(callId: string): void;
  addPathway(id: string, name: string, description?: string): void;
  /** Creates a completed call and POSTs Bland's post-call webhook body to webhookUrl. */
  placeTestCall(options: PlaceTestCallOptions): Promise<{ call_id: string } & WebhookAnswer>;
  /** POSTs a live-event body {message, call_id, category, log_level} (or an event_type follow-up). */
  sendEvent(options: SendEventOptions): Promise<WebhookAnswer>;
  /** Back to a fresh world: no keys, no calls, normal mode. */
  reset(): void;
}

export async function startVoiceSim(opts: { port?: number; host?: string } = {}): Promise<VoiceSim> {
  const state = createSimState();
  let baseUrl = '';
  const actions = createSimActions(state, () => baseUrl);
  const pending = new Set<() => void>();

  /** Slow mode's delay, cut short when the client gives up or the simulator closes. */
  function wait(ms: number, _request: FastifyRequest, reply: FastifyReply): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        pending.delete(finish);
        reply.raw.off('close', finish);
        resolve();
      };
      const timer = setTimeout(finish, ms);
      pending.add(finish);
      reply.raw.once('close', finish);
    });
  }

  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 5 * 1024 * 1024 });

  // What reached the provider, exactly as sent: tests check that no id ever changed a path.
  app.addHook('onRequest', async (request) => {
    const paths = state.stats.paths;
    paths.push(request.raw.url ?? '');
    if (paths.length > SIM_PATHS_KEPT) paths.shift();
  });

  app.setErrorHandler((error, request, reply) => {
    const isControl = request.url.startsWith('/_sim/');
    if (error instanceof ZodError) {
      const issue = error.issues[0];
      const message = issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'Invalid input';
      return reply.code(400).send({ message });
    }
    if (error instanceof SimInputError) return reply.code(error.statusCode).send({ message: error.message });
    const status = (error as { statusCode?: number }).statusCode;
    const code = status && status >= 400 && status < 500 ? status : 500;
    const message = code === 500 ? 'Internal server error' : (error as Error).message;
    if (isControl) return reply.code(code).send({ message });
    return blandError(reply, code, code === 500 ? 'INTERNAL_SERVER_ERROR' : 'INVALID_REQUEST', message);
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/_sim/'))
      return reply.code(404).send({ message: 'Unknown control endpoint' });
    return blandError(reply, 404, 'NOT_FOUND', 'Not found');
  });

  registerBlandRoutes(app, { state, wait, dispatchCall: actions.dispatchCall });
  registerControlRoutes(app, state, actions);

  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  baseUrl = `http://${urlHost}:${port}`;

  return {
    url: baseUrl,
    state,
    async close() {
      for (const finish of [...pending]) finish();
      await app.close();
    },
    addKey: (apiKey) => {
      if (!apiKey) throw new SimInputError('apiKey is required');
      actions.addKey(apiKey);
    },
    addCalls: actions.addCalls,
    updateCall: actions.updateCall,
    setMode: actions.setMode,
    expireRecording: actions.expireRecording,
    addPathway: actions.addPathway,
    placeTestCall: actions.placeTestCall,
    sendEvent: actions.sendEvent,
    reset: actions.reset,
  };
}

export const SIM_DEMO_KEY = 'sim_demo_key';

/** The account `npm run dev` and the standalone simulator start with: ~40 calls over 14 days. */
export function seedDemoAccount(sim: VoiceSim, apiKey = SIM_DEMO_KEY, count = 40): void {
  sim.addKey(apiKey);
  if (sim.state.accounts.get(apiKey)?.calls.length) return;
  sim.addCalls(apiKey, { count, spreadDays: 14 });
}
