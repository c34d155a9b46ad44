/**
 * Issue 41's batched writes: the running totals of a sync page spanning many days and of webhook
 * batches are written in a few statements, and must equal a recount from the raw calls; the
 * webhook route's token lookups of deliveries arriving together are one query, and a rotated
 * token is still refused from the next delivery on, each call landing with its own client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { syncClientCalls } from '../../src/server/calls/ingest/sync';
import type { ClientRow } from '../../src/server/db/schema';
import { localDate } from '../../src/server/time/time-zones';
import { blandCallBody, deliverWebhook } from '../helpers/bland';
import { createAdminUser, createClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const DAY = 86_400_000;
const ZONE = 'America/New_York';

describe(`batched writes (${TEST_DB})`, () => {
  let sim: VoiceSim;
  let t: TestApp;

  beforeAll(async () => {
    sim = await startVoiceSim();
    t = await createTestApp({ env: { BLAND_API_URL: sim.url } });
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });

  const deliver = (token: string, body: Record<string, unknown>) => deliverWebhook(t.app, token, body);
  const at = (ms: number) => new Date(ms).toISOString();

  /** The client's days and running totals as stored, against a recount from its raw calls. */
  async function expectRunningTotalsExact(client: ClientRow) {
    const calls = await t.deps.db
      .selectFrom('calls')
      .selectAll()
      .where('client_id', '=', client.id)
      .where('is_proxy', '=', 0)
      .where('verified', '=', 1)
      .where('source', '!=', 'sample')
      .execute();
    const days = await t.deps.db
      .selectFrom('client_call_days')
      .selectAll()
      .where('client_id', '=', client.id)
      .orderBy('day')
      .execute();
    expect(days.length).toBeGreaterThan(0);
    const keys = ['calls', 'seconds', 'cost', 'provider', 'answered', 'failed'] as const;
    const recount = new Map<string, Record<(typeof keys)[number], number>>();
    for (const c of calls) {
      const day = localDate(Number(c.created_at), ZONE);
      const d = recount.get(day) ?? { calls: 0, seconds: 0, cost: 0, provider: 0, answered: 0, failed: 0 };
      d.calls++;
      d.seconds += Number(c.duration_seconds);
      d.cost += Number(c.cost_micros);
      d.provider += Number(c.provider_price_micros ?? 0);
      if (c.status === 'completed' || c.status === 'transferred') d.answered++;
      if (c.status === 'failed') d.failed++;
      recount.set(day, d);
    }
    // Every day with calls has its row, and the rows are dense from the first to the last.
    for (const day of recount.keys())
      expect(
        days.some((r) => r.day === day),
        day,
      ).toBe(true);
    let previous: string | null = null;
    const running = { calls: 0, seconds: 0, cost: 0, provider: 0, answered: 0, failed: 0 };
    for (const row of days) {
      if (previous) {
        const next = new Date(Date.parse(`${previous}T12:00:00Z`) + DAY).toISOString().slice(0, 10);
        expect(row.day, `the day after ${previous}`).toBe(next);
      }
      previous = row.day;
      const daily = recount.get(row.day) ?? {
        calls: 0,
        seconds: 0,
        cost: 0,
        provider: 0,
        answered: 0,
        failed: 0,
      };
      for (const k of keys) running[k] += daily[k];
      expect(
        [
          row.call_count,
          row.total_seconds,
          row.total_cost_micros,
          row.total_provider_micros,
          row.answered_count,
          row.failed_count,
        ].map(Number),
        `${row.day} (day)`,
      ).toEqual(keys.map((k) => daily[k]));
      expect(
        [
          row.cum_calls,
          row.cum_seconds,
          row.cum_cost_micros,
          row.cum_provider_micros,
          row.cum_answered,
          row.cum_failed,
        ].map(Number),
        `${row.day} (running)`,
      ).toEqual(keys.map((k) => running[k]));
    }
    expect(running.calls).toBe(calls.length);

    // The status rollups by local day add up to the same calls.
    const rollups = await t.deps.db
      .selectFrom('call_rollups_daily')
      .select(['day'])
      .select((eb) => [eb.fn.sum<number>('call_count').as('n'), eb.fn.sum<number>('total_seconds').as('s')])
      .where('client_id', '=', client.id)
      .groupBy('day')
      .execute();
    for (const r of rollups.filter((x) => Number(x.n) !== 0)) {
      const d = recount.get(r.day);
      expect([Number(r.n), Number(r.s)], r.day).toEqual([d?.calls ?? 0, d?.seconds ?? 0]);
    }
    expect(rollups.reduce((n, r) => n + Number(r.n), 0)).toBe(calls.length);
  }

  it('keeps the running totals exact after a sync of several pages spanning many days, then webhooks on days before, within and after them', async () => {
    const key = 'sk_batched_running_totals_1';
    // Two pages (a page is a thousand calls, one transaction each) over forty days.
    sim.addCalls(key, { count: 1_100, spreadDays: 40 });
    const client = await createClient(t.deps, {
      timezone: ZONE,
      bland_api_key_enc: t.deps.secrets.encrypt(key),
      api_key_status: 'valid',
    });
    const result = await syncClientCalls(t.deps, client.id);
    expect(result.created).toBe(1_100);
    await expectRunningTotalsExact(client);
    const synced = await t.deps.db
      .selectFrom('client_call_days')
      .select((eb) => [eb.fn.min<string>('day').as('first'), eb.fn.count<number>('day').as('n')])
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(Number(synced.n)).toBeGreaterThanOrEqual(39);

    // Webhooks at once (one group-commit batch): days before the first, within, today; a repeat
    // that changes a stored call's duration, and a failed call.
    const now = Date.now();
    const stored = await t.deps.db
      .selectFrom('calls')
      .select(['provider_call_id', 'created_at'])
      .where('client_id', '=', client.id)
      .orderBy('created_at')
      .limit(3)
      .execute();
    const bodies = [
      blandCallBody({ created_at: at(now - 55 * DAY), corrected_duration: '30' }),
      blandCallBody({ created_at: at(now - 48 * DAY), corrected_duration: '45' }),
      blandCallBody({ created_at: at(now - 20 * DAY), corrected_duration: '61' }),
      blandCallBody({ created_at: at(now - 20 * DAY - 3_600_000), status: 'failed', completed: false }),
      blandCallBody({ created_at: at(now - 2 * DAY), corrected_duration: '12' }),
      blandCallBody({ created_at: at(now - 60_000), corrected_duration: '75' }),
      ...stored.map((s) =>
        blandCallBody({
          call_id: s.provider_call_id,
          created_at: at(Number(s.created_at)),
          corrected_duration: '333',
        }),
      ),
    ];
    const answers = await Promise.all(bodies.map((b) => deliver(client.webhook_token, b)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    await expectRunningTotalsExact(client);

    // And a second sync that finds nothing new changes nothing.
    await syncClientCalls(t.deps, client.id);
    await expectRunningTotalsExact(client);
  }, 180_000);

  it('keeps the running totals exact for webhook batches of many clients, each on several days', async () => {
    const now = Date.now();
    const clients = await Promise.all([0, 1, 2, 3].map(() => createClient(t.deps, { timezone: ZONE })));
    // First calls on one day each, then one batch on days before, at and after what they have.
    for (const [i, c] of clients.entries())
      expect(
        (await deliver(c.webhook_token, blandCallBody({ created_at: at(now - (5 + i) * DAY) }))).statusCode,
      ).toBe(200);
    const answers = await Promise.all(
      clients.flatMap((c, i) =>
        [12, 5 + i, 3, 0].map((daysAgo) =>
          deliver(
            c.webhook_token,
            blandCallBody({
              created_at: at(now - daysAgo * DAY - 60_000),
              corrected_duration: String(10 + daysAgo + i),
            }),
          ),
        ),
      ),
    );
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    for (const c of clients) await expectRunningTotalsExact(c);
  });

  it('answers deliveries that arrive together each for its own token, and refuses a rotated token from the next delivery on', async () => {
    const a = await createClient(t.deps);
    const b = await createClient(t.deps);
    const admin = await createAdminUser(t.deps);
    const cookie = await loginAdmin(t.app, admin.username, admin.password);
    const together = await Promise.all([
      ...Array.from({ length: 8 }, () => deliver(a.webhook_token, blandCallBody())),
      ...Array.from({ length: 8 }, () => deliver(b.webhook_token, blandCallBody())),
      ...Array.from({ length: 4 }, () => deliver('not-a-real-token-0123456789abcdef', blandCallBody())),
    ]);
    expect(together.map((r) => r.statusCode)).toEqual([...Array(16).fill(200), ...Array(4).fill(404)]);
    const count = async (clientId: string) =>
      Number(
        (
          await t.deps.db
            .selectFrom('calls')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('client_id', '=', clientId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect([await count(a.id), await count(b.id)]).toEqual([8, 8]);

    const rotated = await t.app.inject({
      method: 'POST',
      url: `/api/admin/clients/${a.id}/rotate-webhook`,
      headers: { cookie },
    });
    expect(rotated.statusCode).toBe(200);
    const token = String(rotated.json().webhookUrl).split('/').pop()!;
    const after = await Promise.all([
      deliver(a.webhook_token, blandCallBody()),
      deliver(token, blandCallBody()),
      deliver(b.webhook_token, blandCallBody()),
      deliver(a.webhook_token, blandCallBody()),
    ]);
    expect(after.map((r) => r.statusCode)).toEqual([404, 200, 200, 404]);
    expect([await count(a.id), await count(b.id)]).toEqual([9, 9]);
  });
});
