/**
 * Conversation quality through the API: a call's figures in the drawer's read and the
 * log, the thresholds putting a call in Needs attention (and saving them re-classifying), the
 * summary's medians against a naive computation in a non-UTC zone, the log filter and export
 * columns, an outcome rule on a quality field, the backfill of earlier calls, and one client never
 * seeing another's figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallQuality, QUALITY_ATTENTION } from '../../src/contract/quality';
import type { IncomingCall } from '../../src/server/calls/write/calls-repository';
import { runQualityBackfill } from '../../src/server/calls/write/quality-backfill';
import { parseBlandCall, withCorrectedTranscript } from '../../src/server/providers/voice/bland-payload';
import blandFixture from '../../src/server/providers/voice/fixtures/bland-call.json';
import correctedFixture from '../../src/server/providers/voice/fixtures/bland-corrected.json';
import retellFixture from '../../src/server/providers/voice/fixtures/retell-call.json';
import vapiFixture from '../../src/server/providers/voice/fixtures/vapi-end-of-call-report.json';
import { parseRetellCall } from '../../src/server/providers/voice/retell-payload';
import type { NormalizedTranscriptEntry } from '../../src/server/providers/voice/types';
import { parseVapiWebhook } from '../../src/server/providers/voice/vapi-webhook';
import { histogramCalls } from '../../src/server/quality/histogram';
import { periodHistograms } from '../../src/server/quality/settled-histograms';
import { localDate, shiftDate } from '../../src/server/time/time-zones';
import { storeCalls } from '../helpers/calls';
import { createAdminUser, createSignedInClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 5, 10, 12, 7, 30);

type Line = [speaker: 'agent' | 'user', startMs: number, endMs: number];
const transcript = (lines: Line[]): NormalizedTranscriptEntry[] =>
  lines.map(([role, startMs, endMs], i) => ({ role, text: `line ${i + 1}`, startMs, endMs }));

// The hand-computed 60-second call of src/server/quality/measure.test.ts.
const HAND_COMPUTED: Line[] = [
  ['agent', 0, 3000],
  ['user', 3500, 6000],
  ['agent', 7200, 12000],
  ['user', 11500, 13000],
  ['agent', 17500, 20000],
  ['user', 19900, 22000],
  ['agent', 28000, 30000],
  ['agent', 30500, 31000],
];

const timedCall = (lines: Line[], over: Partial<IncomingCall> = {}): Partial<IncomingCall> => ({
  createdAt: NOW - HOUR,
  durationSeconds: 60,
  transcript: transcript(lines),
  conversation: { precision: 'segment', endedBy: 'caller', sentiment: null },
  ...over,
});

describe(`conversation quality (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async (cookie: string, url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    const json = res.headers['content-type']?.toString().startsWith('application/json');
    return { status: res.statusCode, body: json ? res.json() : null, text: res.body };
  };
  const put = async (cookie: string, url: string, payload: unknown) => {
    const res = await t.app.inject({ method: 'PUT', url, headers: { cookie }, payload: payload as object });
    return { status: res.statusCode, body: res.json() };
  };
  async function callIdOf(cookie: string): Promise<string> {
    const log = await get(cookie, '/api/client/calls');
    return log.body.calls[0].id;
  }
  async function reclassified(cookie: string) {
    for (let i = 0; i < 200; i++) {
      const { body } = await get(cookie, '/api/client/outcomes');
      if (body.reclassification.state !== 'running') return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('re-classification did not finish');
  }

  it('shows the hand-computed figures in the call and a brief in the log', async () => {
    const { client, cookie } = await createSignedInClient(t);
    await storeCalls(t.deps, client, [timedCall(HAND_COMPUTED)]);
    const id = await callIdOf(cookie);
    const detail = await get(cookie, `/api/client/calls/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.quality).toMatchObject({
      precision: 'segment',
      turns: 7,
      responseLatencyMs: { p50: 4500, p90: 6000, max: 6000, count: 3 },
      interruptions: { caller: 1, agent: 0 },
      deadAir: { count: 2, longestMs: 6000 },
      silencePct: 10,
      agentTalkPct: 21.3,
      talkListenRatio: 2.1,
      longestMonologueMs: 4800,
      endedBy: 'caller',
      escalated: false,
      sentiment: null,
    } satisfies Partial<CallQuality>);
    // The line times reach the drawer with the transcript, for the synced view.
    expect(JSON.parse(detail.body.transcript)[2]).toMatchObject({ startMs: 7200, endMs: 12000 });
    const log = await get(cookie, '/api/client/calls');
    expect(log.body.calls[0].qualityBrief).toEqual({
      precision: 'segment',
      responseLatencyP90Ms: 6000,
      interruptionsCaller: 1,
      deadAirLongestMs: 6000,
    });
  });

  it('puts a call with a 6-second silence in Needs attention with the reason, by the default thresholds', async () => {
    const { client, cookie } = await createSignedInClient(t);
    await storeCalls(t.deps, client, [timedCall(HAND_COMPUTED)]);
    const id = await callIdOf(cookie);
    const detail = await get(cookie, `/api/client/calls/${id}`);
    expect(detail.body.needsAttention).toBe(true);
    expect(detail.body.attentionReasons).toEqual([
      QUALITY_ATTENTION.slow(6000),
      QUALITY_ATTENTION.deadAir(6000),
    ]);
    expect(detail.body.attentionReasons).toContain('Dead air of 6.0 s');
    const attention = await get(cookie, '/api/client/attention');
    expect(attention.body.calls.map((c: { id: string }) => c.id)).toContain(id);
  });

  it('says approx for a call with only the order of its lines, and shows only turns and ended-by', async () => {
    const { client, cookie } = await createSignedInClient(t);
    await storeCalls(t.deps, client, [
      {
        createdAt: NOW - HOUR,
        transcript: [
          { role: 'agent', text: 'Hello', timestamp: '2026-06-10T11:07:30Z' },
          { role: 'user', text: 'Hi', timestamp: '2026-06-10T11:07:33Z' },
          { role: 'agent', text: 'How can I help?', timestamp: '2026-06-10T11:07:35Z' },
        ],
        conversation: { precision: 'approx', endedBy: 'agent', sentiment: null },
      },
    ]);
    const detail = await get(cookie, `/api/client/calls/${await callIdOf(cookie)}`);
    expect(detail.body.quality).toEqual({
      precision: 'approx',
      turns: 3,
      responseLatencyMs: null,
      interruptions: null,
      deadAir: null,
      silencePct: null,
      agentTalkPct: null,
      talkListenRatio: null,
      longestMonologueMs: null,
      endedBy: 'agent',
      escalated: false,
      sentiment: null,
      moments: [],
    });
    expect(detail.body.needsAttention).toBe(false);
  });

  it('keeps the stored quality when a list item without a transcript updates the call', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const [first] = [timedCall(HAND_COMPUTED, { providerCallId: 'keep-me' })];
    await storeCalls(t.deps, client, [first ?? {}]);
    await storeCalls(t.deps, client, [
      { providerCallId: 'keep-me', createdAt: NOW - HOUR, durationSeconds: 61 },
    ]);
    const detail = await get(cookie, `/api/client/calls/${await callIdOf(cookie)}`);
    expect(detail.body.duration).toBe(61);
    expect(detail.body.quality?.precision).toBe('segment');
  });

  it('saves thresholds as a patch, re-classifies the calls under them, and refuses bad ones', async () => {
    const { client, cookie } = await createSignedInClient(t);
    await storeCalls(t.deps, client, [timedCall(HAND_COMPUTED)]);
    const id = await callIdOf(cookie);
    const first = await get(cookie, '/api/client/quality/thresholds');
    expect(first.status).toBe(200);
    expect(first.body.thresholds).toEqual({
      responseLatencyP90Ms: 3500,
      deadAirMs: 5000,
      interruptionsCaller: 3,
    });

    const saved = await put(cookie, '/api/client/quality/thresholds', {
      deadAirMs: 7000,
      responseLatencyP90Ms: null,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.thresholds).toEqual({
      responseLatencyP90Ms: null,
      deadAirMs: 7000,
      interruptionsCaller: 3,
    });
    await reclassified(cookie);
    const detail = await get(cookie, `/api/client/calls/${id}`);
    expect(detail.body.needsAttention).toBe(false);

    const lowered = await put(cookie, '/api/client/quality/thresholds', { interruptionsCaller: 1 });
    expect(lowered.body.thresholds.deadAirMs).toBe(7000);
    await reclassified(cookie);
    expect((await get(cookie, `/api/client/calls/${id}`)).body.attentionReasons).toEqual([
      QUALITY_ATTENTION.interrupted(1),
    ]);

    for (const bad of [{ deadAirMs: 100 }, { interruptionsCaller: 'many' }, { color: 'red' }, []]) {
      const res = await put(cookie, '/api/client/quality/thresholds', bad);
      expect(res.status).toBe(400);
    }
    expect((await get(cookie, '/api/client/quality/thresholds')).body.thresholds.deadAirMs).toBe(7000);
  });

  it('gives medians and p90s equal to a naive computation over the calls, by local day in a non-UTC zone', async () => {
    const timezone = 'Asia/Kolkata'; // UTC+05:30: local days start at 18:30 UTC
    const { client, cookie } = await createSignedInClient(t, { timezone });
    // One caller→agent turn per call: its latency is the call's p50 and p90; values on the 50 ms grid.
    const latencies = [800, 1200, 1200, 1500, 2000, 2500, 3000, 4000, 6000, 900, 1100, 5000];
    // Spread over 10 days, some just either side of a local midnight (18:30 UTC).
    const times = latencies.map((_, i) => {
      const day = Date.UTC(2026, 5, 10 - i, 18, 30);
      return i % 3 === 0 ? day - 60_000 : i % 3 === 1 ? day + 60_000 : day - 6 * HOUR;
    });
    const calls = latencies.map((latency, i) =>
      timedCall(
        [
          ['agent', 0, 2000],
          ['user', 2000, 4000],
          ['agent', 4000 + latency, 9000 + latency],
        ],
        { createdAt: times[i] ?? NOW, durationSeconds: 20 },
      ),
    );
    await storeCalls(t.deps, client, calls);

    const today = localDate(NOW, timezone);
    const rank = (values: number[], q: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted.length === 0 ? null : (sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1] ?? null);
    };
    const inDays = (from: string, to: string) =>
      latencies.filter((_, i) => {
        const day = localDate(times[i] ?? 0, timezone);
        return day >= from && day <= to;
      });
    const currentFrom = shiftDate(today, -6);
    const current = inDays(currentFrom, today);
    const previous = inDays(shiftDate(currentFrom, -7), shiftDate(currentFrom, -1));
    expect(current.length).toBeGreaterThan(3);
    expect(previous.length).toBeGreaterThan(1);

    const summary = await get(cookie, '/api/client/quality/summary?dateRange=7d');
    expect(summary.status).toBe(200);
    expect(summary.body.current).toMatchObject({ from: currentFrom, to: today, calls: current.length });
    expect(summary.body.current.metrics.responseLatencyP90Ms).toEqual({
      median: rank(current, 0.5),
      p90: rank(current, 0.9),
      calls: current.length,
    });
    expect(summary.body.previous.metrics.responseLatencyP50Ms).toEqual({
      median: rank(previous, 0.5),
      p90: rank(previous, 0.9),
      calls: previous.length,
    });
    expect(summary.body.precision).toEqual({ word: 0, message: 0, segment: current.length, approx: 0 });
    // The slowest answers first; each opens the call at the slow turn.
    const slowest = summary.body.worst.filter((w: { metric: string }) => w.metric === 'responseLatencyP90Ms');
    expect(slowest.map((w: { value: number }) => w.value)).toEqual(
      [...current].sort((a, b) => b - a).slice(0, 5),
    );
    expect(
      summary.body.distribution.responseLatencyP90Ms.reduce(
        (n: number, d: { calls: number }) => n + d.calls,
        0,
      ),
    ).toBe(current.length);

    // from/to name local days; the same figures for the same days.
    const byDays = await get(cookie, `/api/client/quality/summary?from=${currentFrom}&to=${today}`);
    expect(byDays.body.current.metrics).toEqual(summary.body.current.metrics);
    for (const bad of [
      '?dateRange=5d',
      `?from=${today}`,
      `?from=${today}&to=${currentFrom}`,
      '?from=2026-13-01&to=2026-13-02',
    ])
      expect((await get(cookie, `/api/client/quality/summary${bad}`)).status).toBe(400);
  });

  it('never shows one client another client’s figures; the admin sees the same as the client', async () => {
    const a = await createSignedInClient(t);
    const b = await createSignedInClient(t);
    await storeCalls(t.deps, a.client, [timedCall(HAND_COMPUTED)]);
    const mine = await get(a.cookie, '/api/client/quality/summary?dateRange=7d');
    expect(mine.body.current.calls).toBe(1);
    const theirs = await get(b.cookie, '/api/client/quality/summary?dateRange=7d');
    expect(theirs.body.current.calls).toBe(0);
    expect(theirs.body.worst).toEqual([]);
    // B cannot reach A's call by id.
    const id = await callIdOf(a.cookie);
    expect((await get(b.cookie, `/api/client/calls/${id}`)).status).toBe(404);

    const admin = await createAdminUser(t.deps);
    const adminCookie = await loginAdmin(t.app, admin.username);
    const seen = await get(adminCookie, `/api/admin/client-quality/${a.client.id}/summary?dateRange=7d`);
    expect(seen.body).toEqual(mine.body);
    expect((await get(adminCookie, '/api/admin/client-quality/nobody/summary')).status).toBe(404);
    // A client's session is not an admin's.
    expect((await get(a.cookie, `/api/admin/client-quality/${a.client.id}/thresholds`)).status).toBe(403);
  });

  it('filters the log on quality figures and exports them', async () => {
    const { client, cookie } = await createSignedInClient(t);
    await storeCalls(t.deps, client, [
      timedCall(HAND_COMPUTED, { providerCallId: 'slow' }),
      timedCall(
        [
          ['agent', 0, 1000],
          ['user', 1200, 2000],
          ['agent', 2500, 4000],
        ],
        { providerCallId: 'smooth' },
      ),
    ]);
    const all = await get(cookie, '/api/client/calls');
    expect(all.body.pagination.total).toBe(2);
    const deadAir = await get(cookie, '/api/client/calls?minDeadAirMs=5000');
    expect(deadAir.body.calls.map((c: { providerCallId: string }) => c.providerCallId)).toEqual(['slow']);
    expect(deadAir.body.pagination).toEqual({ page: 1, limit: 10, total: 1, totalPages: 1 });
    const interrupted = await get(cookie, '/api/client/calls?minInterruptions=1&minLatencyP90Ms=500');
    expect(interrupted.body.calls).toHaveLength(1);
    expect((await get(cookie, '/api/client/calls?minDeadAirMs=-5')).status).toBe(400);

    const csv = await get(cookie, '/api/client/calls/export?format=csv');
    expect(csv.status).toBe(200);
    const [header, ...rows] = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(header).toContain('Response p90 (seconds),Caller interruptions,Longest dead air (seconds)');
    // The quality figures, then the Local time column the export ends with.
    expect(rows.some((r) => /,6\.0,1,6\.0,"[^"]+"$/.test(r))).toBe(true);
  });

  it('lets an outcome rule read a quality figure', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const rule = {
      name: 'Awkward call',
      color: '#b91c1c',
      value: null,
      needsAttention: false,
      notify: false,
      rules: [{ field: 'quality.deadAirLongestMs', op: 'gte', value: 5000 }],
    };
    expect((await put(cookie, '/api/client/outcomes', { outcomes: [rule] })).status).toBe(200);
    await storeCalls(t.deps, client, [timedCall(HAND_COMPUTED)]);
    const detail = await get(cookie, `/api/client/calls/${await callIdOf(cookie)}`);
    expect(detail.body.outcome).toBe('Awkward call');
  });

  it('measures calls stored before quality existed, with progress, once', async () => {
    const { client, cookie } = await createSignedInClient(t);
    await storeCalls(t.deps, client, [
      {
        createdAt: NOW - HOUR,
        transcript: [
          { role: 'agent', text: 'Hello' },
          { role: 'user', text: 'Hi' },
        ],
        insights: {
          summary: null,
          answeredBy: 'human',
          endedBy: 'user',
          errorMessage: null,
          dispositionTag: null,
          analysis: null,
          variables: null,
        },
      },
    ]);
    // As the call was before migration 029: not measured, and its client due for the backfill.
    await t.deps.db
      .updateTable('calls')
      .set({ quality_json: null, quality_precision: null })
      .where('client_id', '=', client.id)
      .execute();
    await t.deps.db
      .insertInto('client_walks')
      .values({ client_id: client.id, kind: 'quality-backfill', total: 1 })
      .execute();
    expect((await get(cookie, '/api/client/quality/thresholds')).body.measuring).toEqual({
      done: 0,
      total: 1,
    });

    await runQualityBackfill(t.deps);
    const detail = await get(cookie, `/api/client/calls/${await callIdOf(cookie)}`);
    expect(detail.body.quality).toMatchObject({ precision: 'approx', turns: 2, endedBy: 'caller' });
    expect((await get(cookie, '/api/client/quality/thresholds')).body.measuring).toBeNull();
    const summary = await get(cookie, '/api/client/quality/summary?dateRange=7d');
    expect(summary.body.precision.approx).toBe(1);
    expect(summary.body.current.metrics.turns).toEqual({ median: 2, p90: 2, calls: 1 });
  });

  it('gives the agency each client’s median response time and interruption rate, and flags slower answers', async () => {
    const { client } = await createSignedInClient(t, { company_name: 'Slowing Down Co' });
    const turn = (latency: number, interrupt: boolean): Line[] => [
      ['agent', 0, 2000],
      ['user', 2500, 5000],
      ['agent', 5000 + latency, 9000 + latency],
      ...(interrupt ? ([['user', 8000 + latency, 10_000 + latency]] as Line[]) : []),
    ];
    // 20 calls 40 days ago answering in 1 s, 20 in the last days in 2 s, a quarter interrupted.
    const before = Array.from({ length: 20 }, (_, i) =>
      timedCall(turn(1000, false), { createdAt: NOW - 40 * 24 * HOUR - i * HOUR }),
    );
    const lately = Array.from({ length: 20 }, (_, i) =>
      timedCall(turn(2000, i % 4 === 0), { createdAt: NOW - 2 * 24 * HOUR - i * HOUR }),
    );
    await storeCalls(t.deps, client, [...before, ...lately]);

    const admin = await createAdminUser(t.deps);
    const adminCookie = await loginAdmin(t.app, admin.username);
    const analytics = await get(adminCookie, '/api/admin/analytics?dateRange=7d&search=Slowing');
    expect(analytics.status).toBe(200);
    expect(analytics.body.clients[0]).toMatchObject({ medianResponseMs: 2000, interruptionRate: 25 });

    const atRisk = await get(adminCookie, '/api/admin/at-risk');
    const mine = atRisk.body.find((c: { clientId: string }) => c.clientId === client.id);
    expect(mine?.reasons).toContainEqual({
      code: 'response_time_up',
      text: "The agent's p90 response time rose 100% against the previous 30 days (1.0 s → 2.0 s)",
    });
  });

  it('gives the demo measured calls, with message timing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/demo/quality/summary?dateRange=7d' });
    expect(res.statusCode).toBe(200);
    const summary = res.json();
    expect(summary.current.calls).toBeGreaterThan(50);
    expect(summary.precision.message).toBe(summary.current.calls);
    expect(summary.current.metrics.responseLatencyP50Ms.median).toBeGreaterThan(500);
    expect(summary.current.metrics.responseLatencyP50Ms.median).toBeLessThan(2500);
  });

  // The figures of src/server/providers/voice/fixtures/README.md, worked out by hand there.
  const FIXTURE_FIGURES = {
    turns: 11,
    responseLatencyMs: { p50: 1200, p90: 4500, max: 4500, count: 5 },
    interruptions: { caller: 1, agent: 0 },
    deadAir: { count: 3, longestMs: 6000 },
    silencePct: 11.5,
    agentTalkPct: 41.5,
    talkListenRatio: 1.93,
    longestMonologueMs: 4800,
    escalated: false,
    moments: [
      { kind: 'dead_air', atMs: 14000, durationMs: 3500 },
      { kind: 'caller_interrupted', atMs: 20000, durationMs: 1000 },
      { kind: 'slow_turn', atMs: 23000, durationMs: 4500 },
      { kind: 'dead_air', atMs: 23000, durationMs: 4500 },
      { kind: 'dead_air', atMs: 31000, durationMs: 6000 },
    ],
  };
  const FIXTURE_NOW = Date.parse('2026-03-05T00:00:00Z');

  it("shows each platform's documented example, read by its adapter, with the hand-computed figures", async () => {
    const retell = parseRetellCall(retellFixture, FIXTURE_NOW);
    const vapi = parseVapiWebhook(JSON.stringify(vapiFixture), {}, null, FIXTURE_NOW);
    const bland = parseBlandCall(blandFixture, FIXTURE_NOW);
    if (!retell.success || vapi.kind !== 'call' || !bland.success) throw new Error('a fixture did not read');
    const blandCorrected = withCorrectedTranscript(bland.call, bland.payload, correctedFixture.corrected);
    const cases = [
      {
        call: retell.call,
        expected: { ...FIXTURE_FIGURES, precision: 'word', endedBy: 'caller', sentiment: 'Positive' },
      },
      {
        call: vapi.call,
        expected: { ...FIXTURE_FIGURES, precision: 'message', endedBy: 'agent', sentiment: null },
      },
      {
        call: blandCorrected,
        expected: { ...FIXTURE_FIGURES, precision: 'segment', endedBy: 'agent', sentiment: null },
      },
    ];
    for (const { call, expected } of cases) {
      const { client, cookie } = await createSignedInClient(t);
      await storeCalls(t.deps, client, [{ ...call, createdAt: NOW - HOUR }]);
      const detail = await get(cookie, `/api/client/calls/${await callIdOf(cookie)}`);
      expect(detail.body.quality, expected.precision).toEqual(expected);
    }

    // Without its corrected transcript, a Bland call says approx and shows only what it can.
    const { client, cookie } = await createSignedInClient(t);
    await storeCalls(t.deps, client, [{ ...bland.call, createdAt: NOW - HOUR }]);
    const detail = await get(cookie, `/api/client/calls/${await callIdOf(cookie)}`);
    expect(detail.body.quality).toEqual({
      precision: 'approx',
      turns: 11,
      responseLatencyMs: null,
      interruptions: null,
      deadAir: null,
      silencePct: null,
      agentTalkPct: null,
      talkListenRatio: null,
      longestMonologueMs: null,
      endedBy: 'agent',
      escalated: false,
      sentiment: null,
      moments: [],
    });
  });

  it('keeps every count when writers of the same client and day run at once', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const batch = (tag: string) =>
      Array.from({ length: 30 }, (_, i) => timedCall(HAND_COMPUTED, { providerCallId: `${tag}-${i}` }));
    await Promise.all(['a', 'b', 'c', 'd'].map((tag) => storeCalls(t.deps, client, batch(tag))));
    const summary = await get(cookie, '/api/client/quality/summary?dateRange=7d');
    expect(summary.body.current.calls).toBe(120);
    expect(summary.body.current.metrics.deadAirLongestMs).toEqual({ median: 6000, p90: 6000, calls: 120 });
  });

  it('keeps settled days merged and sees every change to them; reads recent days each time', async () => {
    const { client, cookie } = await createSignedInClient(t);
    // NOW is months before the machine's clock: every day of these periods is settled.
    const callsOn = (tag: string, daysAgo: number) =>
      timedCall(HAND_COMPUTED, { providerCallId: tag, createdAt: NOW - daysAgo * 24 * HOUR });
    await storeCalls(t.deps, client, [callsOn('s-1', 2), callsOn('s-2', 3)]);
    const calls = async () =>
      (await get(cookie, '/api/client/quality/summary?dateRange=7d')).body.current.calls;
    expect(await calls()).toBe(2);
    // A rollup changed behind the app's back is not seen: the merged days are kept...
    const tamper = (histogram_json: string) =>
      t.deps.db
        .updateTable('quality_rollups_daily')
        .set({ histogram_json })
        .where('client_id', '=', client.id)
        .where('metric', '=', 'precision.segment')
        .execute();
    await tamper('[[0,50]]');
    expect(await calls()).toBe(2);
    await tamper('[[0,1]]');
    // ...and any write to a settled day bumps the client's version in its transaction.
    await storeCalls(t.deps, client, [callsOn('s-3', 4)]);
    const { version } = await t.deps.db
      .selectFrom('quality_rollup_versions')
      .select('version')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(version).toBeGreaterThanOrEqual(2);
    expect(await calls()).toBe(3);

    // Days of the machine's last two are read each time, with no version bump.
    const realNow = Date.now();
    const realToday = localDate(realNow, 'UTC');
    const period = { from: shiftDate(realToday, -9), to: realToday };
    const countOf = async () =>
      histogramCalls((await periodHistograms(t.deps, client.id, [period]))[0]?.get('precision.segment'));
    await storeCalls(t.deps, client, [
      timedCall(HAND_COMPUTED, { providerCallId: 'r-1', createdAt: realNow - 1000 }),
    ]);
    expect(await countOf()).toBe(1);
    await storeCalls(t.deps, client, [
      timedCall(HAND_COMPUTED, { providerCallId: 'r-2', createdAt: realNow - 2000 }),
    ]);
    expect(await countOf()).toBe(2);
    const after = await t.deps.db
      .selectFrom('quality_rollup_versions')
      .select('version')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(after.version).toBe(version);
  });

  it('counts a quality-filtered log up to 1,000 and pages on past it', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const calls = Array.from({ length: 1003 }, (_, i) =>
      timedCall(HAND_COMPUTED, { providerCallId: `many-${i}`, createdAt: NOW - HOUR - i * 1000 }),
    );
    for (let i = 0; i < calls.length; i += 250) await storeCalls(t.deps, client, calls.slice(i, i + 250));
    const first = await get(cookie, '/api/client/calls?minDeadAirMs=5000&limit=100');
    expect(first.body.pagination).toMatchObject({
      page: 1,
      limit: 100,
      total: 1000,
      totalPages: 10,
      totalIsLowerBound: true,
    });
    const past = await get(cookie, '/api/client/calls?minDeadAirMs=5000&limit=100&page=11');
    expect(past.body.calls).toHaveLength(3);
    // Newest first, as without the filter.
    expect(first.body.calls[0].providerCallId).toBe('many-0');
  });
});
