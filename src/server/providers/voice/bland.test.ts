/** The real adapter against the simulator, over HTTP on a free port. */
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  correctedSegments,
  SIM_PATHWAYS,
  startVoiceSim,
  type VoiceSim,
} from '../../../../sim/voice-provider';
import { sampleMp3 } from '../../../../sim/voice-provider/audio';
import { createBlandProvider } from './bland';
import {
  ProviderAuthError,
  ProviderNotFoundError,
  ProviderUnavailableError,
  RecordingExpiredError,
} from './errors';

const KEY = 'key_adapter_test';
let sim: VoiceSim;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const provider = (extra: Partial<Parameters<typeof createBlandProvider>[0]> = {}) =>
  createBlandProvider({ baseUrl: sim.url, retryBaseMs: 5, ...extra });

beforeAll(async () => {
  sim = await startVoiceSim();
});

afterAll(async () => {
  await sim.close();
});

beforeEach(() => {
  sim.reset();
  sim.addKey(KEY);
});

describe('listCalls', () => {
  it('pages oldest first through all calls, without transcripts', async () => {
    sim.addCalls(KEY, { count: 25 });
    const voice = provider();
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await voice.listCalls(KEY, { cursor, limit: 10 });
      pages++;
      expect(page.raw).toHaveLength(page.calls.length);
      for (const call of page.calls) {
        expect(call.transcript).toBeNull();
        // A list item carries no transcript: the stored quality stays.
        expect(call.conversation).toBeUndefined();
        seen.push(call.providerCallId);
      }
      // Bland's documented list answer has no total_count: a short page is the last.
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    const created = [...sim.state.callsById.values()].sort((a, b) => a.createdAtMs - b.createdAtMs);
    expect(seen[0]).toBe(created[0].details.call_id);
    expect(seen[24]).toBe(created[24].details.call_id);
  });

  it('filters by start date and maps fields', async () => {
    const t = Date.parse('2026-01-10T12:00:00Z');
    sim.addCalls(KEY, { count: 2, createdAt: t - 86_400_000 });
    const [inside] = sim.addCalls(KEY, {
      createdAt: t,
      overrides: { status: 'completed', corrected_duration: '125', pathway_id: SIM_PATHWAYS.sales },
    });
    const page = await provider().listCalls(KEY, { startDate: new Date(t - 1000) });
    expect(page.calls).toHaveLength(1);
    expect(page.nextCursor).toBeNull();
    expect(page.calls[0]).toMatchObject({
      providerCallId: inside.call_id,
      durationSeconds: 125,
      status: 'completed',
      pathwayId: SIM_PATHWAYS.sales,
      createdAt: t,
      fromNumber: inside.from,
      toNumber: inside.to,
    });
  });

  it("keeps each key's calls apart, and stops at the total when the provider sends one", async () => {
    sim.state.listTotalCount = true;
    sim.addCalls(KEY, { count: 3 });
    sim.addCalls('other_key', { count: 5 });
    const mine = await provider().listCalls(KEY, { limit: 3 });
    expect(mine.calls).toHaveLength(3);
    // A full page, but the total says there is no more.
    expect(mine.nextCursor).toBeNull();
    const theirs = await provider().listCalls('other_key', { limit: 3 });
    expect(theirs.nextCursor).toBe('3');
    expect((await provider().listCalls('other_key', { limit: 3, cursor: '3' })).calls).toHaveLength(2);
  });
});

