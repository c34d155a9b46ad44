import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import type { CallsPage, DailyPoint, DemoStats } from '../../src/contract/calls';
import type { OutcomeSummaryItem } from '../../src/contract/outcomes';
import { createDemoData, DEMO_CLIENT_ID, DEMO_RETENTION_DAYS } from '../../src/server/demo/demo-data';
import { DEMO_OUTCOMES } from '../../src/server/demo/demo-outcomes';
import { DAY_MS } from '../../src/server/demo/sample-calls';
import { createBlandProvider } from '../../src/server/providers/voice/bland';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const START = Date.UTC(2025, 2, 5, 14, 30, 0);

describe(`demo (${TEST_DB})`, () => {
  let t: TestApp;
  let clock = START;

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async <T>(url: string, cookie?: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };

  /** Raw truth, straight from the calls table. */
  const countDemoCalls = async (from = 0, to = Number.MAX_SAFE_INTEGER) =>
    Number(
      (
        await t.deps.db
          .selectFrom('calls')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('client_id', '=', DEMO_CLIENT_ID)
          .where('created_at', '>', from)
          .where('created_at', '<=', to)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('serves calls, stats and the chart without a login, and the data reaches today', async () => {
    const page = await get<CallsPage>('/api/demo/calls');
    expect(page.calls).toHaveLength(10);
    expect(page.pagination).toMatchObject({ page: 1, limit: 10 });
    expect(page.pagination.total).toBeGreaterThan(90 * 15);
    expect(page.pagination.totalPages).toBe(Math.ceil(page.pagination.total / 10));
    const newest = Date.parse(page.calls[0].createdAt);
    expect(newest).toBeLessThanOrEqual(START);
    expect(START - newest).toBeLessThan(3 * 3_600_000);
    expect(page.calls[0]).toMatchObject({ pathway: expect.stringMatching(/^(Sales|Support|Booking)$/) });

    const points = await get<DailyPoint[]>('/api/demo/calls-over-time?dateRange=7d');
    expect(points).toHaveLength(7);
    expect(points.at(-1)?.date).toBe('2025-03-05');
    expect(points.at(-1)?.count).toBeGreaterThan(0);
    expect(points.every((p) => p.count > 0)).toBe(true);
    expect(await get<DailyPoint[]>('/api/demo/calls-over-time?dateRange=90d')).toHaveLength(90);
    expect(await get<DailyPoint[]>('/api/demo/calls-over-time?dateRange=1d')).toHaveLength(1);

    const stats = await get<DemoStats>('/api/demo/stats?dateRange=7d');
    expect(stats.totalCalls).toBe(await countDemoCalls(START - 7 * DAY_MS, START));
    expect(stats.totalRevenue).toBe(stats.totalCost);
    expect(stats.totalCost).toBeGreaterThan(0);
    expect(stats.avgDuration).toBeGreaterThan(30);
    expect(stats.totalTransfers).toBeGreaterThan(0);
    expect(Object.keys(stats.changes).sort()).toEqual([
      'avgDuration',
      'totalCalls',
      'totalCost',
      'totalTransfers',
    ]);
  });

  it('keeps 180 days of history, 18 to 40 calls a day, so every range has a real previous period', async () => {
    expect(await countDemoCalls(0, START - 181 * DAY_MS)).toBe(0);
    expect(await countDemoCalls(START - 180 * DAY_MS, START - 179 * DAY_MS)).toBeGreaterThanOrEqual(18);
    const points = await get<DailyPoint[]>('/api/demo/calls-over-time?dateRange=90d');
    // The chart counts completed calls only; every full day has some.
    expect(points.slice(1, -1).every((p) => p.count >= 8 && p.count <= 40)).toBe(true);
    for (const range of ['1d', '7d', '30d', '90d'] as const) {
      const stats = await get<DemoStats>(`/api/demo/stats?dateRange=${range}`);
      expect(stats.previousPeriod?.totalCalls, range).toBeGreaterThan(0);
      // Two windows of the same generator: the change is a plausible one, never +131150%.
      expect(Math.abs(stats.changes.totalCalls), range).toBeLessThan(100);
    }
  });

  it('filters the demo log by pathway, status, date window and search, and pages through it', async () => {
    const sales = await get<CallsPage>('/api/demo/calls?pathway=sales&status=all&limit=100');
    expect(sales.calls.length).toBeGreaterThan(0);
    expect(sales.calls.every((c) => c.pathway === 'Sales')).toBe(true);

    const failed = await get<CallsPage>('/api/demo/calls?status=failed&limit=100');
    expect(failed.calls.every((c) => c.status === 'failed')).toBe(true);

    const start = new Date(START - DAY_MS).toISOString();
    const end = new Date(START).toISOString();
    const lastDay = await get<CallsPage>(`/api/demo/calls?startDate=${start}&endDate=${end}&limit=100`);
    expect(lastDay.pagination.total).toBe(await countDemoCalls(START - DAY_MS, START));
    expect(lastDay.calls.every((c) => Date.parse(c.createdAt) > START - DAY_MS)).toBe(true);

    const one = lastDay.calls[3];
    const byNumber = await get<CallsPage>(`/api/demo/calls?search=${encodeURIComponent(one.fromNumber)}`);
    expect(byNumber.calls.map((c) => c.id)).toContain(one.id);
    const byId = await get<CallsPage>(`/api/demo/calls?search=${one.id}`);
    expect(byId.calls.map((c) => c.id)).toEqual([one.id]);
    const byTranscript = await get<CallsPage>('/api/demo/calls?search=book%20an%20appointment&status=all');
    expect(byTranscript.calls.length).toBeGreaterThan(0);
    expect(byTranscript.calls.every((c) => c.pathway === 'Booking')).toBe(true);

    const page2 = await get<CallsPage>('/api/demo/calls?page=2');
    const page1 = await get<CallsPage>('/api/demo/calls?page=1');
    expect(page2.pagination.page).toBe(2);
    expect(page2.calls.map((c) => c.id).filter((id) => page1.calls.some((c) => c.id === id))).toEqual([]);
    expect(Date.parse(page2.calls[0].createdAt)).toBeLessThanOrEqual(Date.parse(page1.calls[9].createdAt));

    const bad = await t.app.inject({ method: 'GET', url: '/api/demo/calls?page=0' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual(expect.any(String));
    const defaultRange = await get<DailyPoint[]>('/api/demo/calls-over-time');
    expect(defaultRange).toHaveLength(7);
    const unknownRange = await t.app.inject({
      method: 'GET',
      url: '/api/demo/calls-over-time?dateRange=bogus',
    });
    expect(unknownRange.statusCode).toBe(400);
    expect(Object.keys(unknownRange.json().fields)).toEqual(['dateRange']);
  });

  it('demo calls say what they achieved: summaries, who answered, tags and variables, and attention', async () => {
    const page = await get<CallsPage>('/api/demo/calls?status=all&pathway=booking&limit=100&dateRange=30d');
    const completed = page.calls.find((c) => c.status === 'completed');
    expect(completed).toBeTruthy();
    const detail = await get<Record<string, unknown>>(`/api/demo/calls/${completed?.id}`);
    expect(detail).toMatchObject({
      answeredBy: 'human',
      dispositionTag: 'APPOINTMENT_BOOKED',
      summary: expect.stringMatching(/^The caller booked an appointment/),
      variables: { appointment_day: expect.any(String), appointment_time: expect.any(String) },
      outcome: 'Booked appointment',
    });
    // The agency's cost stays on the admin's side.
    expect(detail).not.toHaveProperty('providerPrice');
    const failed = await get<CallsPage>('/api/demo/calls?status=failed&limit=5');
    expect(failed.calls.length).toBeGreaterThan(0);
    expect(failed.calls.every((c) => c.needsAttention)).toBe(true);
    const missing = await t.app.inject({ method: 'GET', url: '/api/demo/calls/not-a-demo-call' });
    expect(missing.statusCode).toBe(404);
  });

  it('shows what the demo calls achieved: outcomes with values, their chart and the calls needing attention', async () => {
    const summary = await get<OutcomeSummaryItem[]>('/api/demo/outcomes/summary?dateRange=30d');
    expect(summary.map((s) => s.name)).toEqual([...DEMO_OUTCOMES.map((o) => o.name), 'Other']);
    const booked = summary[0];
    expect(booked.count).toBeGreaterThan(0);
    expect(booked.value).toBe(booked.count * 120);
    const total = summary.reduce((sum, s) => sum + s.count, 0);
    const stats = await get<{ totalCalls: number }>('/api/demo/stats?dateRange=30d');
    expect(total).toBe(stats.totalCalls);

    const points = await get<{ date: string; counts: Record<string, number> }[]>(
      '/api/demo/outcomes-over-time?dateRange=30d',
    );
    expect(points.length).toBeGreaterThanOrEqual(30);
    const attention = await get<{ total: number; calls: { attentionReasons: string[] }[] }>(
      '/api/demo/attention?limit=5',
    );
    expect(attention.total).toBeGreaterThan(0);
    expect(attention.calls[0].attentionReasons.length).toBeGreaterThan(0);
    // Nobody marks a demo call handled.
    const mark = await t.app.inject({ method: 'POST', url: '/api/demo/calls/x/handled' });
    expect(mark.statusCode).toBe(404);
  });

  it('serves a recording for demo calls that have one, with download and range support', async () => {
    const page = await get<CallsPage>('/api/demo/calls?limit=100&status=completed');
    const withRecording = page.calls.find((c) => c.recordingUrl);
    const without = page.calls.find((c) => !c.recordingUrl);
    expect(withRecording?.recordingUrl).toBe(`/api/demo/recording/${withRecording?.id}`);

    const audio = await t.app.inject({ method: 'GET', url: `/api/demo/recording/${withRecording?.id}` });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/mpeg');
    expect(audio.rawPayload.length).toBeGreaterThan(1000);

    const download = await t.app.inject({
      method: 'GET',
      url: `/api/demo/recording/${withRecording?.id}?download=1`,
    });
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="recording-${withRecording?.id}.mp3"`,
    );

    const range = await t.app.inject({
      method: 'GET',
      url: `/api/demo/recording/${withRecording?.id}`,
      headers: { range: 'bytes=0-99' },
    });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.length).toBe(100);
    expect(range.headers['content-range']).toBe(`bytes 0-99/${audio.rawPayload.length}`);

    expect(
      (await t.app.inject({ method: 'GET', url: `/api/demo/recording/${without?.id}` })).statusCode,
    ).toBe(404);
    const missing = await t.app.inject({ method: 'GET', url: '/api/demo/recording/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Call not found' });
  });

  it('the demo tenant cannot be logged in to, and its calls are not reachable as a client', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/client/login',
      payload: { email: 'demo@demo.invalid', password: '' },
    });
    expect(login.statusCode).toBe(400);
    const login2 = await t.app.inject({
      method: 'POST',
      url: '/api/client/login',
      payload: { email: 'demo@demo.invalid', password: 'anything at all' },
    });
    expect(login2.statusCode).toBe(401);
  });

  it('seed requires a client session and adds ~25 sample calls to that client only', async () => {
    const anon = await t.app.inject({ method: 'POST', url: '/api/demo/seed' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ message: expect.any(String) });

    const demoBefore = await countDemoCalls();
    const ann = await createClient(t.deps, { email: 'ann-demo@example.com' });
    const bob = await createClient(t.deps, { email: 'bob-demo@example.com' });
    const cookie = await loginClient(t.app, ann.email);
    const bobCookie = await loginClient(t.app, bob.email);

    const seeded = await t.app.inject({ method: 'POST', url: '/api/demo/seed', headers: { cookie } });
    expect(seeded.statusCode).toBe(200);
    expect(seeded.json()).toEqual({ success: true, inserted: 25 });

    const mine = await get<CallsPage>('/api/client/calls?status=all&limit=100', cookie);
    expect(mine.pagination.total).toBe(25);
    expect(
      mine.calls.every(
        (c) => Date.parse(c.createdAt) > clock - 7 * DAY_MS && Date.parse(c.createdAt) <= clock,
      ),
    ).toBe(true);
    expect(mine.calls.every((c) => c.recordingUrl === undefined && c.transcript)).toBe(true);
    const stats = await get<DemoStats>('/api/client/stats?dateRange=7d', cookie);
    expect(stats.totalCalls).toBe(25);
    // Samples are marked as such and cost nothing.
    expect(mine.calls.every((c) => c.isSample && c.cost === 0)).toBe(true);
    expect(stats.totalCost).toBe(0);

    // One set at a time; nobody else is touched.
    const again = await t.app.inject({ method: 'POST', url: '/api/demo/seed', headers: { cookie } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already on your dashboard/);
    expect((await get<CallsPage>('/api/client/calls?status=all', cookie)).pagination.total).toBe(25);
    expect((await get<CallsPage>('/api/client/calls?status=all', bobCookie)).pagination.total).toBe(0);
    expect(await countDemoCalls()).toBe(demoBefore);
  });

  it('tops up as time passes and drops calls beyond the retention, keeping stats exact', async () => {
    clock = START + 20 * DAY_MS;
    const points = await get<DailyPoint[]>('/api/demo/calls-over-time?dateRange=30d');
    expect(points.at(-1)?.date).toBe('2025-03-25');
    expect(points.slice(-21).every((p) => p.count > 0)).toBe(true);
    expect(await countDemoCalls(0, clock - DEMO_RETENTION_DAYS * DAY_MS)).toBe(0);

    for (const range of ['1d', '7d', '30d', '90d'] as const) {
      const stats = await get<DemoStats>(`/api/demo/stats?dateRange=${range}`);
      const days = { '1d': 1, '7d': 7, '30d': 30, '90d': 90 }[range];
      expect(stats.totalCalls).toBe(await countDemoCalls(clock - days * DAY_MS, clock));
    }
    // Rollups still add up to exactly the stored calls after the deletions.
    const rollup = await t.deps.db
      .selectFrom('call_rollups')
      .select((eb) => eb.fn.sum<number>('call_count').as('n'))
      .where('client_id', '=', DEMO_CLIENT_ID)
      .executeTakeFirstOrThrow();
    expect(Number(rollup.n)).toBe(await countDemoCalls());
  });

  it('two top-ups racing (two instances) store every call once', async () => {
    clock = START + 23 * DAY_MS;
    // The top-up adds the last three days (and the retention drops as many at the far end).
    const lastDays = () => countDemoCalls(clock - 3 * DAY_MS, clock);
    const before = await lastDays();
    const a = createDemoData(t.deps);
    const b = createDemoData(t.deps);
    await Promise.all([a.ensureCurrent(), b.ensureCurrent(), a.ensureCurrent()]);
    expect(await lastDays()).toBeGreaterThan(before);
    const after = await countDemoCalls();
    const distinct = await t.deps.db
      .selectFrom('calls')
      .select((eb) => eb.fn.count<number>('provider_call_id').distinct().as('n'))
      .where('client_id', '=', DEMO_CLIENT_ID)
      .executeTakeFirstOrThrow();
    expect(Number(distinct.n)).toBe(after);
    const rollup = await t.deps.db
      .selectFrom('call_rollups')
      .select((eb) => eb.fn.sum<number>('call_count').as('n'))
      .where('client_id', '=', DEMO_CLIENT_ID)
      .executeTakeFirstOrThrow();
    expect(Number(rollup.n)).toBe(after);
  });
});

describe(`demo from a provider account (${TEST_DB})`, () => {
  const DEMO_KEY = `sim-demo-key-${TEST_DB}`;
  let sim: VoiceSim;
  let t: TestApp;

  beforeAll(async () => {
    sim = await startVoiceSim();
    sim.addCalls(DEMO_KEY, {
      count: 12,
      spreadDays: 5,
      overrides: { status: 'completed', completed: true, queue_status: 'complete', transferred_to: null },
    });
    t = await createTestApp({
      env: { BLAND_API_URL: sim.url, DEMO_BLAND_API_KEY: DEMO_KEY },
      voice: createBlandProvider({ baseUrl: sim.url, timeoutMs: 2_000, retryBaseMs: 20, maxRetries: 1 }),
    });
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });

  const demoCalls = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/demo/calls?status=all&limit=100' })).json() as CallsPage;

  it('shows that account’s calls instead of generated ones, and streams their recordings', async () => {
    // The first read starts a sync in the background and answers at once from what is stored.
    const demo = createDemoData(t.deps);
    expect(demo.fromProvider).toBe(true);
    await demo.ensureCurrent();
    await demo.settled();

    const page = await demoCalls();
    expect(page.pagination.total).toBe(12);
    const stored = await t.deps.db
      .selectFrom('calls')
      .select(['source', 'provider_call_id'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .execute();
    expect(stored.every((c) => c.source === 'sync')).toBe(true);

    const stats = (
      await t.app.inject({ method: 'GET', url: '/api/demo/stats?dateRange=7d' })
    ).json() as DemoStats;
    expect(stats.totalCalls).toBe(12);

    const withRecording = page.calls.find((c) => c.recordingUrl);
    expect(withRecording?.recordingUrl).toBe(`/api/demo/recording/${withRecording?.id}`);
    const audio = await t.app.inject({
      method: 'GET',
      url: `/api/demo/recording/${withRecording?.id}`,
      headers: { range: 'bytes=0-99' },
    });
    expect(audio.statusCode).toBe(206);
    expect(audio.headers['content-type']).toMatch(/^audio\/mpeg/);
    expect(audio.rawPayload.length).toBe(100);
  });

  it('keeps serving what it has when the provider fails', async () => {
    sim.setMode('500');
    await t.deps.db
      .updateTable('clients')
      .set({ last_sync_at: 0 })
      .where('id', '=', DEMO_CLIENT_ID)
      .execute();
    const demo = createDemoData(t.deps);
    await demo.ensureCurrent();
    await demo.settled();
    const page = await demoCalls();
    expect(page.pagination.total).toBe(12);
    sim.setMode('normal');
  });
});
