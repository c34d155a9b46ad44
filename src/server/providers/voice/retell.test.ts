/**
 * The real Retell adapter against its stand-in (sim/platforms/retell.ts): a call that never
 * connected has no start_timestamp, so a listing filtered by start time leaves it out; the sync's
 * listing still brings it, once, dated by its end. Deleting a call.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RetellSim, startRetellSim } from '../../../../sim/platforms/retell';
import {
  ProviderAuthError,
  ProviderNotFoundError,
  ProviderUnavailableError,
  VoiceProviderError,
} from './errors';
import { createRetellProvider } from './retell';
import type { ListCallsQuery, NormalizedCall } from './types';

const KEY = 'key_retell_adapter_test';
let sim: RetellSim;
const retell = () => createRetellProvider({ baseUrl: sim.url, retryBaseMs: 5, maxRetries: 1 });

beforeAll(async () => {
  sim = await startRetellSim();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.reset();
  sim.addKey(KEY);
});

async function listAll(q: Omit<ListCallsQuery, 'cursor'>) {
  const voice = retell();
  const calls: NormalizedCall[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await voice.listCalls(KEY, { ...q, cursor });
    calls.push(...page.calls);
    if (page.nextCursor === null) return calls;
    cursor = page.nextCursor;
  }
  throw new Error('paging did not end');
}

describe('listCalls since a date', () => {
  it('brings the calls that never connected (no start_timestamp) beside the others, once each', async () => {
    const now = Date.now();
    const connected = sim.addCalls(KEY, { count: 3, endAt: now - 60_000 });
    const missed = sim.addCalls(KEY, { count: 3, endAt: now - 30_000, notConnected: true });
    sim.addCalls(KEY, { count: 2, endAt: now - 10 * 86_400_000, notConnected: true });
    expect(missed[0].start_timestamp).toBeUndefined();

    const calls = await listAll({ startDate: new Date(now - 86_400_000), limit: 2 });
    const ids = calls.map((c) => c.providerCallId);
    expect(new Set(ids)).toEqual(new Set([...connected, ...missed].map((c) => c.call_id)));
    expect(ids).toHaveLength(6);
    const first = calls.find((c) => c.providerCallId === missed[0].call_id);
    expect(first).toMatchObject({
      status: 'failed',
      durationSeconds: 0,
      createdAt: missed[0].end_timestamp,
      insights: { answeredBy: 'no-answer' },
    });
  });

  it('without a date lists every call once', async () => {
    sim.addCalls(KEY, { count: 2 });
    sim.addCalls(KEY, { count: 2, notConnected: true });
    expect(await listAll({})).toHaveLength(4);
  });
});

describe('timed transcript', () => {
  it("getCall gives the stand-in's lines timed by their words (precision word), its sentiment as sent", async () => {
    const [call] = sim.addCalls(KEY);
    const { call: read } = await retell().getCall(KEY, call.call_id);
    expect(read.transcript?.map((l) => [l.role, l.startMs, l.endMs])).toEqual([
      ['agent', 4000, 7000],
      ['user', 8000, 11000],
      ['agent', 12000, 15000],
      ['user', 16000, 16900], // "Nine thirty, please.": three words, 0.3 s each
      ['agent', 20000, 23000],
    ]);
    expect(read.conversation).toEqual({ precision: 'word', endedBy: 'caller', sentiment: 'Positive' });
  });
});

describe('deleteCall', () => {
  it('deletes the call at Retell (204), and Retell no longer has it', async () => {
    const [call, kept] = sim.addCalls(KEY, { count: 2 });
    const voice = retell();
    expect(await voice.deleteCall?.(KEY, call.call_id)).toBe('deleted');
    await expect(voice.getCall(KEY, call.call_id)).rejects.toBeInstanceOf(ProviderNotFoundError);
    expect((await listAll({})).map((c) => c.providerCallId)).toEqual([kept.call_id]);
  });

  it('answers not_found for a call Retell does not have (its documented 422) or deleted already', async () => {
    const [call] = sim.addCalls(KEY, { count: 1 });
    const voice = retell();
    expect(await voice.deleteCall?.(KEY, 'call_0000000000000000000000000000')).toBe('not_found');
    expect(await voice.deleteCall?.(KEY, call.call_id)).toBe('deleted');
    expect(await voice.deleteCall?.(KEY, call.call_id)).toBe('not_found');
    expect(await voice.deleteCall?.(KEY, '../v2/list-calls')).toBe('not_found');
    expect(sim.requests()).toBe(3);
  });

  it('throws the provider errors for a refused key and a Retell that keeps failing', async () => {
    const [call] = sim.addCalls(KEY, { count: 1 });
    await expect(retell().deleteCall?.('key_wrong', call.call_id)).rejects.toBeInstanceOf(ProviderAuthError);
    sim.setMode('500');
    await expect(retell().deleteCall?.(KEY, call.call_id)).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(sim.accounts.get(KEY)?.has(call.call_id)).toBe(true);
  });

  it('reads a 404 as not found too, and throws a 400 rather than take the call for gone', async () => {
    let status = 404;
    const other = createServer((_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'error', message: 'Invalid request format' }));
    });
    await new Promise<void>((listening) => other.listen(0, '127.0.0.1', listening));
    try {
      const { port } = other.address() as AddressInfo;
      const voice = createRetellProvider({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
      expect(await voice.deleteCall?.(KEY, 'call_1')).toBe('not_found');
      status = 400;
      const failure = await voice.deleteCall?.(KEY, 'call_1').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(VoiceProviderError);
      expect(failure).toMatchObject({ code: 'provider_error', upstreamStatus: 400 });
    } finally {
      await new Promise((closed) => other.close(closed));
    }
  });

  it('the stand-in answers as Retell documents: 204 without a body, 422 and 401 in Retell’s error body', async () => {
    const [call] = sim.addCalls(KEY, { count: 1 });
    const del = (id: string, key = KEY) =>
      fetch(`${sim.url}/v2/delete-call/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}` },
      });
    const deleted = await del(call.call_id);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const missing = await del(call.call_id);
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      status: 'error',
      message: 'Cannot find requested asset under given api key.',
    });
    const refused = await del(call.call_id, 'key_wrong');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ status: 'error' });
  });
});
