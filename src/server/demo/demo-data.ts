/**
 * The demo tenant: a client row nobody can log in as (no password) whose calls always look
 * current (DESIGN §6 [11]). Its calls come from one of two places:
 * - by default, a deterministic generator: before a demo read, calls up to now are topped up and
 *   calls older than the retention removed, both through the calls repository so rollups stay
 *   exact. Safe when requests race, on one instance or several: generated calls have fixed
 *   provider ids, and the repository merges a call it already has instead of storing it twice;
 * - with DEMO_BLAND_API_KEY, that provider account: the demo tenant holds the key and is synced
 *   like any client (same lease, same watermark), in the background so a demo read never waits
 *   on the provider or fails because of it.
 */
import { setImmediate } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { syncClientCalls } from '../calls/ingest/sync';
import { createCallsRepository } from '../calls/write/calls-repository';
import { findClient, insertClientIfAbsent, updateClient } from '../clients/clients-repository';
import type { AppDeps } from '../context';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { Database } from '../db/schema';
import { ensureDemoOutcomes } from './demo-outcomes';
import { DAY_MS, demoCallsBetween } from './sample-calls';

export const DEMO_CLIENT_ID = 'demo';
export const DEMO_CLIENT = { id: DEMO_CLIENT_ID, timezone: 'UTC', per_minute_rate_cents: 15 } as const;

/**
 * How far back the demo holds calls, and when older ones are removed: twice its longest range
 * (90 days), so every range's "vs last period" compares with a window as real as its own.
 */
export const DEMO_HISTORY_DAYS = 180;
export const DEMO_RETENTION_DAYS = 190;
/** A top-up runs when the newest demo call is older than this (there are ~1-2 calls an hour). */
export const DEMO_STALE_MS = 10 * 60 * 1000;
/** Within one process, skip even the freshness check for this long after one. */
const CHECK_INTERVAL_MS = 60 * 1000;
/** Calls written at a time when the demo is topped up (50–100 ms of SQLite's thread each). */
const TOP_UP_SLICE = 200;

export async function ensureDemoTenant(db: Kysely<Database>, now: number): Promise<void> {
  await insertClientIfAbsent(db, {
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
    // Never shown: the demo tenant takes no deliveries, so only a hash that no token matches.
    webhook_token_hash: sha256Hex(randomToken(24)),
    webhook_token_enc: null,
    // Its own state keeps it out of admin lists, stats, sync-all and logins.
    onboarding_status: 'demo',
    // No password: the demo tenant can be shown, never logged in to.
    password_hash: null,
    created_at: now,
    updated_at: now,
  });
  await ensureDemoOutcomes(db, DEMO_CLIENT_ID, now);
}

export interface DemoData {
  /** True when the demo shows the calls of the DEMO_BLAND_API_KEY account. */
  readonly fromProvider: boolean;
  /**
   * Called before every demo read. Generated calls are topped up to now before it resolves; a
   * provider sync is started when due and not waited for. Concurrent callers share one run.
   */
  ensureCurrent(): Promise<void>;
  /** Resolves when the refresh in flight, if any, has finished (start-up priming, tests). */
  settled(): Promise<void>;
}

export function createDemoData(deps: AppDeps, onError: (error: unknown) => void = () => {}): DemoData {
  const { db, now, config } = deps;
  const calls = createCallsRepository(db);
  const providerKey = config.demoBlandApiKey;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | null = null;
  let prepared = false;

  /** Once per process: give the tenant the configured key (or take it away), and drop the other source's calls. */
  async function prepare(t: number): Promise<void> {
    await ensureDemoTenant(db, t);
    await updateClient(db, DEMO_CLIENT_ID, {
      bland_api_key_enc: providerKey ? deps.secrets.encrypt(providerKey) : null,
      api_key_status: providerKey ? 'valid' : 'missing',
      ...(providerKey ? {} : { sync_watermark: null, last_sync_at: null }),
    });
    await calls.deleteCalls(DEMO_CLIENT_ID, { sources: providerKey ? ['sample'] : ['webhook', 'sync'] });
    prepared = true;
  }

  async function topUpGenerated(t: number): Promise<void> {
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
    const fresh = demoCallsBetween(from, t).sort((a, b) => a.createdAt - b.createdAt);
    // Oldest first, in slices with a turn of the event loop between them: a first fill (~5,400
    // calls, 1.4 s of writing on SQLite's one thread) would otherwise hold every other request
    // for that long. Stopped part-way, the next top-up goes on from the newest slice stored.
    for (let i = 0; i < fresh.length; i += TOP_UP_SLICE) {
      if (i > 0) await setImmediate();
      await calls.upsertCalls(DEMO_CLIENT, fresh.slice(i, i + TOP_UP_SLICE));
    }
  }

  async function syncFromProvider(t: number): Promise<void> {
    const tenant = await findClient(db, DEMO_CLIENT_ID);
    if (tenant?.last_sync_at != null && t - tenant.last_sync_at < DEMO_STALE_MS) return;
    await syncClientCalls(deps, DEMO_CLIENT_ID, 'system');
  }

  async function refresh(t: number): Promise<void> {
    if (!prepared) await prepare(t);
    else await ensureDemoTenant(db, t);
    if (providerKey) await syncFromProvider(t);
    else await topUpGenerated(t);
    await calls.deleteCalls(DEMO_CLIENT_ID, { createdBefore: t - DEMO_RETENTION_DAYS * DAY_MS });
  }

  return {
    fromProvider: providerKey !== null,

    async ensureCurrent() {
      const t = now();
      if (t - checkedAt < CHECK_INTERVAL_MS) return;
      if (!running) {
        running = refresh(t)
          .then(() => {
            checkedAt = t;
          })
          .finally(() => {
            running = null;
          });
        if (providerKey) {
          // A provider that is down must not be asked again on every read.
          checkedAt = t;
          running.catch(onError);
          return;
        }
      }
      if (!providerKey) await running;
    },

    async settled() {
      await running?.catch(() => {});
    },
  };
}

/**
 * Fills the public demo when the server starts rather than on its first visit (it tops itself up
 * afterwards). Not waited for by the start: the server answers meanwhile.
 */
export function primeDemo(deps: AppDeps, onError: (error: unknown) => void): Promise<void> {
  const demo = createDemoData(deps, onError);
  return demo
    .ensureCurrent()
    .then(() => demo.settled())
    .catch(onError);
}
