/**
 * Readiness: whether this instance should get traffic now. Checked in order, each
 * part named in the answer:
 *   lifecycle  — start-up work done (main.ts), and not stopping (SIGTERM);
 *   database   — a query answers within DB_TIMEOUT_MS;
 *   migrations — every migration this version knows is applied (once true, remembered);
 *   outbox     — no due message of a channel this instance sends has waited over
 *                READY_OUTBOX_MAX_AGE_MS (the workers are stuck or far behind);
 *   live       — the live hub's reads (and, on PostgreSQL, its LISTEN connection) have not been
 *                failing for over LIVE_FAILING_MS.
 * What failed is named, never how (no host, no error text: /readyz is public); the log says how.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Readiness, ReadinessPart } from '../../contract/operations';
import type { AppDeps } from '../context';
import { migrationState } from '../db/migrate';

/** A database that has not answered within this is as good as down for a probe. */
export const DB_TIMEOUT_MS = 2_000;
/** The live hub may fail this long (a reconnect) before the instance is not ready. */
export const LIVE_FAILING_MS = 30_000;

type Check = { ok: boolean; detail: string };

export interface ReadinessChecker {
  check(): Promise<Readiness>;
}

export function createReadiness(
  deps: AppDeps,
  log: { warn(obj: object, msg: string): void },
): ReadinessChecker {
  let migrationsApplied = false;
  const channels = [
    'webhook',
    ...(deps.config.mail.smtpUrl ? ['email'] : []),
    ...(deps.config.twilio ? ['sms'] : []),
  ];

  async function withTimeout<T>(work: Promise<T>): Promise<T> {
    const timer = new AbortController();
    try {
      return await Promise.race([
        work,
        sleep(DB_TIMEOUT_MS, undefined, { signal: timer.signal, ref: false }).then(() => {
          throw new Error(`no answer within ${DB_TIMEOUT_MS} ms`);
        }),
      ]);
    } finally {
      timer.abort();
    }
  }

  async function database(): Promise<Check> {
    const started = performance.now();
    try {
      await withTimeout(sql`select 1`.execute(deps.db));
      return { ok: true, detail: `answered in ${Math.round(performance.now() - started)} ms` };
    } catch (error) {
      log.warn({ err: error }, 'readiness: the database did not answer');
      return { ok: false, detail: 'unreachable' };
    }
  }

  async function migrations(): Promise<Check> {
    if (migrationsApplied) return { ok: true, detail: 'all applied' };
    const state = await withTimeout(migrationState(deps.db));
    if (state.pending.length > 0)
      return { ok: false, detail: `${state.pending.length} pending: ${state.pending.join(', ')}` };
    migrationsApplied = true;
    return { ok: true, detail: 'all applied' };
  }

  async function outbox(): Promise<Check> {
    const limit = deps.config.operations.readyOutboxMaxAgeMs;
    if (limit === 0) return { ok: true, detail: 'not checked (READY_OUTBOX_MAX_AGE_MS=0)' };
    const now = deps.now();
    const row = await withTimeout(
      deps.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.min('next_attempt_at').as('due'))
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where('channel', 'in', channels)
        .executeTakeFirst(),
    );
    const due = row?.due == null ? null : Number(row.due);
    if (due === null) return { ok: true, detail: 'nothing overdue' };
    const waited = now - due;
    const seconds = Math.round(waited / 1000);
    return waited > limit
      ? { ok: false, detail: `a due message has waited ${seconds} s (limit ${Math.round(limit / 1000)} s)` }
      : { ok: true, detail: `oldest due message waited ${seconds} s` };
  }

  function live(): Check {
    const state = deps.live.health();
    if (!state.started) return { ok: true, detail: 'idle (no stream opened yet)' };
    const now = Date.now();
    const failingFor = (since: number | null) => (since === null ? 0 : now - since);
    if (failingFor(state.readFailingSince) > LIVE_FAILING_MS)
      return { ok: false, detail: 'reading live events has been failing' };
    if (failingFor(state.listenLostSince) > LIVE_FAILING_MS)
      return { ok: false, detail: 'the LISTEN connection has been down' };
    return { ok: true, detail: `${state.streams} streams open` };
  }

  return {
    async check() {
      const checks: Partial<Record<ReadinessPart, Check>> = {};
      const phase = deps.lifecycle.phase;
      checks.lifecycle =
        phase === 'ready'
          ? { ok: true, detail: 'serving' }
          : { ok: false, detail: phase === 'starting' ? 'starting' : 'stopping' };
      checks.database = await database();
      if (checks.database.ok) {
        for (const [part, run] of [
          ['migrations', migrations],
          ['outbox', outbox],
        ] as const) {
          checks[part] = await run().catch((error: unknown) => {
            log.warn({ err: error, part }, 'readiness check failed');
            return { ok: false, detail: 'could not be checked' };
          });
        }
      }
      // Without a database, the parts read from it are left out rather than failed with it.
      checks.live = live();
      // Object.keys answers string[]; checks holds only ReadinessPart keys, set one by one above.
      const failing = (Object.keys(checks) as ReadinessPart[]).filter((part) => !checks[part]?.ok);
      return {
        ready: failing.length === 0,
        failing,
        checks,
        message:
          failing.length === 0
            ? 'ready'
            : `not ready: ${failing.map((part) => `${part} ${checks[part]?.detail}`).join('; ')}`,
      };
    },
  };
}
