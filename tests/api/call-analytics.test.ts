import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallsRepository } from '../../src/server/calls/write/calls-repository';
import { makeCall, storeCalls } from '../helpers/calls';
import {
  createAdminUser,
  createClient,
  createSignedInClient,
  loginAdmin,
  loginClient,
} from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Deliberately not on a 15-minute boundary, so both window edges cut through a rollup bucket.
const NOW = Date.UTC(2026, 2, 10, 12, 7, 30);

describe(`call analytics (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
  });
  afterAll(async () => {
    await t.close();
  });

  const clientWithCookie = (overrides: Parameters<typeof createSignedInClient>[1] = {}) =>
    createSignedInClient(t, overrides);
  const get = async (cookie: string, url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    return { status: res.statusCode, body: res.json() };
  };

  it('computes stats over the rolling window and percent changes against the previous one', async () => {
    const { client, cookie } = await clientWithCookie();
    await storeCalls(t.deps, client, [
      { createdAt: NOW - HOUR, durationSeconds: 60, status: 'completed' },
      { createdAt: NOW - 2 * DAY, durationSeconds: 120, status: 'transferred' },
      { createdAt: NOW - 3 * DAY, durationSeconds: 30, status: 'failed' },
      { createdAt: NOW - 7 * DAY + 1, durationSeconds: 0, status: 'failed' }, // just inside
      { createdAt: NOW - 7 * DAY, durationSeconds: 90, status: 'completed' }, // previous window
      { createdAt: NOW - 14 * DAY, durationSeconds: 600, status: 'completed' }, // outside both
    ]);
    const { status, body } = await get(cookie, '/api/client/stats?dateRange=7d');
    expect(status).toBe(200);
    // cost: (60 + 120 + 30 + 0) s × $0.15/min = $0.525 → shown to the cent
    expect(body).toEqual({
      totalCalls: 4,
      totalCost: 0.53,
      avgDuration: 90, // completed and transferred only: (60 + 120) / 2
      totalTransfers: 1,
      changes: { totalCalls: 300, totalCost: 130.4, avgDuration: 0, totalTransfers: 100 },
      // One completed 90 s call: $0.225 → $0.23.
      previousPeriod: { totalCalls: 1, totalCost: 0.23, avgDuration: 90, totalTransfers: 0 },
    });
  });

  it('limits the call log and its export to the last 30 days for ?dateRange=30d, as the stats', async () => {
    const { client, cookie } = await clientWithCookie();
    await storeCalls(t.deps, client, [
      { createdAt: NOW - HOUR, providerCallId: 'recent' },
      { createdAt: NOW - 20 * DAY, providerCallId: 'twenty-days' },
      { createdAt: NOW - 40 * DAY, providerCallId: 'forty-days' },
    ]);
    const listed = async (url: string, who = cookie) => {
      const { status, body } = await get(who, url);
      expect(status, `${url}: ${JSON.stringify(body)}`).toBe(200);
      return body.calls.map((c: { providerCallId: string }) => c.providerCallId).sort();
    };
    expect(await listed('/api/client/calls?dateRange=30d')).toEqual(['recent', 'twenty-days']);
    expect((await get(cookie, '/api/client/calls?dateRange=30d')).body.pagination.total).toBe(2);
    expect((await get(cookie, '/api/client/stats?dateRange=30d')).body.totalCalls).toBe(2);
    expect(await listed('/api/client/calls?dateRange=7d')).toEqual(['recent']);
    // Without a range or dates the log lists every call; dates sent with a range win.
    expect(await listed('/api/client/calls')).toEqual(['forty-days', 'recent', 'twenty-days']);
    const start = new Date(NOW - 50 * DAY).toISOString();
    const end = new Date(NOW).toISOString();
    expect(await listed(`/api/client/calls?dateRange=30d&startDate=${start}&endDate=${end}`)).toEqual([
      'forty-days',
      'recent',
      'twenty-days',
    ]);
    expect(await listed('/api/client/calls?dateRange=30d&from=2026-01-01&to=2026-01-31')).toEqual([
      'forty-days',
    ]);

    const admin = await createAdminUser(t.deps);
    const adminCookie = await loginAdmin(t.app, admin.username);
    expect(await listed(`/api/admin/client-calls/${client.id}?dateRange=30d`, adminCookie)).toEqual([
      'recent',
      'twenty-days',
    ]);

    const rows = await t.deps.db
      .selectFrom('calls')
      .select(['id', 'provider_call_id'])
      .where('client_id', '=', client.id)
      .execute();
    const idOf = (providerCallId: string) =>
      rows.find((r) => r.provider_call_id === providerCallId)?.id ?? '';
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/client/calls/export?format=csv&dateRange=30d',
      headers: { cookie },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(idOf('recent'));
    expect(csv.body).toContain(idOf('twenty-days'));
    expect(csv.body).not.toContain(idOf('forty-days'));
  });

  it('refuses a date window on the attention list, which holds every open call', async () => {
    const { cookie } = await clientWithCookie();
    for (const query of [
      'dateRange=30d',
      'from=2026-03-01&to=2026-03-02',
      'startDate=2026-03-01T00:00:00Z',
    ]) {
      const { status, body } = await get(cookie, `/api/client/attention?${query}`);
      expect(status, query).toBe(400);
      expect(Object.keys(body.fields)[0], query).toBe(query.split('=')[0]);
    }
    expect((await get(cookie, '/api/client/attention?limit=5')).status).toBe(200);
  });

  it('answers zeros, and zero changes, for a client without calls', async () => {
    const { cookie } = await clientWithCookie();
    const { body } = await get(cookie, '/api/client/stats?dateRange=30d');
    expect(body).toEqual({
      totalCalls: 0,
      totalCost: 0,
      avgDuration: 0,
      totalTransfers: 0,
      changes: { totalCalls: 0, totalCost: 0, avgDuration: 0, totalTransfers: 0 },
      previousPeriod: { totalCalls: 0, totalCost: 0, avgDuration: 0, totalTransfers: 0 },
    });
  });

  it('reads a missing dateRange as 7 days and refuses an unknown one (400 naming it)', async () => {
    const { client, cookie } = await clientWithCookie();
    await storeCalls(t.deps, client, [{ createdAt: NOW - 10 * DAY }, { createdAt: NOW - DAY }]);
    const unknown = await get(cookie, '/api/client/stats?dateRange=forever');
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.fields)).toEqual(['dateRange']);
    expect((await get(cookie, '/api/client/stats')).body.totalCalls).toBe(1);
    expect((await get(cookie, '/api/client/stats?dateRange=30d')).body.totalCalls).toBe(2);
  });

  it('counts completed calls per local day in the client time zone, zero days included, across DST', async () => {
    const { client, cookie } = await clientWithCookie({ timezone: 'America/New_York' });
    await storeCalls(t.deps, client, [
      { createdAt: Date.UTC(2026, 2, 10, 3, 30) }, // 23:30 on Mar 9 in New York (EDT)
      { createdAt: Date.UTC(2026, 2, 10, 4, 30) }, // 00:30 on Mar 10
      { createdAt: Date.UTC(2026, 2, 8, 4, 30) }, // 23:30 on Mar 7 (EST, before the switch)
      { createdAt: Date.UTC(2026, 2, 8, 5, 30) }, // 00:30 on Mar 8
      { createdAt: Date.UTC(2026, 2, 9, 15, 0), status: 'failed' }, // not completed: not counted
    ]);
    const { status, body } = await get(cookie, '/api/client/calls-over-time?dateRange=7d');
    expect(status).toBe(200);
    expect(body).toEqual([
      { date: '2026-03-04', count: 0 },
      { date: '2026-03-05', count: 0 },
      { date: '2026-03-06', count: 0 },
      { date: '2026-03-07', count: 1 },
      { date: '2026-03-08', count: 1 },
      { date: '2026-03-09', count: 1 },
      { date: '2026-03-10', count: 1 },
    ]);
    expect((await get(cookie, '/api/client/calls-over-time?dateRange=60d')).body).toHaveLength(60);
  });

  it('pages the log newest first; the last pages read the same rows as a full listing', async () => {
    const { client, cookie } = await clientWithCookie();
    await storeCalls(
      t.deps,
      client,
      Array.from({ length: 25 }, (_, i) => ({ createdAt: NOW - i * HOUR, providerCallId: `p-${i}` })),
    );
    const all = (await get(cookie, '/api/client/calls?limit=100')).body;
    expect(all.pagination).toEqual({ page: 1, limit: 100, total: 25, totalPages: 1 });
    const ids = all.calls.map((c: { id: string }) => c.id);
    const times = all.calls.map((c: { createdAt: string }) => Date.parse(c.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const pages = [];
    for (const page of [1, 2, 3]) pages.push((await get(cookie, `/api/client/calls?page=${page}`)).body);
    expect(pages.map((p) => p.calls.length)).toEqual([10, 10, 5]);
    expect(pages.flatMap((p) => p.calls.map((c: { id: string }) => c.id))).toEqual(ids);
    expect(pages[2].pagination).toEqual({ page: 3, limit: 10, total: 25, totalPages: 3 });

    const beyond = (await get(cookie, '/api/client/calls?page=4')).body;
    expect(beyond.calls).toEqual([]);
    expect(beyond.pagination.total).toBe(25);
  });

  it('filters by status, pathway (any case), date window and search', async () => {
    const { client, cookie } = await clientWithCookie();
    await storeCalls(t.deps, client, [
      { createdAt: NOW - HOUR, status: 'completed', pathway: 'Sales', fromNumber: '+14155550100' },
      { createdAt: NOW - 2 * HOUR, status: 'active', pathway: 'Support' },
      {
        createdAt: NOW - 3 * DAY,
        status: 'completed',
        pathway: 'Booking',
        transcript: [{ role: 'user', text: 'I would like a Dentist appointment' }],
      },
    ]);
    const count = async (query: string) =>
      (await get(cookie, `/api/client/calls?${query}`)).body.pagination.total;
    expect(await count('status=completed')).toBe(2);
    expect(await count('status=active')).toBe(1);
    expect(await count('status=all')).toBe(3);
    expect(await count('pathway=sales')).toBe(1);
    expect(await count('pathway=all')).toBe(3);
    expect(
      await count(`startDate=${new Date(NOW - DAY).toISOString()}&endDate=${new Date(NOW).toISOString()}`),
    ).toBe(2);
    expect(await count('search=4155550100')).toBe(1);
    // As the log shows a number, and as people write one.
    expect(await count(`search=${encodeURIComponent('+1 415 555 0100')}`)).toBe(1);
    expect(await count(`search=${encodeURIComponent('(415) 555-0100')}`)).toBe(1);
    expect(await count('search=dentist')).toBe(1);
    expect(await count('search=100%25')).toBe(0);
  });

  it("shows the provider's own call id beside ours, and finds the call by it", async () => {
    const { client, cookie } = await clientWithCookie();
    await storeCalls(t.deps, client, [{ createdAt: NOW - HOUR, status: 'completed' }]);
    const [call] = (await get(cookie, '/api/client/calls?status=all')).body.calls;
    const row = await t.deps.db
      .selectFrom('calls')
      .select('provider_call_id')
      .where('id', '=', call.id)
      .executeTakeFirstOrThrow();
    expect(call.providerCallId).toBe(row.provider_call_id);
    const found = await get(cookie, `/api/client/calls?status=all&search=${call.providerCallId}`);
    expect(found.body.calls.map((c: { id: string }) => c.id)).toEqual([call.id]);
  });

  it('refuses malformed query values with 400 and a message', async () => {
    const { cookie } = await clientWithCookie();
    for (const query of [
      'page=0',
      'page=abc',
      'limit=101',
      'limit=-1',
      'status=bogus',
      'startDate=yesterday',
    ]) {
      const { status, body } = await get(cookie, `/api/client/calls?${query}`);
      expect(status, query).toBe(400);
      expect(typeof body.message).toBe('string');
    }
  });

  it('refuses a half, reversed, too long or too fine analytics window with 400 and a message', async () => {
    const { cookie } = await clientWithCookie();
    const at = (ms: number) => new Date(ms).toISOString();
    const cases: [string, string][] = [
      [`/api/client/stats?startDate=${at(NOW - DAY)}`, 'startDate and endDate go together'],
      [`/api/client/calls-over-time?endDate=${at(NOW)}`, 'startDate and endDate go together'],
      [`/api/client/stats?startDate=${at(NOW)}&endDate=${at(NOW - DAY)}`, 'startDate must be before endDate'],
      [
        `/api/client/calls-over-time?startDate=${at(NOW - 120 * DAY)}&endDate=${at(NOW)}`,
        'The window may span at most 91 days',
      ],
      [
        `/api/client/calls-over-time?interval=hour&startDate=${at(NOW - 3 * DAY)}&endDate=${at(NOW)}`,
        'Hourly points are offered for windows up to 2 days',
      ],
      [
        '/api/client/calls-over-time?interval=hour&dateRange=7d',
        'Hourly points are offered for windows up to 2 days',
      ],
      ['/api/client/calls-over-time?interval=minute', 'Invalid'],
      [`/api/demo/stats?startDate=${at(NOW - DAY)}&endDate=nope`, 'Invalid date'],
    ];
    for (const [url, message] of cases) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toContain(message);
    }
  });

  it('answers hourly points for the last 24 hours, the last being the current hour', async () => {
    const { client, cookie } = await clientWithCookie({ timezone: 'Asia/Kolkata' });
    await storeCalls(t.deps, client, [
      { createdAt: NOW - 5 * 60_000 },
      { createdAt: NOW - 3 * HOUR },
      { createdAt: NOW - 3 * HOUR - 60_000, status: 'failed' },
      { createdAt: NOW - DAY - 1 },
    ]);
    const points = (await get(cookie, '/api/client/calls-over-time?dateRange=1d&interval=hour')).body;
    // 12:07:30 UTC is 17:37:30 in Kolkata; 24 hours back starts inside 17:00 the day before.
    expect(points).toHaveLength(25);
    expect(points[0].date).toBe('2026-03-09T17:00');
    expect(points[24]).toEqual({ date: '2026-03-10T17:00', count: 1 });
    expect(points[21]).toEqual({ date: '2026-03-10T14:00', count: 1 });
    expect(points.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(2);
  });

  it('refuses dates outside 2000 to 2100 with 400, on the client log and the public demo', async () => {
    const { cookie } = await clientWithCookie();
    for (const date of [
      '-271821-04-20',
      '-100000-01-01',
      '-10000-01-01',
      '+275760-09-13',
      '1899-12-31',
      '2101-01-01',
    ]) {
      for (const url of [`/api/client/calls?startDate=${date}`, `/api/demo/calls?endDate=${date}`]) {
        const { status, body } = await get(cookie, url.replace(date, encodeURIComponent(date)));
        expect(status, url).toBe(400);
        expect(body.message, url).toMatch(/between the years 2000 and 2100/);
      }
    }
    expect((await get(cookie, '/api/client/calls?startDate=2026-01-01')).status).toBe(200);
  });

  it('deleting a call updates stats; another client’s call answers 404 and stays', async () => {
    const a = await clientWithCookie();
    const b = await clientWithCookie();
    await storeCalls(t.deps, a.client, [{ createdAt: NOW - HOUR }, { createdAt: NOW - 2 * HOUR }]);
    const [first] = (await get(a.cookie, '/api/client/calls')).body.calls;

    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/client/calls/${first.id}`,
      headers: { cookie: b.cookie },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await get(a.cookie, '/api/client/stats')).body.totalCalls).toBe(2);

    const own = await t.app.inject({
      method: 'DELETE',
      url: `/api/client/calls/${first.id}`,
      headers: { cookie: a.cookie },
    });
    expect(own.json()).toEqual({ success: true });
    expect((await get(a.cookie, '/api/client/stats')).body.totalCalls).toBe(1);
    expect((await get(a.cookie, '/api/client/calls')).body.pagination.total).toBe(1);
  });

  it('never shows one client’s calls to another', async () => {
    const a = await clientWithCookie();
    const b = await clientWithCookie();
    await storeCalls(t.deps, a.client, [{ createdAt: NOW - HOUR }]);
    expect((await get(b.cookie, '/api/client/calls')).body.calls).toEqual([]);
    expect((await get(b.cookie, '/api/client/stats')).body.totalCalls).toBe(0);
    expect(
      (await get(b.cookie, '/api/client/calls-over-time')).body.every(
        (p: { count: number }) => p.count === 0,
      ),
    ).toBe(true);
  });

  it('requires a client session', async () => {
    for (const url of ['/api/client/calls', '/api/client/stats', '/api/client/calls-over-time']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthorized' });
    }
  });
});

