/**
 * The real Retell adapter against its stand-in (sim/platforms/retell.ts): a call that never
 * connected has no start_timestamp, so a listing filtered by start time leaves it out; the sync's
 * listing still brings it (issue 33.7), once, dated by its end.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RetellSim, startRetellSim } from '../../../../sim/platforms/retell';
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
