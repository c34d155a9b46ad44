/**
 * A call's reference (contract/call-reference.ts): the short name the log, the drawer, the e-mails
 * and the webhook events give a call. Every call the API answers carries it, and the log's search
 * finds the call by it however it is typed (as shown, upper case, with a leading #), never another
 * client's call whose id starts the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeCalls } from '../helpers/calls';
import { createSignedInClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const NOW = Date.UTC(2026, 10, 20, 15, 0, 0);
const HOUR = 3_600_000;

describe(`call reference (${TEST_DB})`, () => {
  let t: TestApp;
  let cookie: string;
  let otherCookie: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
    const owner = await createSignedInClient(t);
    const other = await createSignedInClient(t);
    cookie = owner.cookie;
    otherCookie = other.cookie;
    await storeCalls(t.deps, owner.client, [
      { providerCallId: 'wanted', createdAt: NOW - HOUR },
      { providerCallId: 'neighbour', createdAt: NOW - 2 * HOUR },
    ]);
    await storeCalls(t.deps, other.client, [{ providerCallId: 'someone-else', createdAt: NOW - HOUR }]);
    // Ids are random: give two calls ids that start alike, one of another client and one of the same.
    const setId = (providerCallId: string, id: string) =>
      t.deps.db.updateTable('calls').set({ id }).where('provider_call_id', '=', providerCallId).execute();
    await setId('wanted', '0a1b2c3d-1111-4111-8111-111111111111');
    await setId('someone-else', '0a1b2c3d-2222-4222-8222-222222222222');
    await setId('neighbour', '0a1b2c3e-3333-4333-8333-333333333333');
  });
  afterAll(async () => {
    await t.close();
  });

  const log = async (as: string, search: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/client/calls?status=all&search=${encodeURIComponent(search)}`,
      headers: { cookie: as },
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { calls: { providerCallId: string; reference: string }[] }).calls;
  };

  it('every call the log and the call detail answer carries its reference, the start of its id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/client/calls?status=all',
      headers: { cookie },
    });
    const calls = (res.json() as { calls: { id: string; reference: string }[] }).calls;
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(call.reference).toBe(call.id.slice(0, 8));
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/client/calls/${calls[0]?.id}`,
      headers: { cookie },
    });
    expect(detail.json()).toMatchObject({ reference: calls[0]?.reference });
  });

  it('the search finds the call by its reference, typed as shown, in capitals or after a #', async () => {
    for (const typed of ['0a1b2c3d', '0A1B2C3D', '#0a1b2c3d', ' 0a1b2c3d ']) {
      const found = await log(cookie, typed);
      expect(
        found.map((c) => c.providerCallId),
        typed,
      ).toEqual(['wanted']);
      expect(found[0]?.reference).toBe('0a1b2c3d');
    }
    // The neighbour's id differs in its eighth digit: a reference is matched whole.
    expect((await log(cookie, '0a1b2c3e')).map((c) => c.providerCallId)).toEqual(['neighbour']);
  });

  it('never finds another client’s call whose id starts alike', async () => {
    expect((await log(otherCookie, '0a1b2c3d')).map((c) => c.providerCallId)).toEqual(['someone-else']);
    expect(await log(otherCookie, '0a1b2c3e')).toEqual([]);
  });

  it('a reference with a character no reference has is a search like any other, not an error', async () => {
    expect(await log(cookie, '0a1b2c3g')).toEqual([]);
  });
});
