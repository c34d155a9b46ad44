/**
 * Outcomes through the API: defaults, classification as calls arrive, a saved list
 * re-classifies the client's calls in the background, the summary's counts, values and changes,
 * the log's outcome filter, validation, and one client never seeing another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OUTCOMES, type Outcome } from '../../src/contract/outcomes';
import type { IncomingCall } from '../../src/server/calls/write/calls-repository';
import { saveOutcomes } from '../../src/server/outcomes/outcomes-repository';
import { reclassificationOf } from '../../src/server/outcomes/reclassify';
import { NO_INSIGHTS } from '../../src/server/providers/voice/types';
import { storeCalls } from '../helpers/calls';
import { createAdminUser, createSignedInClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 5, 10, 12, 7, 30);

const booked: Outcome = {
  name: 'Booked appointment',
  color: '#16a34a',
  value: 120,
  needsAttention: false,
  notify: true,
  rules: [{ field: 'disposition_tag', op: 'equals', value: 'APPOINTMENT_BOOKED' }],
};

function call(at: number, insights: Partial<typeof NO_INSIGHTS>, over: Partial<IncomingCall> = {}) {
  return { createdAt: at, insights: { ...NO_INSIGHTS, ...insights }, ...over };
}

describe(`outcomes (${TEST_DB})`, () => {
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
  const put = async (cookie: string, url: string, payload: unknown) => {
    const res = await t.app.inject({ method: 'PUT', url, headers: { cookie }, payload: payload as object });
    return { status: res.statusCode, body: res.json() };
  };
  /** Polls until the background re-classification has finished. */
  async function settled(cookie: string, url = '/api/client/outcomes') {
    for (let i = 0; i < 200; i++) {
      const { body } = await get(cookie, url);
      if (
        body.reclassification.state !== 'running' &&
        body.reclassification.done >= body.reclassification.total
      )
        return body;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('re-classification did not finish');
  }
  const counts = (summary: { name: string; count: number }[]) =>
    Object.fromEntries(summary.map((s) => [s.name, s.count]));

  it('starts with the default outcomes and classifies calls as they arrive', async () => {
    const { client, cookie } = await clientWithCookie();
    const state = await get(cookie, '/api/client/outcomes');
    expect(state.status).toBe(200);
    expect(state.body.outcomes.map((o: { name: string }) => o.name)).toEqual(
      DEFAULT_OUTCOMES.map((o) => o.name),
    );

    await storeCalls(t.deps, client, [
      call(NOW - HOUR, { answeredBy: 'human' }),
      call(NOW - 2 * HOUR, { answeredBy: 'human' }),
      call(NOW - 3 * HOUR, { answeredBy: 'voicemail' }),
      call(NOW - 4 * HOUR, { answeredBy: 'no-answer' }, { status: 'failed', durationSeconds: 0 }),
      call(NOW - 5 * HOUR, { answeredBy: 'human' }, { status: 'transferred' }),
      call(NOW - 6 * HOUR, {}, { status: 'failed' }),
      call(NOW - 7 * HOUR, {}, { status: 'unknown' }),
    ]);
    const summary = await get(cookie, '/api/client/outcomes/summary?dateRange=7d');
    expect(summary.status).toBe(200);
    expect(counts(summary.body)).toEqual({
      'Reached a person': 2,
      Voicemail: 1,
      'No answer': 1,
      Transferred: 1,
      Failed: 1,
      Other: 1,
    });
    expect(summary.body.at(-1)).toMatchObject({ name: 'Other', value: null });
  });

  it('reads "running" from the moment a list is saved, before the background run has taken its lease', async () => {
    const { client, cookie } = await clientWithCookie();
    await storeCalls(t.deps, client, [call(NOW - HOUR, {}), call(NOW - 2 * HOUR, {}), call(NOW - DAY, {})]);
    // Saved the way the route saves, without starting the run yet: the gap a poller could fall in.
    await saveOutcomes(t.deps.db, client.id, [booked, ...DEFAULT_OUTCOMES], NOW);
    expect(await reclassificationOf(t.deps.db, client.id, NOW)).toEqual({
      state: 'running',
      done: 0,
      total: 3,
    });

    const done = await settled(cookie);
    expect(done.reclassification).toEqual({ state: 'done', done: 3, total: 3 });
  });

  it('a saved list re-classifies every call; the summary gives values and changes; the log filters by outcome', async () => {
    const { client, cookie } = await clientWithCookie();
    await storeCalls(t.deps, client, [
      // This week: three booked, one reached without booking.
      call(NOW - HOUR, { answeredBy: 'human', dispositionTag: 'APPOINTMENT_BOOKED' }),
      call(NOW - 2 * DAY, { answeredBy: 'human', dispositionTag: 'appointment_booked' }),
      call(NOW - 3 * DAY, { answeredBy: 'human', dispositionTag: 'APPOINTMENT_BOOKED' }),
      call(NOW - 4 * DAY, { answeredBy: 'human' }),
      // The week before: one booked.
      call(NOW - 9 * DAY, { answeredBy: 'human', dispositionTag: 'APPOINTMENT_BOOKED' }),
    ]);
    const before = await get(cookie, '/api/client/outcomes/summary?dateRange=7d');
    expect(counts(before.body)['Reached a person']).toBe(4);

    const saved = await put(cookie, '/api/client/outcomes', { outcomes: [booked, ...DEFAULT_OUTCOMES] });
    expect(saved.status).toBe(200);
    expect(saved.body.outcomes[0]).toMatchObject({ name: 'Booked appointment', value: 120 });
    const done = await settled(cookie);
    expect(done.reclassification).toMatchObject({ state: 'done', done: 5, total: 5 });

    const after = await get(cookie, '/api/client/outcomes/summary?dateRange=7d');
    expect(after.body[0]).toEqual({
      name: 'Booked appointment',
      color: '#16a34a',
      count: 3,
      value: 360,
      change: 200, // 3 against 1 the week before
      previousCount: 1,
      goodWhen: 'up',
    });
    expect(counts(after.body)['Reached a person']).toBe(1);
    // Which way each change is good news: fewer failed or unanswered calls; "Other" neither.
    const goodWhen = Object.fromEntries(
      after.body.map((o: { name: string; goodWhen: string | null }) => [o.name, o.goodWhen]),
    );
    expect(goodWhen).toMatchObject({
      'Reached a person': 'up',
      Voicemail: 'down',
      'No answer': 'down',
      Transferred: 'up',
      Failed: 'down',
      Other: null,
    });

    const log = await get(cookie, '/api/client/calls?status=all&outcome=booked%20APPOINTMENT&limit=100');
    expect(log.body.pagination.total).toBe(4);
    const windowed = await get(
      cookie,
      `/api/client/calls?status=all&outcome=Booked%20appointment&startDate=${new Date(NOW - 7 * DAY).toISOString()}&endDate=${new Date(NOW).toISOString()}`,
    );
    expect(windowed.body.pagination.total).toBe(3);

    // Calls arriving after the change are classified under the new list at once.
    await storeCalls(t.deps, client, [call(NOW - 60_000, { dispositionTag: 'APPOINTMENT_BOOKED' })]);
    const latest = await get(cookie, '/api/client/outcomes/summary?dateRange=7d');
    expect(latest.body[0].count).toBe(4);
  });

  it('classifies calls stored before outcomes existed on first look', async () => {
    const { client, cookie } = await clientWithCookie();
    await storeCalls(t.deps, client, [call(NOW - HOUR, { answeredBy: 'voicemail' })]);
    // As a call stored by an older version looks: no outcome, no version, no outcome sums.
    await t.deps.db
      .updateTable('calls')
      .set({ outcome: null, outcome_version: null })
      .where('client_id', '=', client.id)
      .execute();
    await t.deps.db.deleteFrom('call_outcome_rollups').where('client_id', '=', client.id).execute();
    await t.deps.db.deleteFrom('call_outcome_rollups_daily').where('client_id', '=', client.id).execute();
    await get(cookie, '/api/client/outcomes/summary?dateRange=7d');
    await settled(cookie);
    const summary = await get(cookie, '/api/client/outcomes/summary?dateRange=7d');
    expect(counts(summary.body).Voicemail).toBe(1);
  });

  it('refuses unknown fields or ops and bad lists with 400, changing nothing', async () => {
    const { cookie } = await clientWithCookie();
    for (const outcomes of [
      [{ ...booked, rules: [{ field: 'mood', op: 'equals', value: 'x' }] }],
      [{ ...booked, rules: [{ field: 'status', op: 'like', value: 'x' }] }],
      [{ ...booked, rules: [{ field: 'duration', op: 'gte', value: 'long' }] }],
      [booked, booked],
      [{ ...booked, name: 'Other' }],
      Array.from({ length: 21 }, (_, i) => ({ ...booked, name: `O${i}` })),
      'not a list',
    ]) {
      const res = await put(cookie, '/api/client/outcomes', { outcomes });
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    const state = await get(cookie, '/api/client/outcomes');
    expect(state.body.outcomes).toHaveLength(DEFAULT_OUTCOMES.length);
  });

  it("keeps each client's outcomes and calls apart; the admin reads and edits a client's", async () => {
    const a = await clientWithCookie();
    const b = await clientWithCookie();
    await storeCalls(t.deps, a.client, [call(NOW - HOUR, { dispositionTag: 'APPOINTMENT_BOOKED' })]);
    await put(a.cookie, '/api/client/outcomes', { outcomes: [booked] });
    await settled(a.cookie);
    const bState = await get(b.cookie, '/api/client/outcomes');
    expect(bState.body.outcomes[0].name).toBe('Reached a person');
    expect(counts((await get(b.cookie, '/api/client/outcomes/summary')).body)).toEqual({
      'Reached a person': 0,
      Voicemail: 0,
      'No answer': 0,
      Transferred: 0,
      Failed: 0,
      Other: 0,
    });
    expect(
      (await get(b.cookie, '/api/client/calls?status=all&outcome=Booked%20appointment')).body.pagination
        .total,
    ).toBe(0);

    const { username, password } = await createAdminUser(t.deps);
    const admin = await loginAdmin(t.app, username, password);
    const adminState = await get(admin, `/api/admin/client-outcomes/${a.client.id}`);
    expect(adminState.body.outcomes[0].name).toBe('Booked appointment');
    expect((await get(admin, `/api/admin/client-outcomes/${a.client.id}/summary`)).body[0].count).toBe(1);
    expect((await get(admin, '/api/admin/client-outcomes/no-such-client')).status).toBe(404);
    // A client session cannot use the admin's routes.
    expect((await get(a.cookie, `/api/admin/client-outcomes/${a.client.id}`)).status).toBe(403);
  });

  it('lists the calls that need a person, with reasons; marking one handled keeps who and when', async () => {
    const { client, cookie } = await clientWithCookie();
    const line = (role: string, text: string) => ({ role, text });
    const stored = await storeCalls(t.deps, client, [
      call(NOW - 1 * HOUR, {}, { status: 'failed', durationSeconds: 0, providerCallId: 'att-failed' }),
      call(NOW - 2 * HOUR, { errorMessage: 'Carrier rejected the call' }, { providerCallId: 'att-error' }),
      call(
        NOW - 3 * HOUR,
        { answeredBy: 'human' },
        {
          providerCallId: 'att-callback',
          transcript: [line('agent', 'How can I help?'), line('user', 'Could you call me back tomorrow?')],
        },
      ),
      // The agent asking for a call back on a voicemail is not the caller asking.
      call(
        NOW - 4 * HOUR,
        { answeredBy: 'voicemail' },
        {
          providerCallId: 'att-voicemail',
          transcript: [line('agent', 'Please call us back at your convenience.')],
        },
      ),
      call(NOW - 5 * HOUR, { answeredBy: 'human' }, { durationSeconds: 6, providerCallId: 'att-short' }),
      call(
        NOW - 6 * HOUR,
        { answeredBy: 'human', dispositionTag: 'COMPLAINT' },
        { providerCallId: 'att-complaint' },
      ),
      call(NOW - 7 * HOUR, { answeredBy: 'human' }, { providerCallId: 'att-fine' }),
    ]);
    expect(stored.created).toBe(7);
    const complaint = {
      ...booked,
      name: 'Complaint',
      color: '#dc2626',
      value: null,
      needsAttention: true,
      rules: [{ field: 'disposition_tag', op: 'equals', value: 'complaint' }],
    };
    await put(cookie, '/api/client/outcomes', { outcomes: [complaint, ...DEFAULT_OUTCOMES] });
    await settled(cookie);

    const list = await get(cookie, '/api/client/attention');
    expect(list.status).toBe(200);
    const byProvider = async () => {
      const rows = await t.deps.db
        .selectFrom('calls')
        .select(['id', 'provider_call_id'])
        .where('client_id', '=', client.id)
        .execute();
      return new Map(rows.map((r) => [r.id, r.provider_call_id]));
    };
    const ids = await byProvider();
    expect(list.body.total).toBe(5);
    expect(
      Object.fromEntries(
        list.body.calls.map((c: { id: string; attentionReasons: string[] }) => [
          ids.get(c.id),
          c.attentionReasons,
        ]),
      ),
    ).toEqual({
      'att-failed': ['The call failed'],
      'att-error': ['The call ended with an error'],
      'att-callback': ['The caller asked for a call-back'],
      'att-short': ['Very short connected call'],
      'att-complaint': ['Outcome: Complaint'],
    });
    const filtered = await get(cookie, '/api/client/calls?status=all&attention=true');
    expect(filtered.body.pagination.total).toBe(5);
    expect(filtered.body.calls.every((c: { needsAttention: boolean }) => c.needsAttention)).toBe(true);

    const target = list.body.calls[0].id;
    const first = await t.app.inject({
      method: 'POST',
      url: `/api/client/calls/${target}/handled`,
      headers: { cookie },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, handledBy: client.email });
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/client/calls/${target}/handled`,
      headers: { cookie },
    });
    expect(again.json()).toEqual(first.json());
    expect((await get(cookie, '/api/client/attention')).body.total).toBe(4);
    const detail = await get(cookie, `/api/client/calls/${target}`);
    expect(detail.body).toMatchObject({
      needsAttention: false,
      handledBy: client.email,
      handledAt: first.json().handledAt,
    });
    expect(detail.body.attentionReasons.length).toBeGreaterThan(0);

    // Another client cannot mark (or see) this client's calls.
    const other = await clientWithCookie();
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/client/calls/${list.body.calls[1].id}/handled`,
      headers: { cookie: other.cookie },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await get(other.cookie, '/api/client/attention')).body.total).toBe(0);
    expect((await get(cookie, '/api/client/attention')).body.total).toBe(4);

    const { username, password } = await createAdminUser(t.deps);
    const admin = await loginAdmin(t.app, username, password);
    expect((await get(admin, `/api/admin/client-attention/${client.id}`)).body.total).toBe(4);
    const byAdmin = await t.app.inject({
      method: 'POST',
      url: `/api/admin/client-calls/${client.id}/${list.body.calls[1].id}/handled`,
      headers: { cookie: admin },
    });
    expect(byAdmin.json().handledBy).toMatch(/\(admin\)$/);
    expect((await get(cookie, '/api/client/attention')).body.total).toBe(3);
  });

  it('previews what an unsaved list would make of the last 30 days, changing nothing', async () => {
    const { client, cookie } = await clientWithCookie();
    await storeCalls(t.deps, client, [
      call(NOW - HOUR, { answeredBy: 'human', dispositionTag: 'APPOINTMENT_BOOKED' }),
      call(NOW - 10 * DAY, { answeredBy: 'human', dispositionTag: 'APPOINTMENT_BOOKED' }),
      call(NOW - 20 * DAY, { answeredBy: 'voicemail' }),
      // Outside the 30 days: not counted.
      call(NOW - 31 * DAY, { answeredBy: 'human', dispositionTag: 'APPOINTMENT_BOOKED' }),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/client/outcomes/preview',
      headers: { cookie },
      payload: { outcomes: [booked] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      days: 30,
      scanned: 3,
      sampled: false,
      counts: [
        { name: 'Booked appointment', count: 2 },
        { name: 'Other', count: 1 },
      ],
    });
    // Nothing was saved: the list and the summary are as before.
    const state = await get(cookie, '/api/client/outcomes');
    expect(state.body.outcomes.map((o: { name: string }) => o.name)).not.toContain('Booked appointment');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/client/outcomes/preview',
      headers: { cookie },
      payload: { outcomes: [{ ...booked, rules: [{ field: 'mood', op: 'equals', value: 'x' }] }] },
    });
    expect(bad.statusCode).toBe(400);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/client/outcomes/preview',
      payload: { outcomes: [booked] },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('gives outcomes per day and per hour that add up to the summary of the same window', async () => {
    const { client, cookie } = await clientWithCookie();
    await put(cookie, '/api/client/outcomes', { outcomes: [booked, ...DEFAULT_OUTCOMES] });
    await settled(cookie);
    await storeCalls(t.deps, client, [
      call(NOW - HOUR, { answeredBy: 'human', dispositionTag: 'APPOINTMENT_BOOKED' }),
      call(NOW - 2 * HOUR, { answeredBy: 'voicemail' }),
      call(NOW - 2 * DAY, { answeredBy: 'human', dispositionTag: 'APPOINTMENT_BOOKED' }),
      call(NOW - 2 * DAY - HOUR, { answeredBy: 'human' }),
      call(NOW - 6 * DAY - 20 * HOUR, { answeredBy: 'voicemail' }),
    ]);
    const start = new Date(NOW - 7 * DAY + 1).toISOString();
    const end = new Date(NOW).toISOString();
    const window = `dateRange=7d&startDate=${start}&endDate=${end}`;
    const days = await get(cookie, `/api/client/outcomes-over-time?${window}`);
    expect(days.status).toBe(200);
    expect(days.body).toHaveLength(8); // the partial first day, six whole days, today so far
    const total = (points: { counts: Record<string, number> }[]) => {
      const sums: Record<string, number> = {};
      for (const p of points)
        for (const [name, n] of Object.entries(p.counts)) sums[name] = (sums[name] ?? 0) + n;
      return sums;
    };
    const summary = await get(cookie, `/api/client/outcomes/summary?${window}`);
    const nonZero = Object.fromEntries(Object.entries(counts(summary.body)).filter(([, n]) => n > 0));
    expect(total(days.body)).toEqual(nonZero);
    expect(nonZero).toEqual({ 'Booked appointment': 2, 'Reached a person': 1, Voicemail: 2 });
    expect(days.body.at(-1)).toEqual({
      date: '2026-06-10',
      counts: { 'Booked appointment': 1, Voicemail: 1 },
    });

    const dayStart = new Date(NOW - DAY).toISOString();
    const hours = await get(
      cookie,
      `/api/client/outcomes-over-time?dateRange=1d&interval=hour&startDate=${dayStart}&endDate=${end}`,
    );
    expect(hours.status).toBe(200);
    expect(total(hours.body)).toEqual({ 'Booked appointment': 1, Voicemail: 1 });
    expect(hours.body.find((p: { date: string }) => p.date === '2026-06-10T11:00').counts).toEqual({
      'Booked appointment': 1,
    });
    expect((await get(cookie, '/api/client/outcomes-over-time?dateRange=7d&interval=minute')).status).toBe(
      400,
    );

    // Another client's chart is its own (empty), and the admin reads this client's.
    const other = await clientWithCookie();
    const foreign = await get(other.cookie, `/api/client/outcomes-over-time?${window}`);
    expect(total(foreign.body)).toEqual({});
    const { username, password } = await createAdminUser(t.deps);
    const admin = await loginAdmin(t.app, username, password);
    const byAdmin = await get(admin, `/api/admin/client-outcomes/${client.id}/over-time?${window}`);
    expect(total(byAdmin.body)).toEqual(nonZero);
  });
});