describe(`calls repository (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
  });
  afterAll(async () => {
    await t.close();
  });

  const rollupTotal = async (clientId: string) => {
    const rows = await t.deps.db
      .selectFrom('call_rollups')
      .selectAll()
      .where('client_id', '=', clientId)
      .execute();
    return rows.reduce(
      (acc, r) => ({ count: acc.count + r.call_count, seconds: acc.seconds + r.total_seconds }),
      { count: 0, seconds: 0 },
    );
  };

  it('merges repeated deliveries into one row; status never moves back to active', async () => {
    const client = await createClient(t.deps);
    const repo = createCallsRepository(t.deps.db);
    const done = makeCall({
      providerCallId: 'call-1',
      status: 'completed',
      durationSeconds: 75,
      createdAt: NOW - HOUR,
    });
    expect(await repo.upsertCalls(client, [done])).toEqual({ created: 1, updated: 0, outcomes: ['created'] });
    expect(await repo.upsertCalls(client, [done])).toEqual({
      created: 0,
      updated: 0,
      outcomes: ['unchanged'],
    });
    const late = {
      ...done,
      status: 'active' as const,
      durationSeconds: 0,
      recordingUrl: 'https://rec/1.mp3',
    };
    expect(await repo.upsertCalls(client, [late])).toEqual({ created: 0, updated: 1, outcomes: ['updated'] });
    const rows = await t.deps.db.selectFrom('calls').selectAll().where('client_id', '=', client.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'completed',
      duration_seconds: 75,
      recording_url: 'https://rec/1.mp3',
    });
    expect(await rollupTotal(client.id)).toEqual({ count: 1, seconds: 75 });
  });

  it('moves an active call forward and keeps rollups exact', async () => {
    const client = await createClient(t.deps);
    const repo = createCallsRepository(t.deps.db);
    const live = makeCall({
      providerCallId: 'call-2',
      status: 'active',
      durationSeconds: 0,
      createdAt: NOW - HOUR,
    });
    await repo.upsertCalls(client, [live]);
    await repo.upsertCalls(client, [{ ...live, status: 'transferred', durationSeconds: 200 }]);
    const rollups = await t.deps.db
      .selectFrom('call_rollups')
      .selectAll()
      .where('client_id', '=', client.id)
      .execute();
    expect(rollups.filter((r) => r.call_count !== 0)).toMatchObject([
      { status: 'transferred', call_count: 1, total_seconds: 200 },
    ]);
  });

  it('keeps the cost at the rate in force when the call first arrived', async () => {
    const client = await createClient(t.deps, { per_minute_rate_cents: 20 });
    const repo = createCallsRepository(t.deps.db);
    const call = makeCall({ providerCallId: 'call-3', status: 'active', durationSeconds: 0 });
    await repo.upsertCalls(client, [call]);
    await repo.upsertCalls({ ...client, per_minute_rate_cents: 99 }, [
      { ...call, status: 'completed', durationSeconds: 120 },
    ]);
    const row = await t.deps.db
      .selectFrom('calls')
      .selectAll()
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(row.cost_micros).toBe(400_000); // 2 min × $0.20
  });

  it('keeps warm-transfer proxy legs out of the log and the rollups', async () => {
    const client = await createClient(t.deps);
    await storeCalls(t.deps, client, [{ isProxy: true }, {}]);
    expect(await rollupTotal(client.id)).toMatchObject({ count: 1 });
  });

  it('survives concurrent upserts of the same calls without duplicates', async () => {
    const client = await createClient(t.deps);
    const repo = createCallsRepository(t.deps.db);
    const calls = Array.from({ length: 30 }, (_, i) =>
      makeCall({ providerCallId: `race-${i}`, createdAt: NOW - i * HOUR }),
    );
    const results = await Promise.all([
      repo.upsertCalls(client, calls),
      repo.upsertCalls(client, [...calls].reverse()),
    ]);
    expect(results.reduce((n, r) => n + r.created, 0)).toBe(30);
    const n = await t.deps.db
      .selectFrom('calls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(30);
    expect(await rollupTotal(client.id)).toMatchObject({ count: 30 });
  });

  it('upserts calls of several clients at once: same provider id kept apart, each in its own time zone', async () => {
    const tokyo = await createClient(t.deps, { timezone: 'Asia/Tokyo' });
    const denver = await createClient(t.deps, { timezone: 'America/Denver' });
    const repo = createCallsRepository(t.deps.db);
    // 20:00 UTC is the next day in Tokyo and the same day in Denver.
    const at = Date.UTC(2025, 2, 4, 20, 0, 0);
    const shared = makeCall({ providerCallId: 'same-id', createdAt: at, durationSeconds: 60 });
    const result = await repo.upsertMany([
      { client: { id: tokyo.id, per_minute_rate_cents: tokyo.per_minute_rate_cents }, call: shared },
      { client: denver, call: shared },
      { client: denver, call: { ...shared, durationSeconds: 90 } },
    ]);
    expect(result).toEqual({ created: 2, updated: 1, outcomes: ['created', 'created', 'updated'] });
    const rows = await t.deps.db
      .selectFrom('calls')
      .select(['client_id', 'duration_seconds'])
      .where('provider_call_id', '=', 'same-id')
      .orderBy('duration_seconds')
      .execute();
    expect(rows).toEqual([
      { client_id: tokyo.id, duration_seconds: 60 },
      { client_id: denver.id, duration_seconds: 90 },
    ]);
    const days = await t.deps.db
      .selectFrom('call_rollups_daily')
      .select(['client_id', 'day', 'call_count', 'total_seconds'])
      .where('client_id', 'in', [tokyo.id, denver.id])
      .where('call_count', '!=', 0)
      .execute();
    expect(days).toEqual(
      expect.arrayContaining([
        { client_id: tokyo.id, day: '2025-03-05', call_count: 1, total_seconds: 60 },
        { client_id: denver.id, day: '2025-03-04', call_count: 1, total_seconds: 90 },
      ]),
    );
    expect(days).toHaveLength(2);
  });

  it('keeps rollups exact when deletes and pathway renames race each other', async () => {
    const client = await createClient(t.deps);
    const repo = createCallsRepository(t.deps.db);
    const calls = Array.from({ length: 40 }, (_, i) =>
      makeCall({
        providerCallId: `del-${i}`,
        createdAt: NOW - i * HOUR,
        durationSeconds: 10 + i,
        pathway: undefined,
        pathwayId: 'pw-1',
      }),
    );
    await repo.upsertCalls(client, calls);
    const stored = await t.deps.db
      .selectFrom('calls')
      .selectAll()
      .where('client_id', '=', client.id)
      .execute();
    const victim = stored.find((r) => r.provider_call_id === 'del-0')!;
    await Promise.all([
      repo.deleteCalls(client.id, { createdBefore: NOW - 20 * HOUR }),
      repo.deleteCalls(client.id, { createdBefore: NOW - 25 * HOUR }),
      repo.deleteCall(client.id, victim.id),
      repo.deleteCall(client.id, victim.id),
      repo.renamePathway(client.id, 'pw-1', 'Sales'),
      repo.renamePathway(client.id, 'pw-1', 'Sales'),
    ]);
    const left = await t.deps.db.selectFrom('calls').selectAll().where('client_id', '=', client.id).execute();
    expect(left).toHaveLength(20); // del-1 … del-20
    expect(await rollupTotal(client.id)).toEqual({
      count: left.length,
      seconds: left.reduce((n, r) => n + r.duration_seconds, 0),
    });
    const byPathway = await t.deps.db
      .selectFrom('call_rollups')
      .select(['pathway', (eb) => eb.fn.sum<number>('call_count').as('n')])
      .where('client_id', '=', client.id)
      .groupBy('pathway')
      .execute();
    expect(byPathway.map((r) => [r.pathway, Number(r.n)]).filter(([, n]) => n !== 0)).toEqual([
      ['Sales', 20],
    ]);
  });
});

describe(`rollup windows agree with counting the calls (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
  });
  afterAll(async () => {
    await t.close();
  });

  // A deterministic spread of calls over 70 days, edges and DST included.
  function spread(count: number) {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const statuses = ['completed', 'failed', 'transferred', 'active'] as const;
    return Array.from({ length: count }, (_, i) => ({
      providerCallId: `spread-${i}`,
      createdAt: NOW - Math.floor(rand() * 70 * DAY),
      durationSeconds: Math.floor(rand() * 600),
      status: statuses[Math.floor(rand() * 4)],
      pathway: ['Sales', 'Support', 'Booking'][Math.floor(rand() * 3)],
    }));
  }

  it.each(['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'])('in %s', async (timezone) => {
    const client = await createClient(t.deps, { timezone });
    const calls = spread(400);
    await storeCalls(t.deps, client, calls);
    const cookie = await loginClient(t.app, client.email);

    for (const range of ['1d', '7d', '30d', '60d'] as const) {
      const days = Number.parseInt(range, 10);
      const inWindow = calls.filter((c) => c.createdAt > NOW - days * DAY && c.createdAt <= NOW);
      const stats = (
        await t.app.inject({
          method: 'GET',
          url: `/api/client/stats?dateRange=${range}`,
          headers: { cookie },
        })
      ).json();
      expect(stats.totalCalls, range).toBe(inWindow.length);
      expect(stats.totalTransfers, range).toBe(inWindow.filter((c) => c.status === 'transferred').length);
      const connected = inWindow.filter((c) => c.status === 'completed' || c.status === 'transferred');
      const avg = connected.length
        ? Math.round(connected.reduce((n, c) => n + c.durationSeconds, 0) / connected.length)
        : 0;
      expect(stats.avgDuration, range).toBe(avg);
    }

    const from = NOW - 20 * DAY - 12345;
    const to = NOW - 3 * DAY + 777;
    const query = `status=completed&pathway=sales&startDate=${new Date(from).toISOString()}&endDate=${new Date(to).toISOString()}`;
    const page = (
      await t.app.inject({ method: 'GET', url: `/api/client/calls?${query}`, headers: { cookie } })
    ).json();
    const expected = calls.filter(
      (c) => c.createdAt >= from && c.createdAt <= to && c.status === 'completed' && c.pathway === 'Sales',
    );
    expect(page.pagination.total).toBe(expected.length);

    const points = (
      await t.app.inject({
        method: 'GET',
        url: '/api/client/calls-over-time?dateRange=60d',
        headers: { cookie },
      })
    ).json();
    const fmt = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    const byDay = new Map<string, number>();
    for (const c of calls)
      if (c.status === 'completed')
        byDay.set(fmt.format(c.createdAt), (byDay.get(fmt.format(c.createdAt)) ?? 0) + 1);
    for (const p of points) expect(p.count, p.date).toBe(byDay.get(p.date) ?? 0);
  });

  it.each(['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'])(
    'in %s, the stats and chart of a window and pathway count the calls the log lists',
    async (timezone) => {
      const client = await createClient(t.deps, { timezone });
      const calls = spread(600);
      await storeCalls(t.deps, client, calls);
      const cookie = await loginClient(t.app, client.email);
      const json = async (url: string) =>
        (await t.app.inject({ method: 'GET', url, headers: { cookie } })).json();
      const local = (options: Intl.DateTimeFormatOptions) =>
        new Intl.DateTimeFormat('en-CA', { timeZone: timezone, hourCycle: 'h23', ...options });
      const dayOf = local({ year: 'numeric', month: '2-digit', day: '2-digit' });
      const hourOf = local({ hour: '2-digit' });

      // Windows as the dashboard sends them: edges through the middle of days, hours and buckets.
      for (const [from, to, interval] of [
        [NOW - 7 * DAY - 4321, NOW, 'day'],
        [NOW - 30 * DAY + 1, NOW - 2 * DAY - 99_999, 'day'],
        [NOW - DAY, NOW, 'hour'],
        [NOW - 2 * DAY - 7 * 60_000, NOW - HOUR - 1, 'hour'],
      ] as const) {
        const window = `startDate=${new Date(from).toISOString()}&endDate=${new Date(to).toISOString()}`;
        const inWindow = calls.filter(
          (c) => c.createdAt >= from && c.createdAt <= to && c.pathway === 'Support',
        );
        const completed = inWindow.filter((c) => c.status === 'completed');

        const log = await json(`/api/client/calls?status=completed&pathway=support&${window}`);
        expect(log.pagination.total).toBe(completed.length);
        const points: { date: string; count: number }[] = await json(
          `/api/client/calls-over-time?pathway=support&interval=${interval}&${window}`,
        );
        expect(points.reduce((n, p) => n + p.count, 0)).toBe(completed.length);
        const keyOf = (at: number) =>
          interval === 'day' ? dayOf.format(at) : `${dayOf.format(at)}T${hourOf.format(at)}:00`;
        expect(points[0].date).toBe(keyOf(from));
        expect(points[points.length - 1].date).toBe(keyOf(to));
        const expected = new Map<string, number>();
        for (const c of completed)
          expected.set(keyOf(c.createdAt), (expected.get(keyOf(c.createdAt)) ?? 0) + 1);
        for (const p of points) expect(p.count, p.date).toBe(expected.get(p.date) ?? 0);

        const stats = await json(`/api/client/stats?pathway=support&${window}`);
        expect(stats.totalCalls).toBe(inWindow.length);
        expect(stats.totalTransfers).toBe(inWindow.filter((c) => c.status === 'transferred').length);
        const span = to - from;
        const before = calls.filter(
          (c) => c.createdAt >= from - span && c.createdAt < from && c.pathway === 'Support',
        );
        expect(stats.previousPeriod.totalCalls).toBe(before.length);
      }
    },
  );

  it('moves daily rollups when the client changes time zone', async () => {
    const { rebuildDailyRollups } = await import('../../src/server/calls/write/rollups');
    const client = await createClient(t.deps, { timezone: 'UTC' });
    await storeCalls(t.deps, client, [{ createdAt: Date.UTC(2026, 2, 10, 2, 0) }]); // Mar 10 UTC, Mar 9 in New York
    const cookie = await loginClient(t.app, client.email);
    const lastTwo = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/client/calls-over-time?dateRange=7d',
          headers: { cookie },
        })
      )
        .json()
        .slice(-2);
    expect(await lastTwo()).toEqual([
      { date: '2026-03-09', count: 0 },
      { date: '2026-03-10', count: 1 },
    ]);
    await t.deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('clients')
        .set({ timezone: 'America/New_York' })
        .where('id', '=', client.id)
        .execute();
      await rebuildDailyRollups(trx, client.id, 'America/New_York');
    });
    expect(await lastTwo()).toEqual([
      { date: '2026-03-09', count: 1 },
      { date: '2026-03-10', count: 0 },
    ]);
  });
});
