/** The simulator's wire format and control API, as another process would drive them. */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import blandExamples from '../../specs/bland/documented-examples.json';
import { SIM_PATHWAYS, seedDemoAccount, startVoiceSim, type VoiceSim } from './index';

let sim: VoiceSim;
type Segment = { start: number; end: number; text: string; speaker: number; speaker_label: string };
const DOCUMENTED_SEGMENT_FIELDS = Object.keys(blandExamples['corrected-transcript'].corrected[0]).sort();
let hook: Server;
let hookUrl: string;
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

const get = (path: string, key?: string, headers: Record<string, string> = {}) =>
  fetch(`${sim.url}${path}`, { headers: key === undefined ? headers : { authorization: key, ...headers } });
const control = async (path: string, body: unknown) => {
  const response = await fetch(`${sim.url}/_sim/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  sim = await startVoiceSim();
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/api/webhooks/voice/tok`;
});

afterAll(async () => {
  await sim.close();
  await new Promise((resolve) => hook.close(resolve));
});

beforeEach(() => {
  sim.reset();
  received.length = 0;
});

describe('Bland wire format', () => {
  it('answers an unknown or missing key with 401 AUTH_FAILURE', async () => {
    for (const key of ['nope', undefined]) {
      const response = await get('/v1/calls', key);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        data: null,
        errors: [{ error: 'AUTH_FAILURE', message: 'Invalid API key' }],
      });
    }
  });

  it('lists newest first by default, capped at 1000, without transcripts', async () => {
    await control('keys', { apiKey: 'k' });
    const created = await control('calls', { apiKey: 'k', count: 1005 });
    expect(created.json.created).toBe(1005);
    const response = await get('/v1/calls?limit=5000', 'k');
    const body = (await response.json()) as {
      total_count: number;
      count: number;
      calls: Array<Record<string, string>>;
    };
    // Like Bland's documented example, no total_count unless asked for: `count` is the page's size.
    expect(body).not.toHaveProperty('total_count');
    expect(body.count).toBe(1000);
    await control('list-format', { totalCount: true });
    const withTotal = (await (await get('/v1/calls?limit=5', 'k')).json()) as { total_count: number };
    expect(withTotal.total_count).toBe(1005);
    await control('list-format', { totalCount: false });
    expect(body.calls[0]).not.toHaveProperty('transcripts');
    expect(body.calls[0]).not.toHaveProperty('concatenated_transcript');
    expect(Date.parse(body.calls[0].created_at)).toBeGreaterThanOrEqual(Date.parse(body.calls[1].created_at));
    const rest = (await (await get('/v1/calls?from=1000', 'k')).json()) as { count: number };
    expect(rest.count).toBe(5);
  });

  it('sorts by updated_at so changed calls come last in ascending order', async () => {
    const [a, b] = sim.addCalls('k', { count: 2 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const changed = sim.updateCall(a.call_id, { status: 'completed', completed: true });
    const body = (await (await get('/v1/calls?sort_by=updated_at&ascending=true', 'k')).json()) as {
      calls: Array<{ call_id: string }>;
    };
    expect(body.calls.map((c) => c.call_id)).toEqual([b.call_id, changed.call_id]);
  });

  it('rejects bad list parameters with a Bland error body', async () => {
    sim.addKey('k');
    const response = await get('/v1/calls?start_date=soon', 'k');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: Array<{ error: string }> }).errors[0].error).toBe(
      'INVALID_PARAMETERS',
    );
  });

  it('gives realistic calls: E.164 numbers, known pathways, 4-10 turn transcripts', async () => {
    const calls = sim.addCalls('k', { count: 60 });
    const statuses = new Set(calls.map((c) => (c.transferred_to ? 'transferred' : c.status)));
    expect(statuses.has('completed')).toBe(true);
    for (const call of calls) {
      expect(call.from).toMatch(/^\+1\d{10}$/);
      expect(call.to).toMatch(/^\+1\d{10}$/);
      expect(Object.values(SIM_PATHWAYS)).toContain(call.pathway_id);
      if (call.status === 'completed') {
        const talk = call.transcripts.filter((t) => t.user !== 'agent-action');
        // A voicemail is the agent's one message; a conversation has 4 to 10 turns.
        if (call.answered_by === 'voicemail') expect(talk.map((t) => t.user)).toEqual(['assistant']);
        else {
          expect(talk.length).toBeGreaterThanOrEqual(4);
          expect(talk.length).toBeLessThanOrEqual(10);
        }
        expect(call.recording_url).toBe(`${sim.url}/v1/recordings/${call.call_id}`);
        expect(Number(call.corrected_duration)).toBeGreaterThan(0);
      }
    }
    const details = (await (await get(`/v1/calls/${calls[0].call_id}`, 'k')).json()) as Record<
      string,
      unknown
    >;
    expect(details).toEqual(calls[0]);
  });

  it("answers a call's corrected transcript in Bland's shape, consistent with its transcript", async () => {
    const calls = sim.addCalls('k', { count: 40, overrides: { status: 'completed' } });
    let answered = 0;
    let missing = 0;
    for (const call of calls) {
      const response = await get(`/v1/calls/${call.call_id}/correct`, 'k');
      if (response.status === 404) {
        missing++;
        expect(await response.json()).toEqual({
          data: null,
          errors: [{ error: 'TRANSCRIPT_NOT_FOUND', message: 'No corrected transcript for this call' }],
        });
        continue;
      }
      expect(response.status).toBe(200);
      answered++;
      const body = (await response.json()) as { status: string; message: string; corrected: Segment[] };
      expect(body.status).toBe('success');
      expect(Object.keys(body).sort()).toEqual(['corrected', 'message', 'status']);
      // The spoken lines, sentence by sentence, labelled by who said them, in order of start.
      const spoken = call.transcripts.filter((t) => t.user !== 'agent-action');
      expect(body.corrected.map((s) => s.text).join(' ')).toBe(spoken.map((t) => t.text.trim()).join(' '));
      for (const segment of body.corrected) {
        // The fields of Bland's documented segment, no more, no fewer.
        expect(Object.keys(segment).sort()).toEqual(DOCUMENTED_SEGMENT_FIELDS);
        expect(segment.end).toBeGreaterThanOrEqual(segment.start);
        expect(segment.start).toBeGreaterThanOrEqual(0);
        expect(segment.speaker_label === 'assistant' ? 2 : 1).toBe(segment.speaker);
      }
      const starts = body.corrected.map((s) => s.start);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
    }
    // Some calls have none (Bland answers 404), so both paths of the adapter run against it.
    expect(answered).toBeGreaterThan(0);
    expect(missing).toBeGreaterThan(0);

    const [first] = calls;
    sim.state.correctedAnswers.set(first.call_id, 'missing');
    expect((await get(`/v1/calls/${first.call_id}/correct`, 'k')).status).toBe(404);
    sim.state.correctedAnswers.set(first.call_id, 503);
    expect((await get(`/v1/calls/${first.call_id}/correct`, 'k')).status).toBe(503);
    expect((await get(`/v1/calls/${first.call_id}/correct`, 'other')).status).toBe(401);
    const [unanswered] = sim.addCalls('k', { overrides: { status: 'no-answer' } });
    expect((await get(`/v1/calls/${unanswered.call_id}/correct`, 'k')).status).toBe(404);
  });

  it('injects read faults into the reads a sync accounts for, not into corrected transcripts', async () => {
    const [call] = sim.addCalls('k', { overrides: { status: 'completed' } });
    sim.state.correctedAnswers.set(call.call_id, 'available');
    sim.state.readFaults = { every: 1, statuses: [500], reads: 0, answered: 0 };
    expect((await get(`/v1/calls/${call.call_id}/correct`, 'k')).status).toBe(200);
    expect((await get(`/v1/calls/${call.call_id}`, 'k')).status).toBe(500);
    expect(sim.state.readFaults.answered).toBe(1);
  });

  it('serves WAV by default and MP3 when asked with content-type audio/mpeg', async () => {
    const [call] = sim.addCalls('k', { overrides: { status: 'completed' } });
    const wav = await get(`/v1/recordings/${call.call_id}`, 'k');
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(
      Buffer.from(await wav.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('RIFF');
    const mp3 = await get(`/v1/recordings/${call.call_id}`, 'k', {
      'content-type': 'audio/mpeg',
      range: 'bytes=-10',
    });
    expect(mp3.status).toBe(206);
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect((await mp3.arrayBuffer()).byteLength).toBe(10);
  });

  it('answers an expired recording with CALL_RECORDING_NOT_FOUND while the call stays', async () => {
    const [call] = sim.addCalls('k', { overrides: { status: 'completed' } });
    expect((await control('expire-recording', { callId: call.call_id })).status).toBe(200);
    const response = await get(`/v1/recordings/${call.call_id}`, 'k', { 'content-type': 'audio/mpeg' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      data: null,
      errors: [{ error: 'CALL_RECORDING_NOT_FOUND', message: 'Call recording not found' }],
    });
    expect((await get(`/v1/calls/${call.call_id}`, 'k')).status).toBe(200);
  });

  it('names pathways', async () => {
    sim.addKey('k');
    await control('pathways', { id: 'pw-x', name: 'Renewals' });
    expect(await (await get(`/v1/pathway/${SIM_PATHWAYS.booking}`, 'k')).json()).toMatchObject({
      name: 'Booking',
    });
    expect(await (await get('/v1/pathway/pw-x', 'k')).json()).toMatchObject({ name: 'Renewals' });
    expect((await get('/v1/pathway/unknown', 'k')).status).toBe(404);
  });
});

