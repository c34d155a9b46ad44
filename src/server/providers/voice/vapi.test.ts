/**
 * The real Vapi adapter against its stand-in (sim/platforms/vapi.ts), over HTTP on a free port:
 * paging until the platform has nothing more and the agency's own number read from a
 * call's phoneNumberId, and deleting a call.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startVapiSim, VAPI_SIM_PHONE_NUMBER, type VapiSim } from '../../../../sim/platforms/vapi';
import { ProviderAuthError, ProviderNotFoundError, ProviderUnavailableError } from './errors';
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

describe('timed transcript', () => {
  it("getCall and the list give the stand-in's lines timed by their messages (precision message)", async () => {
    const [call] = sim.addCalls(KEY);
    const { call: read } = await vapi.getCall(KEY, call.id);
    // secondsFromStart 4, 8, …; each message lasts endTime − time = 3 s; the system prompt left out.
    expect(read.transcript?.map((l) => [l.role, l.startMs, l.endMs])).toEqual([
      ['agent', 4000, 7000],
      ['user', 8000, 11000],
      ['agent', 12000, 15000],
      ['user', 16000, 19000],
      ['agent', 20000, 23000],
    ]);
    expect(read.conversation).toEqual({ precision: 'message', endedBy: 'caller', sentiment: null });
    // Vapi's list items carry the artifact too: they come with their conversation.
    const page = await vapi.listCalls(KEY, {});
    expect(page.calls[0].conversation?.precision).toBe('message');
  });
});

describe('listCalls paging', () => {
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

describe('the agency’s number from phoneNumberId', () => {
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

describe('deleteCall', () => {
  const UNKNOWN = '00000000-0000-4000-8000-000000000000';
  const deletes = () => sim.requestLog().filter((line) => line.startsWith('DELETE '));

  it('deletes the call at Vapi: DELETE /call/{id}, and Vapi no longer has it', async () => {
    const [call, kept] = sim.addCalls(KEY, { count: 2 });
    expect(await vapi.deleteCall?.(KEY, call.id)).toBe('deleted');
    expect(deletes()).toEqual([`DELETE /call/${call.id}`]);
    await expect(vapi.getCall(KEY, call.id)).rejects.toBeInstanceOf(ProviderNotFoundError);
    expect((await vapi.listCalls(KEY, {})).calls.map((c) => c.providerCallId)).toEqual([kept.id]);
  });

  it('answers not_found for a call Vapi does not have, deleted already, or not a Vapi id', async () => {
    const [call] = sim.addCalls(KEY, { count: 1 });
    expect(await vapi.deleteCall?.(KEY, UNKNOWN)).toBe('not_found');
    expect(await vapi.deleteCall?.(KEY, call.id)).toBe('deleted');
    expect(await vapi.deleteCall?.(KEY, call.id)).toBe('not_found');
    // Vapi's call ids are UUIDs: another id is not asked for.
    expect(await vapi.deleteCall?.(KEY, 'call_not_a_uuid')).toBe('not_found');
    expect(deletes()).toHaveLength(3);
  });

  it('throws the provider errors for a refused key and a Vapi that keeps failing, retrying a 5xx', async () => {
    const [call] = sim.addCalls(KEY, { count: 1 });
    await expect(vapi.deleteCall?.('not-a-vapi-key', call.id)).rejects.toBeInstanceOf(ProviderAuthError);
    sim.setMode('500');
    await expect(vapi.deleteCall?.(KEY, call.id)).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(sim.accounts.get(KEY)?.has(call.id)).toBe(true);
    sim.setMode('500', 1);
    expect(await vapi.deleteCall?.(KEY, call.id)).toBe('deleted');
    expect(sim.accounts.get(KEY)?.has(call.id)).toBe(false);
  });

  it('the stand-in answers as Vapi documents: 200 with the deleted Call, 404 and 401 in Vapi’s error body', async () => {
    const [call] = sim.addCalls(KEY, { count: 1 });
    const del = (id: string, key = KEY) =>
      fetch(`${sim.url}/call/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: '{}',
      });
    const deleted = await del(call.id);
    expect(deleted.status).toBe(200);
    // The fields Vapi's OpenAPI document requires of a Call.
    expect(await deleted.json()).toMatchObject({
      id: call.id,
      orgId: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const missing = await del(call.id);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Call not found', error: 'Not Found', statusCode: 404 });
    expect((await del(call.id, 'wrong-key')).status).toBe(401);
  });
});
