/**
 * The real Vapi adapter against its stand-in (sim/platforms/vapi.ts), over HTTP on a free port:
 * paging until the platform has nothing more (issue 33.8) and the agency's own number read from a
 * call's phoneNumberId (issue 33.6).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VAPI_SIM_PHONE_NUMBER, type VapiSim, startVapiSim } from '../../../../sim/platforms/vapi';
import type { VoiceProvider } from './types';
import { createVapiProvider } from './vapi';

const KEY = 'vapi-adapter-test-key';
let sim: VapiSim;
let vapi: VoiceProvider;

beforeAll(async () => {
  sim = await startVapiSim();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.reset();
  sim.addKey(KEY);
  // A fresh adapter: its caches start empty.
  vapi = createVapiProvider({ baseUrl: sim.url, retryBaseMs: 5, maxRetries: 1 });
});

async function listAll(q: { limit?: number; startDate?: Date } = {}) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await vapi.listCalls(KEY, { ...q, cursor });
    ids.push(...page.calls.map((c) => c.providerCallId));
    if (page.nextCursor === null) return { ids, pages: pages + 1 };
    cursor = page.nextCursor;
  }
  throw new Error('paging did not end');
}

const listLimits = () =>
  sim
    .requestLog()
    .filter((line) => line.startsWith('GET /call?'))
    .map((line) => Number(new URL(line.slice(4), 'http://x').searchParams.get('limit')));

describe('listCalls paging (issue 33.8)', () => {
  it('does not take a page shorter than asked for the last: pages until one is empty', async () => {
    const added = sim.addCalls(KEY, { count: 10, endAt: Date.now() - 60_000 });
    sim.setPageCap(3);
    const { ids } = await listAll({ startDate: new Date(Date.now() - 86_400_000) });
    expect(new Set(ids)).toEqual(new Set(added.map((c) => c.id)));
    expect(ids).toHaveLength(10);
  });

  it('never asks for more than Vapi’s documented default of 100 a page', async () => {
    sim.addCalls(KEY, { count: 250, endAt: Date.now() - 60_000 });
    const { ids } = await listAll();
    expect(new Set(ids).size).toBe(250);
    const limits = listLimits();
    expect(limits.length).toBeGreaterThanOrEqual(3);
    for (const limit of limits) expect(limit).toBeLessThanOrEqual(100);
    expect((await vapi.listCalls(KEY, { limit: 5_000 })).calls).toHaveLength(100);
  });

  it('ends on an empty account at once', async () => {
    expect(await listAll()).toEqual({ ids: [], pages: 1 });
  });
});

describe('the agency’s number from phoneNumberId (issue 33.6)', () => {
  it('fills the from-number of an outbound call and the to-number of an inbound one, asking once', async () => {
    const [outbound] = sim.addCalls(KEY, { count: 1, endAt: Date.now() - 120_000 });
    const [inbound] = sim.addCalls(KEY, { count: 1, endAt: Date.now() - 60_000 });
    inbound.type = 'inboundPhoneCall';
    expect(outbound.phoneNumber).toBeUndefined();
    const customerOf = (call: typeof outbound) => (call.customer as { number: string }).number;

    const page = await vapi.listCalls(KEY, {});
    const byId = new Map(page.calls.map((c) => [c.providerCallId, c]));
    expect(byId.get(outbound.id)).toMatchObject({
      fromNumber: VAPI_SIM_PHONE_NUMBER.number,
      toNumber: customerOf(outbound),
    });
    expect(byId.get(inbound.id)).toMatchObject({
      fromNumber: customerOf(inbound),
      toNumber: VAPI_SIM_PHONE_NUMBER.number,
    });
    const detail = await vapi.getCall(KEY, inbound.id);
    expect(detail.call.toNumber).toBe(VAPI_SIM_PHONE_NUMBER.number);
    // The raw call is kept as Vapi sent it.
    expect((detail.raw as Record<string, unknown>).phoneNumber).toBeUndefined();
    const lookups = sim.requestLog().filter((line) => line.startsWith('GET /phone-number/'));
    expect(lookups).toEqual([`GET /phone-number/${VAPI_SIM_PHONE_NUMBER.id}`]);
  });

  it('leaves the number empty when Vapi does not know the id, and keeps a transient number', async () => {
    const [gone, transient] = sim.addCalls(KEY, { count: 2 });
    gone.phoneNumberId = '00000000-0000-4000-8000-000000000000';
    transient.phoneNumberId = undefined;
    transient.phoneNumber = { number: '+14155550199' };
    const page = await vapi.listCalls(KEY, {});
    const byId = new Map(page.calls.map((c) => [c.providerCallId, c]));
    expect(byId.get(gone.id)?.fromNumber).toBe('');
    expect(byId.get(transient.id)?.fromNumber).toBe('+14155550199');
  });
});
