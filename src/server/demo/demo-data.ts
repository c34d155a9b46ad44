/**
 * The demo tenant: a client row nobody can log in as (no password) whose calls always look
 * current. Before a demo read, calls up to now are topped up from the deterministic generator and
 * calls older than the retention are removed, both through the calls repository so rollups stay
 * exact. Safe when requests race, on one instance or several: generated calls have fixed provider
 * ids, and the repository merges a call it already has instead of storing it twice.
 */
import type { Kysely } from 'kysely';
import { createCallsRepository } from '../calls/calls-repository';
import { randomToken } from '../crypto/secrets';
import type { Database } from '../db/schema';
import { DAY_MS, demoCallsBetween } from './sample-calls';

export const DEMO_CLIENT_ID = 'demo';
export const DEMO_CLIENT = { id: DEMO_CLIENT_ID, timezone: 'UTC', per_minute_rate_cents: 15 } as const;

/** How far back the demo shows calls, and when older ones are removed. */
export const DEMO_HISTORY_DAYS = 90;
export const DEMO_RETENTION_DAYS = 100;
/** A top-up runs when the newest demo call is older than this (there are ~1-2 calls an hour). */
export const DEMO_STALE_MS = 10 * 60 * 1000;
/** Within one process, skip even the freshness check for this long after one. */
const CHECK_INTERVAL_MS = 60 * 1000;

export async function ensureDemoTenant(db: Kysely<Database>, now: number): Promise<void> {
  await db
    .insertInto('clients')
    .values({
      id: DEMO_CLIENT_ID,
      first_name: 'Demo',
      last_name: 'User',
      email: 'demo@demo.invalid',
      company_name: 'Demo Company',
      account_type: 'individual',
      per_minute_rate_cents: DEMO_CLIENT.per_minute_rate_cents,
      timezone: DEMO_CLIENT.timezone,
      is_active: 1,
      api_key_status: 'missing',
      webhook_token: randomToken(24),
      // Its own state keeps it out of admin lists, stats, sync-all and logins.
      onboarding_status: 'demo',
      // No password: the demo tenant can be shown, never logged in to.
      password_hash: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export interface DemoData {
  /** Makes the demo's calls reach up to now; concurrent callers in one process share one run. */
  ensureCurrent(): Promise<void>;
}

export function createDemoData(db: Kysely<Database>, now: () => number): DemoData {
  const calls = createCallsRepository(db);
  let checkedAt = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | null = null;

  async function topUp(t: number): Promise<void> {
    await ensureDemoTenant(db, t);
    const newest = await db
      .selectFrom('calls')
      .select((eb) => eb.fn.max('created_at').as('latest'))
      .where('client_id', '=', DEMO_CLIENT_ID)
      .executeTakeFirst();
    const latest = newest?.latest == null ? null : Number(newest.latest);
    if (latest !== null && t - latest < DEMO_STALE_MS) return;
    // From the newest stored call on (an hour earlier, in case a racing top-up stored only part of it).
    const from = Math.max(
      t - DEMO_HISTORY_DAYS * DAY_MS,
      latest === null ? Number.NEGATIVE_INFINITY : latest - 3_600_000,
    );
    const fresh = demoCallsBetween(from, t);
    if (fresh.length > 0) await calls.upsertCalls(DEMO_CLIENT, fresh);
    await calls.deleteCallsBefore(DEMO_CLIENT_ID, t - DEMO_RETENTION_DAYS * DAY_MS);
  }

  return {
    async ensureCurrent() {
      const t = now();
      if (t - checkedAt < CHECK_INTERVAL_MS) return;
      if (!running) {
        running = topUp(t)
          .then(() => {
            checkedAt = t;
          })
          .finally(() => {
            running = null;
          });
      }
      await running;
    },
  };
}