describe('getCall', () => {
  it('returns details with the transcript mapped', async () => {
    const [created] = sim.addCalls(KEY, {
      overrides: { status: 'completed', pathway_id: SIM_PATHWAYS.booking },
    });
    // Without a corrected transcript (the next tests have one), the post-call lines are the transcript.
    sim.state.correctedAnswers.set(created.call_id, 'missing');
    const { call, raw } = await provider().getCall(KEY, created.call_id);
    expect(call.providerCallId).toBe(created.call_id);
    expect(call.transcript?.length).toBeGreaterThanOrEqual(4);
    expect(call.transcript?.[0]).toMatchObject({ role: 'agent', text: created.transcripts[0].text });
    expect(call.transcript?.[1].role).toBe('user');
    expect(call.recordingUrl).toBe(created.recording_url);
    expect((raw as { call_id: string }).call_id).toBe(created.call_id);
  });

  it('maps a transfer, including its agent-action line', async () => {
    const [created] = sim.addCalls(KEY, { overrides: { transferred_to: '+14155550199' } });
    sim.state.correctedAnswers.set(created.call_id, 'missing');
    const { call } = await provider().getCall(KEY, created.call_id);
    expect(call.status).toBe('transferred');
    expect(call.conversation).toEqual({ precision: 'approx', endedBy: 'transfer', sentiment: null });
    expect(call.transcript?.at(-1)).toMatchObject({
      role: 'agent',
      text: 'Transferring call to +14155550199',
    });
  });

  it("takes the corrected transcript's segments, timed, when Bland has one (precision segment)", async () => {
    const [created] = sim.addCalls(KEY, {
      overrides: { status: 'completed', pathway_id: SIM_PATHWAYS.sales, call_ended_by: 'USER' },
    });
    sim.state.correctedAnswers.set(created.call_id, 'available');
    const segments = correctedSegments(created);
    const { call, raw } = await provider().getCall(KEY, created.call_id);
    expect(call.transcript).toEqual(
      segments.map((s) => ({
        role: s.speaker_label === 'assistant' ? 'agent' : 'user',
        text: s.text,
        startMs: Math.round(s.start * 1000),
        endMs: Math.round(s.end * 1000),
      })),
    );
    expect(call.conversation).toEqual({ precision: 'segment', endedBy: 'caller', sentiment: null });
    expect(sim.state.stats.byRoute['/v1/calls/:id/correct']).toBe(1);
    // What is kept for re-processing is the call as Bland sent it.
    expect(raw).not.toHaveProperty('corrected_transcript');
    expect((raw as { transcripts: unknown[] }).transcripts).toHaveLength(created.transcripts.length);
  });

  it('keeps the post-call transcript (approx) when the corrected one is missing or fails, never failing', async () => {
    for (const answer of ['missing', 500, 429, 503] as const) {
      const [created] = sim.addCalls(KEY, {
        overrides: { status: 'completed', call_ended_by: 'ASSISTANT', transferred_to: null },
      });
      sim.state.correctedAnswers.set(created.call_id, answer);
      const { call } = await provider().getCall(KEY, created.call_id);
      expect(
        call.transcript?.map((l) => l.text),
        String(answer),
      ).toEqual(created.transcripts.map((l) => l.text));
      expect(call.transcript?.some((l) => l.startMs !== undefined)).toBe(false);
      expect(call.conversation).toEqual({ precision: 'approx', endedBy: 'agent', sentiment: null });
    }
  });

  it('keeps the post-call transcript when the corrected one cannot stand for it', async () => {
    const [created] = sim.addCalls(KEY, { overrides: { status: 'completed' } });
    // A diarization number without a label says nothing of who spoke (Bland's older answers).
    sim.state.correctedAnswers.set(created.call_id, 'available');
    const voice = provider();
    const unlabelled = correctedSegments(created).map(({ speaker_label: _l, ...rest }) => rest);
    // The details may carry the segments themselves (Bland's delayed webhook body does).
    sim.updateCall(created.call_id, { corrected_transcript: unlabelled });
    const { call } = await voice.getCall(KEY, created.call_id);
    expect(call.conversation?.precision).toBe('approx');
    expect(call.transcript?.map((l) => l.text)).toEqual(created.transcripts.map((l) => l.text));
    // Segments in the details are used as they are: no second request for them.
    expect(sim.state.stats.byRoute['/v1/calls/:id/correct']).toBeUndefined();
  });

  it('asks for no corrected transcript of a call not ended, or where nothing was said', async () => {
    const [active] = sim.addCalls(KEY, { overrides: { completed: false } });
    const [failed] = sim.addCalls(KEY, { overrides: { status: 'no-answer' } });
    const voice = provider();
    expect((await voice.getCall(KEY, active.call_id)).call.status).toBe('active');
    const { call } = await voice.getCall(KEY, failed.call_id);
    expect(call.transcript).toEqual([]);
    expect(call.conversation).toEqual({ precision: 'approx', endedBy: 'unknown', sentiment: null });
    expect(sim.state.stats.byRoute['/v1/calls/:id/correct']).toBeUndefined();
  });

  it('still fails on a refused key, before asking for the corrected transcript', async () => {
    const [created] = sim.addCalls(KEY, { overrides: { status: 'completed' } });
    await expect(provider().getCall('wrong', created.call_id)).rejects.toBeInstanceOf(ProviderAuthError);
    expect(sim.state.stats.byRoute['/v1/calls/:id/correct']).toBeUndefined();
  });

  it('throws ProviderNotFoundError for an unknown call or one of another account', async () => {
    const [foreign] = sim.addCalls('other_key');
    await expect(provider().getCall(KEY, 'no-such-call')).rejects.toBeInstanceOf(ProviderNotFoundError);
    await expect(provider().getCall(KEY, foreign.call_id)).rejects.toBeInstanceOf(ProviderNotFoundError);
  });
});

