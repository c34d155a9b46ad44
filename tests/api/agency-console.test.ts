/**
 * The agency's console, on the test database: portfolio margin to the cent, each
 * at-risk rule, the delivery log with replay (idempotent), the sync history, the audit log, the
 * admins, and admin-only access to all of it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import {
  AdminAnalytics,
  AnalyticsQuery,
  type AtRiskClient,
  type AuditPage,
  type DeliveriesPage,
  PORTFOLIO_SORTS,
  type SyncRunsPage,
} from '../../src/contract/agency';
import { carryClientDaysForward } from '../../src/server/agency/client-days';
import { portfolioAnalytics } from '../../src/server/agency/portfolio';
import { readTableInApp } from '../../src/server/agency/portfolio-table-in-app';
import { readTableInDatabase } from '../../src/server/agency/portfolio-table-in-database';
import { MAX_KEPT_BODY_BYTES } from '../../src/server/calls/ingest/webhook-delivery';
import { createCallsRepository } from '../../src/server/calls/write/calls-repository';
import { rebuildDailyRollups } from '../../src/server/calls/write/rollups';
import type { ClientRow } from '../../src/server/db/schema';
import { parseBlandCall } from '../../src/server/providers/voice/bland-payload';
import { blandCallBody } from '../helpers/bland';
import {
  createAdminUser,
  createClient,
  createSignedInClient,
  createSubscription,
  loginAdmin,
} from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const DAY = 86_400_000;

describe(`agency console (${TEST_DB})`, () => {
  let sim: VoiceSim;
  let t: TestApp;
  let admin: string;
  let adminId: string;

  beforeAll(async () => {
    sim = await startVoiceSim();
    t = await createTestApp({ env: { BLAND_API_URL: sim.url } });
    const a = await createAdminUser(t.deps);
    adminId = a.id;
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });

  const get = async <T>(url: string, cookie = admin) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const post = (url: string, payload?: Record<string, unknown>, cookie = admin) =>
    t.app.inject({ method: 'POST', url, headers: { cookie }, ...(payload === undefined ? {} : { payload }) });

  /** A Bland-shaped call as a sync brings it. */
  function synced(body: Record<string, unknown>) {
    const parsed = parseBlandCall(blandCallBody(body), t.deps.now());
    if (!parsed.success) throw new Error(parsed.message);
    return { ...parsed.call, pathway: '', source: 'sync' as const };
  }
  /** Stores Bland-shaped calls for a client the way a sync would. */
  async function store(client: ClientRow, bodies: Record<string, unknown>[]) {
    await createCallsRepository(t.deps.db, t.deps.now).upsertCalls(client, bodies.map(synced));
  }
  const at = (ms: number) => new Date(ms).toISOString();
  /** The UTC date of an instant (the test clients' days are UTC). */
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  /** A client's `client_call_days` rows, oldest first. */
  const daysOf = (clientId: string) =>
    t.deps.db
      .selectFrom('client_call_days')
      .selectAll()
      .where('client_id', '=', clientId)
      .orderBy('day')
      .execute();
  const today = () => new Date(t.deps.now()).toISOString().slice(0, 10);

  it('adds up revenue, provider cost and margin to the cent, per client and in total, against the previous period', async () => {
    const now = t.deps.now();
    const a = await createClient(t.deps, { company_name: 'Margin A', per_minute_rate_cents: 15 });
    const b = await createClient(t.deps, {
      company_name: 'Margin B',
      per_minute_rate_cents: 20,
      timezone: 'America/New_York',
    });
    // A: three 90 s calls at $0.135 (22.5¢ billed each), one failed call at $0.01; one call 10 days ago.
    await store(a, [
      ...[1, 2, 3].map(() => ({ corrected_duration: '90', price: 0.135, created_at: at(now - 60_000) })),
      {
        corrected_duration: '0',
        call_length: 0,
        price: 0.01,
        status: 'failed',
        completed: false,
        created_at: at(now - 60_000),
      },
      { corrected_duration: '90', price: 0.135, created_at: at(now - 10 * DAY) },
    ]);
    // B: two 61 s calls at $0.09 (20.33…¢ billed each).
    await store(b, [
      { corrected_duration: '61', price: 0.09, created_at: at(now - 2 * 60_000) },
      { corrected_duration: '61', price: 0.09, created_at: at(now - 3 * 60_000) },
    ]);
    // A sample call is no business: left out.
    await t.deps.db
      .updateTable('calls')
      .set({ source: 'sample' })
      .where('client_id', '=', b.id)
      .where('id', '=', 'no such call')
      .execute();

    const analytics = await get<AdminAnalytics>('/api/admin/analytics?dateRange=7d');
    // Served without a runtime schema check (routes.ts): the answer must still be the contract's.
    expect(AdminAnalytics.strict().safeParse(analytics).success).toBe(true);
    expect(analytics.range).toEqual({ from: expect.any(String), to: today(), days: 7 });
    const rowA = analytics.clients.find((c) => c.clientId === a.id)!;
    const rowB = analytics.clients.find((c) => c.clientId === b.id)!;
    expect(rowA).toMatchObject({
      calls: 4,
      minutes: 4.5,
      revenueCents: 68, // 67.5¢ rounds up
      costCents: 42, // $0.415
      marginCents: 26,
      marginPercent: 38.2,
      answerRate: 75,
      failureRate: 25,
      changes: { calls: 300, revenueCents: 195.7 }, // 68¢ against 23¢
    });
    expect(rowB).toMatchObject({
      calls: 2,
      revenueCents: 41,
      costCents: 18,
      marginCents: 23,
      failureRate: 0,
    });
    expect(rowB.lastCallAt).toBe(at(now - 2 * 60_000));
    // The total line is the sum of the rows, to the cent.
    const sum = (k: 'revenueCents' | 'costCents' | 'marginCents' | 'calls') =>
      analytics.clients.reduce((n, c) => n + c[k], 0);
    expect(analytics.totals).toMatchObject({
      calls: sum('calls'),
      revenueCents: sum('revenueCents'),
      costCents: sum('costCents'),
      marginCents: sum('marginCents'),
    });
    expect(analytics.series).toHaveLength(7);
    expect(analytics.series.at(-1)?.date).toBe(today());
    expect(analytics.series.reduce((n, p) => n + p.calls, 0)).toBe(6);

    // A custom range naming only the day of A's older call.
    const day = new Date(now - 10 * DAY).toISOString().slice(0, 10);
    const old = await get<AdminAnalytics>(`/api/admin/analytics?from=${day}&to=${day}`);
    expect(old.clients.find((c) => c.clientId === a.id)).toMatchObject({ calls: 1, revenueCents: 23 });
    expect(old.previous).toEqual({ from: expect.any(String), to: expect.any(String) });

    // Deleting a call takes it out of the sums.
    const [call] = await t.deps.db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', a.id)
      .where('status', '=', 'failed')
      .execute();
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/calls/${call.id}?clientId=${a.id}`,
      headers: { cookie: admin },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const after = await get<AdminAnalytics>('/api/admin/analytics?dateRange=7d');
    expect(after.clients.find((c) => c.clientId === a.id)).toMatchObject({ calls: 3, costCents: 41 });
  });

  it('orders, narrows and pages the client table on the server, the totals staying the portfolio’s', async () => {
    const now = t.deps.now();
    const made: ClientRow[] = [];
    for (let i = 0; i < 12; i++) {
      const client = await createClient(t.deps, {
        company_name: `Paged Client ${String(i).padStart(2, '0')}`,
        per_minute_rate_cents: 10 + i,
      });
      made.push(client);
      // i calls of 60 s, the newest i minutes ago, i % 3 of them failed; client 0 has none.
      await store(
        client,
        Array.from({ length: i }, (_, k) => ({
          corrected_duration: '60',
          price: 0.05,
          created_at: at(now - (i + k) * 60_000),
          ...(k < i % 3 ? { status: 'failed', completed: false } : {}),
        })),
      );
    }
    const all = await get<AdminAnalytics>('/api/admin/analytics?dateRange=7d&limit=1000');
    const paged = (q: string) =>
      get<AdminAnalytics>(`/api/admin/analytics?dateRange=7d&search=paged+client&${q}`);

    const first = await paged('sort=calls&order=asc&limit=5');
    expect(first.pagination).toEqual({ page: 1, limit: 5, total: 12, totalPages: 3 });
    expect(first.clients.map((c) => c.calls)).toEqual([0, 1, 2, 3, 4]);
    // Every page together is every match, once, in order.
    const pages = [
      first,
      await paged('sort=calls&order=asc&limit=5&page=2'),
      await paged('sort=calls&order=asc&limit=5&page=3'),
    ];
    expect(pages.flatMap((p) => p.clients.map((c) => c.name))).toEqual(made.map((c) => c.company_name));
    // Narrowing the table leaves the totals and the chart the whole portfolio's.
    expect(first.totals).toEqual(all.totals);
    expect(first.series).toEqual(all.series);

    // Figures largest first by default; names A to Z.
    expect((await paged('sort=revenueCents&limit=3')).clients.map((c) => c.name)).toEqual([
      'Paged Client 11',
      'Paged Client 10',
      'Paged Client 09',
    ]);
    expect((await paged('sort=name&limit=2')).clients.map((c) => c.name)).toEqual([
      'Paged Client 00',
      'Paged Client 01',
    ]);
    // Last call, newest first, a client without one at the end either way; each row of a page has its time.
    const byLast = await paged('sort=lastCallAt&limit=1000');
    expect(byLast.clients.map((c) => c.name).slice(0, 2)).toEqual(['Paged Client 01', 'Paged Client 02']);
    expect(byLast.clients.at(-1)).toMatchObject({ name: 'Paged Client 00', lastCallAt: null });
    const ascending = await paged('sort=lastCallAt&order=asc&limit=1000');
    expect(ascending.clients.at(-1)?.name).toBe('Paged Client 00');
    expect((await paged('sort=calls&limit=1')).clients[0]).toMatchObject({
      name: 'Paged Client 11',
      lastCallAt: at(now - 11 * 60_000),
    });
    // Every column in both directions: the page's rows in that order, clients without a value last.
    for (const sort of PORTFOLIO_SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const rows = (await paged(`sort=${sort}&order=${order}&limit=1000`)).clients;
        expect(rows, `${sort} ${order}`).toHaveLength(12);
        const values = rows.map((c) => (sort === 'name' ? c.name.toLowerCase() : c[sort]));
        const present = values.filter((v) => v !== null);
        expect(
          values.slice(present.length).every((v) => v === null),
          `${sort} ${order} nulls last`,
        ).toBe(true);
        const sorted = [...present].sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0));
        expect(present, `${sort} ${order}`).toEqual(order === 'asc' ? sorted : sorted.reverse());
      }
    }
    // A range reaching into the future counts what has happened so far.
    const ahead = await get<AdminAnalytics>(
      `/api/admin/analytics?from=${dayOf(now - 6 * DAY)}&to=${dayOf(now + 10 * DAY)}&limit=1000`,
    );
    expect(ahead.totals).toEqual(all.totals);

    // By e-mail too, any case; nothing matching is an empty page.
    const byEmail = await get<AdminAnalytics>(
      `/api/admin/analytics?dateRange=7d&search=${encodeURIComponent(made[3].email.toUpperCase())}`,
    );
    expect(byEmail.clients.map((c) => c.clientId)).toEqual([made[3].id]);
    const none = await get<AdminAnalytics>('/api/admin/analytics?search=nobody-at-all');
    expect(none.clients).toEqual([]);
    expect(none.pagination).toMatchObject({ total: 0, totalPages: 1 });

    for (const query of [
      'sort=revenue',
      'order=up',
      'limit=0',
      'limit=1001',
      'page=0',
      `search=${'x'.repeat(201)}`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/analytics?${query}`,
        headers: { cookie: admin },
      });
      expect(res.statusCode, query).toBe(400);
    }
  });

  it('answers the same table from either reader (the app’s, used on SQLite, and the database’s, used on PostgreSQL)', async () => {
    const now = t.deps.now();
    // Names in other cases, a person without a company, namesakes (ties go by id), a client whose
    // calls are all in the period before the last 7 days, and one without calls.
    const extra: [Partial<ClientRow>, number[]][] = [
      [{ company_name: 'acme lowercase' }, [1, 2, 3]],
      [{ company_name: 'ZETA CAPITALS' }, [1]],
      [{ company_name: null, first_name: 'Ann', last_name: 'Lee' }, [2, 2]],
      [{ company_name: 'Twin Co' }, [1]],
      [{ company_name: 'Twin Co' }, [1]],
      [{ company_name: 'Back Then Ltd' }, [9, 10, 12]],
      [{ company_name: 'Quiet Inc' }, []],
    ];
    for (const [row, daysAgo] of extra) {
      const client = await createClient(t.deps, { ...row, per_minute_rate_cents: 7 + daysAgo.length });
      await store(
        client,
        daysAgo.map((d, k) => ({
          corrected_duration: String(30 + 17 * k),
          price: 0.013 * (k + 1),
          created_at: at(now - d * DAY - k * 60_000),
        })),
      );
    }
    const ranges = [
      'dateRange=7d',
      'dateRange=30d',
      `from=${dayOf(now - 12 * DAY)}&to=${dayOf(now - 8 * DAY)}`,
      `from=${dayOf(now - 3 * DAY)}&to=${dayOf(now + 10 * DAY)}`,
      `from=${dayOf(now)}&to=${dayOf(now)}`,
    ];
    const queries = [
      ...PORTFOLIO_SORTS.flatMap((sort) =>
        ['asc', 'desc'].flatMap((order) => [
          `dateRange=7d&sort=${sort}&order=${order}&limit=1000`,
          `dateRange=30d&sort=${sort}&order=${order}&limit=4&page=2`,
        ]),
      ),
      ...ranges.flatMap((range) => [`${range}&limit=6`, `${range}&sort=name&limit=6&page=2`]),
      'dateRange=30d&search=TWIN&sort=calls',
      'dateRange=30d&search=lee',
      'dateRange=30d&search=nobody-at-all',
      'dateRange=30d&sort=name&page=40',
    ];
    for (const q of queries) {
      const query = AnalyticsQuery.parse(Object.fromEntries(new URLSearchParams(q)));
      const inApp = await portfolioAnalytics(t.deps.db, query, now, readTableInApp);
      const inDatabase = await portfolioAnalytics(t.deps.db, query, now, readTableInDatabase);
      expect(inDatabase, q).toEqual(inApp);
      expect(inApp.clients.length, q).toBeLessThanOrEqual(query.limit);
    }
    // The readers are not trivially equal: the 7-day table holds clients with and without calls.
    const week = await get<AdminAnalytics>('/api/admin/analytics?dateRange=7d&sort=name&limit=1000');
    expect(week.clients.map((c) => c.name)).toEqual(
      expect.arrayContaining(['acme lowercase', 'Ann Lee', 'Back Then Ltd', 'ZETA CAPITALS']),
    );
    expect(week.clients.find((c) => c.name === 'Back Then Ltd')).toMatchObject({ calls: 0, revenueCents: 0 });
    const names = week.clients.map((c) => c.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('keeps running totals exact through late calls, gaps, deletions, a zone change and the client leaving', async () => {
    const now = t.deps.now();
    const c = await createClient(t.deps, { company_name: 'Running Totals' });
    const call = (daysAgo: number, seconds: number, extra: Record<string, unknown> = {}) => ({
      corrected_duration: String(seconds),
      price: seconds / 600,
      created_at: at(now - daysAgo * DAY - 3_600_000),
      ...extra,
    });
    // Days in the order a sync and late webhooks could bring them: gaps, then earlier days, then
    // a day in a gap, then more on a day that exists.
    await store(c, [call(40, 60), call(2, 120)]);
    await store(c, [call(50, 30, { status: 'failed', completed: false })]);
    await store(c, [call(20, 90), call(20, 45)]);
    await store(c, [call(2, 10)]);

    /** The client's sums over a range from its calls, the slow and obvious way. */
    const naive = async (from: string, to: string) => {
      const rows = await t.deps.db
        .selectFrom('calls')
        .select(['created_at', 'cost_micros'])
        .where('client_id', '=', c.id)
        .execute();
      const inside = rows.filter(
        (r) => dayOf(Number(r.created_at)) >= from && dayOf(Number(r.created_at)) <= to,
      );
      return {
        calls: inside.length,
        revenueCents: Math.round(inside.reduce((n, r) => n + Number(r.cost_micros), 0) / 10_000),
      };
    };
    const rowOf = async (query: string) => {
      const analytics = await get<AdminAnalytics>(`/api/admin/analytics?${query}`);
      return analytics.clients.find((x) => x.clientId === c.id)!;
    };
    const ranges = [
      [dayOf(now - 29 * DAY), today()],
      [dayOf(now - 60 * DAY), dayOf(now - 30 * DAY)],
      [dayOf(now - 45 * DAY), dayOf(now - 20 * DAY)],
      [dayOf(now - 20 * DAY), dayOf(now - 20 * DAY)],
      [dayOf(now - 19 * DAY), dayOf(now - 3 * DAY)],
    ];
    const check = async () => {
      for (const [from, to] of ranges)
        expect(await rowOf(`from=${from}&to=${to}`), `${from}..${to}`).toMatchObject(await naive(from, to));
    };

    // Dense: one row per day from the first to the last, each running total the days before it.
    const days = await daysOf(c.id);
    expect(days[0].day).toBe(dayOf(now - 50 * DAY - 3_600_000));
    expect(days).toHaveLength(49);
    let calls = 0;
    for (const d of days) {
      calls += Number(d.call_count);
      expect(Number(d.cum_calls), d.day).toBe(calls);
    }
    // The rows stop at the last call, two days ago, and housekeeping has not carried them forward:
    // the figures are exact all the same (PostgreSQL's reader carries them itself first).
    await check();

    // A deleted call leaves every later day's total.
    const [old] = await t.deps.db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', c.id)
      .orderBy('created_at')
      .limit(1)
      .execute();
    expect(await createCallsRepository(t.deps.db, t.deps.now).deleteCall(c.id, old.id)).toBe(true);
    await check();

    // Housekeeping carries the totals to the day after tomorrow; nothing changes.
    await carryClientDaysForward(t.deps.db, now);
    const last = await t.deps.db
      .selectFrom('client_call_days')
      .select((eb) => eb.fn.max('day').as('day'))
      .where('client_id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(last.day).toBe(dayOf(now + 2 * DAY));
    await check();
    await store(c, [call(0, 30)]);
    await check();

    // A zone far ahead moves the days; every call is still counted once.
    await t.deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('clients')
        .set({ timezone: 'Pacific/Kiritimati' })
        .where('id', '=', c.id)
        .execute();
      await rebuildDailyRollups(trx, c.id, 'Pacific/Kiritimati');
    });
    // (Its newest call is on tomorrow's date there.)
    const everything = await rowOf(`from=${dayOf(now - 89 * DAY)}&to=${dayOf(now + DAY)}`);
    expect(everything.calls).toBe(6);

    // The chart is every onboarded client's days, and the total line adds the same clients.
    const series = async () => {
      const a = await get<AdminAnalytics>(
        `/api/admin/analytics?from=${dayOf(now - 89 * DAY)}&to=${dayOf(now + DAY)}`,
      );
      return { chart: a.series.reduce((n, p) => n + p.calls, 0), table: a.totals.calls };
    };
    const pending = await createClient(t.deps, {
      company_name: 'Still Onboarding',
      onboarding_status: 'pending',
    });
    await store(pending, [call(1, 60)]);
    const before = await series();
    expect(before.chart).toBe(before.table);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/clients/${c.id}`,
      headers: { cookie: admin },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const afterwards = await series();
    expect(afterwards).toEqual({ chart: before.chart - 6, table: before.table - 6 });
  });

  it('keeps running totals exact when calls of one client on different days are written at once', async () => {
    const now = t.deps.now();
    const c = await createClient(t.deps, { company_name: 'Concurrent Days' });
    await Promise.all(
      [9, 3, 14, 1, 7, 12, 5, 0, 10, 2].map((daysAgo) =>
        store(c, [{ corrected_duration: '60', price: 0.1, created_at: at(now - daysAgo * DAY - 60_000) }]),
      ),
    );
    const days = await daysOf(c.id);
    expect(days).toHaveLength(15);
    let calls = 0;
    for (const d of days) {
      calls += Number(d.call_count);
      expect(Number(d.cum_calls), d.day).toBe(calls);
    }
    expect(calls).toBe(10);
  });

  it('keeps running totals exact when one batch writes many clients, on days they have and days they lack', async () => {
    const now = t.deps.now();
    const clients = await Promise.all(
      ['Batch A', 'Batch B', 'Batch C', 'Batch D'].map((name) =>
        createClient(t.deps, { company_name: name }),
      ),
    );
    const call = (daysAgo: number, seconds: number) =>
      synced({
        corrected_duration: String(seconds),
        price: seconds / 600,
        created_at: at(now - daysAgo * DAY - 60_000),
      });
    // Every client has days 10 to 1 (a row each, and the days between).
    for (const c of clients) await store(c, [{ created_at: at(now - 10 * DAY - 60_000) }]);
    for (const c of clients) await store(c, [{ created_at: at(now - DAY - 60_000) }]);
    const [a, b, c, d] = clients;
    // One batch: A and B on a day they have, C on two days it has, D on a day after its last.
    await createCallsRepository(t.deps.db, t.deps.now).upsertMany([
      { client: a, call: call(5, 60) },
      { client: b, call: call(1, 30) },
      { client: c, call: call(7, 20) },
      { client: c, call: call(3, 40) },
      { client: d, call: call(0, 90) },
      { client: a, call: call(5, 15) },
    ]);
    for (const client of clients) {
      const days = await daysOf(client.id);
      const calls = await t.deps.db
        .selectFrom('calls')
        .select(['created_at', 'duration_seconds', 'cost_micros'])
        .where('client_id', '=', client.id)
        .execute();
      let running = { calls: 0, seconds: 0, cost: 0 };
      for (const row of days) {
        const onDay = calls.filter((x) => dayOf(Number(x.created_at)) === row.day);
        const daily = {
          calls: onDay.length,
          seconds: onDay.reduce((n, x) => n + Number(x.duration_seconds), 0),
          cost: onDay.reduce((n, x) => n + Number(x.cost_micros), 0),
        };
        running = {
          calls: running.calls + daily.calls,
          seconds: running.seconds + daily.seconds,
          cost: running.cost + daily.cost,
        };
        const label = `${client.company_name} ${row.day}`;
        expect([row.call_count, row.total_seconds, row.total_cost_micros].map(Number), label).toEqual([
          daily.calls,
          daily.seconds,
          daily.cost,
        ]);
        expect([row.cum_calls, row.cum_seconds, row.cum_cost_micros].map(Number), label).toEqual([
          running.calls,
          running.seconds,
          running.cost,
        ]);
      }
      expect(running.calls, client.company_name ?? '').toBe(calls.length);
    }
  });

  it('refuses bad ranges with 400', async () => {
    for (const query of [
      'dateRange=60d',
      'from=2026-01-10',
      'from=2026-02-01&to=2026-01-01',
      'from=2024-01-01&to=2025-12-31',
      'from=2026-02-30&to=2026-03-01',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/analytics?${query}`,
        headers: { cookie: admin },
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
  });

  it('names each client at risk with its reasons, and leaves healthy clients out', async () => {
    const now = t.deps.now();
    const calls = (n: number, ageDays: number, extra: Record<string, unknown> = {}) =>
      Array.from({ length: n }, (_, i) => ({ created_at: at(now - ageDays * DAY - i * 60_000), ...extra }));

    const dropping = await createClient(t.deps, { company_name: 'Risk Dropping' });
    await store(dropping, [...calls(30, 40), ...calls(5, 1)]);
    const failing = await createClient(t.deps, { company_name: 'Risk Failing' });
    await store(failing, [
      ...calls(25, 40),
      ...calls(15, 2),
      ...calls(10, 2, { status: 'failed', completed: false, corrected_duration: '0', call_length: 0 }),
    ]);
    const silent = await createClient(t.deps, { company_name: 'Risk Silent' });
    const chatty = await createClient(t.deps, { company_name: 'Risk Chatty' });
    for (const c of [silent, chatty])
      await t.deps.db
        .insertInto('sync_runs')
        .values({
          id: randomUUID(),
          client_id: c.id,
          started_by: 'client',
          started_at: now - DAY,
          finished_at: now - DAY + 1000,
          created: 12,
          error: null,
        })
        .execute();
    await t.deps.db
      .insertInto('webhook_deliveries')
      .values({
        id: randomUUID(),
        client_id: chatty.id,
        received_at: now - DAY,
        kind: 'call',
        provider_call_id: 'x',
        outcome: 'created',
      })
      .execute();
    const badKey = await createClient(t.deps, { company_name: 'Risk Bad Key', api_key_status: 'invalid' });
    const pastDue = await createClient(t.deps, { company_name: 'Risk Past Due' });
    await createSubscription(t.deps, pastDue.id, { status: 'past_due' });
    const ending = await createClient(t.deps, { company_name: 'Risk Ending' });
    await createSubscription(t.deps, ending.id, {
      cancel_at_period_end: 1,
      current_period_end: now + 5 * DAY,
    });
    const heavy = await createClient(t.deps, { company_name: 'Risk Heavy' });
    await createSubscription(t.deps, heavy.id); // Starter: 500 minutes
    await store(heavy, calls(6, 0, { corrected_duration: '6000', call_length: 100 }));
    const healthy = await createClient(t.deps, { company_name: 'Risk Healthy' });
    await createSubscription(t.deps, healthy.id);
    await store(healthy, [...calls(25, 40), ...calls(24, 1)]);

    const list = await get<AtRiskClient[]>('/api/admin/at-risk');
    const codes = (id: string) => list.find((c) => c.clientId === id)?.reasons.map((r) => r.code) ?? [];
    expect(codes(dropping.id)).toEqual(['volume_drop']);
    expect(list.find((c) => c.clientId === dropping.id)?.reasons[0].text).toBe(
      'Calls down 83% against the previous 30 days (30 → 5)',
    );
    // Its ten failed calls are also open in "Needs attention".
    expect(codes(failing.id)).toEqual(['failure_spike', 'attention_backlog']);
    expect(codes(silent.id)).toEqual(['webhook_silent']);
    expect(list.find((c) => c.clientId === silent.id)?.reasons[0].text).toMatch(
      /^No webhook delivery has ever arrived while sync found 12 new calls/,
    );
    expect(codes(chatty.id)).toEqual([]);
    expect(codes(badKey.id)).toEqual(['api_key_invalid']);
    expect(codes(pastDue.id)).toEqual(['payment_failed']);
    expect(codes(ending.id)).toEqual(['subscription_ending']);
    expect(codes(heavy.id)).toEqual(['over_plan']);
    expect(list.find((c) => c.clientId === heavy.id)?.reasons[0].text).toBe(
      "600 minutes used this month on the Starter plan's 500",
    );
    expect(codes(healthy.id)).toEqual([]);
  });

  it('counts a steady high failure share and an unworked attention backlog as at risk', async () => {
    const now = t.deps.now();
    const calls = (n: number, ageDays: number, extra: Record<string, unknown> = {}) =>
      Array.from({ length: n }, (_, i) => ({ created_at: at(now - ageDays * DAY - i * 60_000), ...extra }));
    const failed = { status: 'failed', completed: false, corrected_duration: '0', call_length: 0 };

    // 18% failed in both periods: no spike, but a client losing almost one call in five.
    const steady = await createClient(t.deps, { company_name: 'Risk Steady Failures' });
    await store(steady, [...calls(36, 40), ...calls(8, 40, failed), ...calls(36, 3), ...calls(8, 3, failed)]);
    await t.deps.db
      .updateTable('calls')
      .set({ handled_at: now })
      .where('client_id', '=', steady.id)
      .execute();
    // 8 calls needing attention nobody has marked handled, among many good ones (8% failed).
    const backlog = await createClient(t.deps, { company_name: 'Risk Backlog' });
    await store(backlog, [...calls(92, 2), ...calls(8, 2, failed)]);
    // The same backlog, handled: nothing to say.
    const worked = await createClient(t.deps, { company_name: 'Risk Worked' });
    await store(worked, [...calls(92, 2), ...calls(8, 2, failed)]);
    await t.deps.db
      .updateTable('calls')
      .set({ handled_at: now })
      .where('client_id', '=', worked.id)
      .execute();

    const list = await get<AtRiskClient[]>('/api/admin/at-risk');
    const reasons = (id: string) => list.find((c) => c.clientId === id)?.reasons ?? [];
    expect(reasons(steady.id)).toEqual([
      { code: 'failure_share', text: '18% of calls failed in the last 30 days (8 of 44)' },
    ]);
    expect(reasons(backlog.id)).toEqual([
      { code: 'attention_backlog', text: '8 calls need attention and are not marked handled' },
    ]);
    expect(reasons(worked.id)).toEqual([]);
  });

  it('logs refused and unconfirmed deliveries with why, and replays them once the key is fixed, idempotently', async () => {
    // Without a pathway: naming one happens after the answer, and would race the second replay.
    const [record] = sim.addCalls('sim_good_key', {
      count: 1,
      createdAt: t.deps.now() - 120_000,
      overrides: { pathway_id: null },
    });
    const client = await createClient(t.deps, {
      company_name: 'Replay Co',
      bland_api_key_enc: t.deps.secrets.encrypt('sim_wrong_key'),
      api_key_status: 'valid',
    });
    const deliver = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/api/webhooks/voice/${client.webhook_token}`,
        payload: payload as object,
      });

    expect((await deliver(record)).json()).toMatchObject({ received: true, verified: false });
    expect((await deliver({ to: '+1555' })).statusCode).toBe(400);
    const log = await get<DeliveriesPage>(`/api/admin/clients/${client.id}/deliveries`);
    expect(log.items.map((d) => d.outcome)).toEqual(['refused', 'unconfirmed']);
    const [refused, unconfirmed] = log.items;
    expect(unconfirmed).toMatchObject({ callId: record.call_id, replayable: true, body: null });
    expect(unconfirmed.detail).toMatch(/refused the client's API key/);
    expect(refused.detail).toMatch(/call_id|required/i);
    // The refused key is flagged on the client at once.
    expect(
      (await get<AtRiskClient[]>('/api/admin/at-risk')).find((c) => c.clientId === client.id)?.reasons[0]
        .code,
    ).toBe('api_key_invalid');
    const detail = await get<{ body: string }>(
      `/api/admin/clients/${client.id}/deliveries/${unconfirmed.id}`,
    );
    expect(JSON.parse(detail.body).call_id).toBe(record.call_id);
    const only = await get<DeliveriesPage>(`/api/admin/clients/${client.id}/deliveries?outcome=refused`);
    expect(only.items.map((d) => d.id)).toEqual([refused.id]);

    const visible = async () =>
      (
        await t.deps.db.selectFrom('calls').select('verified').where('client_id', '=', client.id).execute()
      ).filter((c) => c.verified === 1).length;
    expect(await visible()).toBe(0);

    // Replayed with the key still wrong: unconfirmed again, nothing shown.
    const early = await post(`/api/admin/clients/${client.id}/deliveries/${unconfirmed.id}/replay`);
    expect(early.json().delivery).toMatchObject({ outcome: 'unconfirmed', replayOf: unconfirmed.id });

    // The admin fixes the key; the replay confirms the call, and a second replay changes nothing.
    await t.deps.db
      .updateTable('clients')
      .set({ bland_api_key_enc: t.deps.secrets.encrypt('sim_good_key') })
      .where('id', '=', client.id)
      .execute();
    const first = await post(`/api/admin/clients/${client.id}/deliveries/${unconfirmed.id}/replay`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      delivery: { outcome: 'updated' },
      message: expect.stringMatching(/stored/),
    });
    expect(await visible()).toBe(1);
    const second = await post(`/api/admin/clients/${client.id}/deliveries/${unconfirmed.id}/replay`);
    expect(second.json().delivery.outcome).toBe('duplicate');
    expect(await visible()).toBe(1);
    expect(
      await t.deps.db.selectFrom('calls').select('id').where('client_id', '=', client.id).execute(),
    ).toHaveLength(1);

    // A refused body is refused again; a delivery stored as it arrived has nothing to replay.
    const again = await post(`/api/admin/clients/${client.id}/deliveries/${refused.id}/replay`);
    expect(again.json()).toMatchObject({
      delivery: { outcome: 'refused' },
      message: expect.stringMatching(/refused again/),
    });
    const stored = (await get<DeliveriesPage>(`/api/admin/clients/${client.id}/deliveries?outcome=updated`))
      .items[0];
    expect(stored.replayable).toBe(false);
    expect((await post(`/api/admin/clients/${client.id}/deliveries/${stored.id}/replay`)).statusCode).toBe(
      409,
    );

    // A refused body too big to be worth keeping is logged without it, and cannot be replayed.
    const big = await deliver({ call_id: '', padding: 'x'.repeat(MAX_KEPT_BODY_BYTES) });
    expect(big.statusCode).toBe(400);
    const [bigRow] = (await get<DeliveriesPage>(`/api/admin/clients/${client.id}/deliveries?outcome=refused`))
      .items;
    expect(bigRow).toMatchObject({ outcome: 'refused', replayable: false });

    // Another client's delivery is not reachable through this client's path.
    const other = await createClient(t.deps);
    expect(
      (await post(`/api/admin/clients/${other.id}/deliveries/${unconfirmed.id}/replay`)).statusCode,
    ).toBe(404);

    const audit = await get<AuditPage>(`/api/admin/audit?action=delivery.replay&clientId=${client.id}`);
    expect(audit.items).toHaveLength(4);
    expect(audit.items[0]).toMatchObject({
      adminName: 'Ada Admin',
      clientName: 'Replay Co',
      detail: { deliveryId: refused.id },
    });
  });

  it('records every sync with who started it, what it found and why it failed', async () => {
    sim.addCalls('sim_sync_key', { count: 3, spreadDays: 2 });
    const client = await createClient(t.deps, {
      bland_api_key_enc: t.deps.secrets.encrypt('sim_sync_key'),
      api_key_status: 'valid',
    });
    const synced = await post(`/api/admin/clients/${client.id}/sync`);
    expect(synced.json()).toMatchObject({ success: true, created: 3 });
    await t.deps.db
      .updateTable('clients')
      .set({ bland_api_key_enc: t.deps.secrets.encrypt('sim_revoked') })
      .where('id', '=', client.id)
      .execute();
    expect((await post(`/api/admin/clients/${client.id}/sync`)).statusCode).toBe(400);

    const runs = await get<SyncRunsPage>(`/api/admin/clients/${client.id}/sync-runs`);
    expect(runs.items).toHaveLength(2);
    expect(runs.items[0]).toMatchObject({
      startedBy: 'Ada Admin',
      created: 0,
      error: expect.stringMatching(/rejected the API key/),
    });
    expect(runs.items[1]).toMatchObject({ startedBy: 'Ada Admin', created: 3, updated: 0, error: null });
    expect(runs.items[1].durationMs).toBeGreaterThanOrEqual(0);
    const audit = await get<AuditPage>(`/api/admin/audit?action=client.sync&clientId=${client.id}`);
    expect(audit.items).toHaveLength(1); // the failed one changed nothing
  });

  it('places a test call through the provider with the client key', async () => {
    const client = await createClient(t.deps, {
      bland_api_key_enc: t.deps.secrets.encrypt('sim_test_call_key'),
      api_key_status: 'valid',
    });
    sim.addKey('sim_test_call_key');
    const res = await post(`/api/admin/clients/${client.id}/test-call`, { phoneNumber: '+14155550123' });
    expect(res.statusCode, res.body).toBe(200);
    const placed = sim.state.callsById.get(res.json().callId);
    expect(placed?.details.to).toBe('+14155550123');
    expect(placed?.account).toBe('sim_test_call_key');
    expect((await post(`/api/admin/clients/${client.id}/test-call`, { phoneNumber: '555' })).statusCode).toBe(
      400,
    );
    const keyless = await createClient(t.deps);
    const refused = await post(`/api/admin/clients/${keyless.id}/test-call`, { phoneNumber: '+14155550123' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/no Bland AI API key/);
  });

  it('manages admins: create, sign in, reset, deactivate (never oneself), each audited', async () => {
    const created = await post('/api/admin/admins', { username: 'Grace', name: 'Grace Hopper' });
    expect(created.statusCode, created.body).toBe(201);
    const { admin: grace, temporaryPassword } = created.json();
    expect(grace).toMatchObject({ username: 'grace', isActive: true, isYou: false });
    expect((await post('/api/admin/admins', { username: 'grace', name: 'Again' })).statusCode).toBe(409);
    expect((await post('/api/admin/admins', { username: 'x', name: '' })).statusCode).toBe(400);

    const graceCookie = await loginAdmin(t.app, 'grace', temporaryPassword);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie: graceCookie } }))
        .statusCode,
    ).toBe(200);

    const reset = await post(`/api/admin/admins/${grace.id}/reset-password`);
    const fresh = reset.json().temporaryPassword;
    expect(fresh).not.toBe(temporaryPassword);
    // Her old session ended with the old password.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie: graceCookie } }))
        .statusCode,
    ).toBe(401);
    const graceAgain = await loginAdmin(t.app, 'grace', fresh);

    expect((await post(`/api/admin/admins/${adminId}/deactivate`)).statusCode).toBe(409);
    const off = await post(`/api/admin/admins/${grace.id}/deactivate`);
    expect(off.json()).toMatchObject({ isActive: false });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/clients', headers: { cookie: graceAgain } }))
        .statusCode,
    ).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'grace', password: fresh },
    });
    expect(login.statusCode).toBe(401);
    expect((await post(`/api/admin/admins/${grace.id}/activate`)).json()).toMatchObject({ isActive: true });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/login',
          payload: { username: 'grace', password: fresh },
        })
      ).statusCode,
    ).toBe(200);

    const list = await get<{ username: string; isYou: boolean }[]>('/api/admin/admins');
    expect(list.find((a) => a.isYou)?.username).toMatch(/^admin-/);
    const audit = await get<AuditPage>(`/api/admin/audit?adminId=${adminId}&limit=100`);
    const actions = audit.items.map((i) => i.action);
    for (const action of ['admin.create', 'admin.reset_password', 'admin.deactivate', 'admin.activate'])
      expect(actions).toContain(action);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/audit?action=nope', headers: { cookie: admin } }))
        .statusCode,
    ).toBe(400);
  });

  it('records viewing a client as the client once per half hour', async () => {
    const client = await createClient(t.deps);
    await get(`/api/admin/client-data/${client.id}`);
    await get(`/api/admin/client-data/${client.id}`);
    const audit = await get<AuditPage>(`/api/admin/audit?action=client.view&clientId=${client.id}`);
    expect(audit.items).toHaveLength(1);
  });

  it('answers every console endpoint to admins only', async () => {
    const { cookie: clientCookie, client } = await createSignedInClient(t);
    const urls = [
      ['GET', '/api/admin/analytics'],
      ['GET', '/api/admin/at-risk'],
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/admins'],
      ['POST', '/api/admin/admins'],
      ['POST', `/api/admin/admins/${adminId}/deactivate`],
      ['POST', `/api/admin/admins/${adminId}/reset-password`],
      ['GET', `/api/admin/clients/${client.id}/deliveries`],
      ['GET', `/api/admin/clients/${client.id}/deliveries/x`],
      ['POST', `/api/admin/clients/${client.id}/deliveries/x/replay`],
      ['GET', `/api/admin/clients/${client.id}/sync-runs`],
      ['POST', `/api/admin/clients/${client.id}/sync`],
      ['POST', `/api/admin/clients/${client.id}/test-call`],
    ] as const;
    for (const [method, url] of urls) {
      const anonymous = await t.app.inject({ method, url });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const asClient = await t.app.inject({ method, url, headers: { cookie: clientCookie } });
      expect(asClient.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/clients/nope/deliveries',
          headers: { cookie: admin },
        })
      ).statusCode,
    ).toBe(404);
  });
});