describe('control API', () => {
  it('switches modes, for a number of answers when asked', async () => {
    sim.addKey('k');
    await control('mode', { mode: '500', times: 1 });
    expect((await get('/v1/calls', 'k')).status).toBe(500);
    expect((await get('/v1/calls', 'k')).status).toBe(200);
    await control('mode', { mode: '429', retryAfterSeconds: 7 });
    const limited = await get('/v1/calls', 'k');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    await control('mode', { mode: 'normal' });
    expect((await get('/v1/calls', 'k')).status).toBe(200);
  });

  it('validates its input', async () => {
    expect(await control('mode', { mode: 'sideways' })).toMatchObject({ status: 400 });
    expect(await control('calls', { count: 2 })).toMatchObject({
      status: 400,
      json: { message: 'apiKey: Required' },
    });
    expect(await control('expire-recording', { callId: 'missing' })).toMatchObject({ status: 404 });
    expect(await control('place-test-call', { webhookUrl: 'ftp://x' })).toMatchObject({ status: 400 });
  });

  it('places a test call: posts the call-details object, signed when a secret is given', async () => {
    const result = await control('place-test-call', {
      webhookUrl: hookUrl,
      apiKey: 'k',
      signingSecret: 's3cret',
    });
    expect(result.json).toMatchObject({ status: 202, body: { received: true } });
    expect(received).toHaveLength(1);
    const { headers, body } = received[0];
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-webhook-signature']).toBe(createHmac('sha256', 's3cret').update(body).digest('hex'));
    const payload = JSON.parse(body);
    expect(payload.call_id).toBe(result.json.call_id);
    expect(payload).toMatchObject({ completed: true, status: 'completed', queue_status: 'complete' });
    expect(payload.transcripts.length).toBeGreaterThanOrEqual(4);
    // The call is in the key's account, so a sync would find it too.
    expect((await get(`/v1/calls/${payload.call_id}`, 'k')).status).toBe(200);
  });

  it('places an unsigned test call without a key, and reports an unreachable webhook', async () => {
    const result = await sim.placeTestCall({ webhookUrl: hookUrl });
    expect(result.status).toBe(202);
    expect(received[0].headers['x-webhook-signature']).toBeUndefined();
    const unreachable = await sim.placeTestCall({ webhookUrl: 'http://127.0.0.1:9/hook' });
    expect(unreachable.status).toBe(0);
  });

  it('sends live events and event_type follow-ups', async () => {
    await control('send-event', { webhookUrl: hookUrl, call_id: 'c-1' });
    await sim.sendEvent({
      webhookUrl: hookUrl,
      call_id: 'c-1',
      event_type: 'call.analyzed',
      message: 'done',
    });
    expect(JSON.parse(received[0].body)).toEqual({
      message: 'Call connected',
      call_id: 'c-1',
      category: 'call',
      log_level: 'info',
    });
    expect(JSON.parse(received[1].body)).toMatchObject({ event_type: 'call.analyzed', call_id: 'c-1' });
  });

  it('reports its state and seeds the demo account', async () => {
    seedDemoAccount(sim);
    const state = (await (await fetch(`${sim.url}/_sim/state`)).json()) as { accounts: unknown[] };
    expect(state.accounts).toEqual([{ apiKey: 'sim_demo_key', calls: 40 }]);
  });
});