describe('ids that would change the path', () => {
  it('never reach the provider: "..", "../calls", slashes and encoded slashes are refused here', async () => {
    const before = sim.state.stats.requests;
    for (const id of ['..', '.', '../calls', 'a/b', '%2e%2e', 'a%2Fb', 'x?y', '']) {
      await expect(provider().getCall(KEY, id), id).rejects.toBeInstanceOf(ProviderNotFoundError);
      await expect(provider().streamRecording(KEY, id), id).rejects.toBeInstanceOf(ProviderNotFoundError);
      expect(await provider().getPathwayName(KEY, id), id).toBeNull();
    }
    expect(sim.state.stats.requests).toBe(before);
  });
});

describe('streamRecording', () => {
  it('streams the whole MP3', async () => {
    const [created] = sim.addCalls(KEY, { overrides: { status: 'completed' } });
    const rec = await provider().streamRecording(KEY, created.call_id);
    expect(rec.status).toBe(200);
    expect(rec.headers['content-type']).toBe('audio/mpeg');
    expect(rec.headers['accept-ranges']).toBe('bytes');
    expect(rec.headers['content-length']).toBe(String(sampleMp3().length));
    expect((await readAll(rec.body)).equals(sampleMp3())).toBe(true);
  });

  it('passes Range through and answers 206 with content-range', async () => {
    const [created] = sim.addCalls(KEY, { overrides: { status: 'completed' } });
    const size = sampleMp3().length;
    const rec = await provider().streamRecording(KEY, created.call_id, 'bytes=100-199');
    expect(rec.status).toBe(206);
    expect(rec.headers['content-range']).toBe(`bytes 100-199/${size}`);
    expect(rec.headers['content-length']).toBe('100');
    expect((await readAll(rec.body)).equals(sampleMp3().subarray(100, 200))).toBe(true);

    const tail = await provider().streamRecording(KEY, created.call_id, `bytes=${size + 10}-`);
    expect(tail.status).toBe(416);
    expect(tail.headers['content-range']).toBe(`bytes */${size}`);
    await readAll(tail.body);
  });

  it('reports an expired recording, and a call without one as not found', async () => {
    const [created] = sim.addCalls(KEY, { overrides: { status: 'completed' } });
    const [noAnswer] = sim.addCalls(KEY, { overrides: { status: 'no-answer' } });
    sim.expireRecording(created.call_id);
    await expect(provider().streamRecording(KEY, created.call_id)).rejects.toBeInstanceOf(
      RecordingExpiredError,
    );
    await expect(provider().streamRecording(KEY, created.call_id)).rejects.toThrow(
      'This recording has expired at the voice provider',
    );
    await expect(provider().streamRecording(KEY, noAnswer.call_id)).rejects.toBeInstanceOf(
      ProviderNotFoundError,
    );
    await expect(provider().streamRecording(KEY, 'no-such-call')).rejects.toBeInstanceOf(
      ProviderNotFoundError,
    );
  });
});

describe('keys and errors', () => {
  it('checkKey tells a valid key from an invalid one', async () => {
    expect(await provider().checkKey(KEY)).toBe('valid');
    expect(await provider().checkKey('wrong')).toBe('invalid');
    expect(await provider().checkKey('')).toBe('invalid');
    expect(sim.state.stats.byRoute['/v1/calls']).toBe(2);
  });

  it('throws ProviderAuthError on 401 without retrying', async () => {
    const before = sim.state.stats.requests;
    const error = await provider()
      .listCalls('wrong', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect((error as Error).message).toBe('The voice provider rejected the API key');
    expect(sim.state.stats.requests - before).toBe(1);
  });

  it('backs off on 429 and then succeeds', async () => {
    sim.addCalls(KEY, { count: 2 });
    sim.setMode('429', { times: 2, retryAfterSeconds: 0 });
    const page = await provider().listCalls(KEY, {});
    expect(page.calls).toHaveLength(2);
    expect(sim.state.stats.requests).toBe(3);
  });

  it('honours Retry-After', async () => {
    sim.setMode('429', { times: 1, retryAfterSeconds: 1 });
    const started = Date.now();
    expect(await provider().checkKey(KEY)).toBe('valid');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('gives up when Retry-After is longer than it is willing to wait', async () => {
    sim.setMode('429', { retryAfterSeconds: 120 });
    await expect(provider().checkKey(KEY)).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(sim.state.stats.requests).toBe(1);
  });

  it('throws ProviderUnavailableError once 500s exhaust the retries', async () => {
    sim.setMode('500');
    const error = await provider()
      .listCalls(KEY, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toBe('The voice provider is not responding, try again later');
    expect(sim.state.stats.requests).toBe(4);
  });

  it('rides out a flaky provider', async () => {
    const [created] = sim.addCalls(KEY);
    sim.setMode('flaky', { retryAfterSeconds: 0 });
    const voice = provider();
    for (let i = 0; i < 4; i++) {
      expect((await voice.getCall(KEY, created.call_id)).call.providerCallId).toBe(created.call_id);
    }
  });

  it('times out on a slow provider', async () => {
    sim.setMode('slow', { slowMs: 3000 });
    const started = Date.now();
    await expect(provider({ timeoutMs: 150 }).listCalls(KEY, {})).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('throws ProviderUnavailableError when nothing listens', async () => {
    const voice = createBlandProvider({ baseUrl: 'http://127.0.0.1:9', retryBaseMs: 1, maxRetries: 1 });
    await expect(voice.checkKey(KEY)).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('keeps at most maxConcurrentPerKey requests in flight per key', async () => {
    const [created] = sim.addCalls(KEY);
    sim.addKey('second_key');
    sim.setMode('slow', { slowMs: 60 });
    const voice = provider({ maxConcurrentPerKey: 3 });
    await Promise.all([
      ...Array.from({ length: 10 }, () => voice.getCall(KEY, created.call_id)),
      ...Array.from({ length: 4 }, () => voice.checkKey('second_key')),
    ]);
    expect(sim.state.stats.maxInFlight.get(KEY)).toBe(3);
    expect(sim.state.stats.maxInFlight.get('second_key')).toBe(3);
  });
});

describe('getPathwayName', () => {
  it('resolves names, caches them, and answers null for unknown ids', async () => {
    const voice = provider();
    expect(await voice.getPathwayName(KEY, SIM_PATHWAYS.support)).toBe('Support');
    expect(await voice.getPathwayName(KEY, SIM_PATHWAYS.support)).toBe('Support');
    expect(sim.state.stats.byRoute['/v1/pathway/:id']).toBe(1);
    expect(await voice.getPathwayName(KEY, 'missing')).toBeNull();
    await expect(voice.getPathwayName('wrong', SIM_PATHWAYS.sales)).rejects.toBeInstanceOf(ProviderAuthError);
  });
});
