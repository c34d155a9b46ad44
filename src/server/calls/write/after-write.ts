/**
 * Everything that follows a write to `calls`, in one list, run in the write's own transaction so a
 * call is stored together with all that is derived from it, or not at all. The calls store
 * (calls-repository.ts) only writes `calls` and tells this module what it wrote; nothing else
 * writes derived data behind its back.
 *
 * In order:
 *   0. classify: before a row is stored, its outcome and attention reasons are computed from the
 *      client's outcome set (they are columns of the row, so the sums stay exact);
 *   1. rollups: 15-minute buckets, local days, and the agency's running totals (agency/client-days);
 *   2. live events: what open dashboards are told (live/);
 *   3. alerts: e-mail, SMS and webhook messages queued in the outbox (notifications/call-alerts);
 *      each call goes with how it arrived, since only a delivery as it happens may alert a person.
 * A new step goes here, in its place in the list, and nowhere else.
 */
import type { Kysely } from 'kysely';
import { timeZoneOf, timeZonesOf } from '../../clients/clients-repository';
import type { CallRow, CallSource, Database, NewCallRow } from '../../db/schema';
import { LiveEvents } from '../../live/live-events';
import { enqueueCallAlerts, type WrittenCall } from '../../notifications/call-alerts';
import { classifyRow } from '../../outcomes/classify-row';
import { DEFAULT_OUTCOME_SET, type OutcomeSet, outcomeSetsOf } from '../../outcomes/outcomes-repository';
import { RollupDeltas } from './rollups';

/** A client whose calls are written; its time zone is read from the database when not given. */
export interface WrittenFor {
  id: string;
  timezone?: string;
}

/** A change a notification could be about: finished, confirmed, needing a person, or a new outcome. */
function worthTelling(before: CallRow, after: CallRow): boolean {
  return (
    before.status !== after.status ||
    before.verified !== after.verified ||
    before.attention_reasons !== after.attention_reasons ||
    before.outcome !== after.outcome
  );
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];

/** The steps' inputs for one transaction, and what they are told as calls are written. */
export class AfterCallsWrite {
  private readonly live = new LiveEvents();
  /** Calls new or changed in a way a notification is about (see call-alerts.ts). */
  private readonly alerts: WrittenCall[] = [];

  private constructor(
    private readonly rollups: RollupDeltas,
    private readonly outcomeSets: Map<string, OutcomeSet>,
  ) {}

  /** Before calls of these clients are stored: reads their time zones and outcome sets. */
  static async forCalls(trx: Kysely<Database>, owners: WrittenFor[]): Promise<AfterCallsWrite> {
    const zones = new Map<string, string>();
    for (const owner of owners) if (owner.timezone) zones.set(owner.id, owner.timezone);
    const missing = unique(owners.map((o) => o.id)).filter((id) => !zones.has(id));
    for (const [id, zone] of await timeZonesOf(trx, missing)) zones.set(id, zone);
    const rollups = new RollupDeltas((clientId) => zones.get(clientId) ?? 'UTC');
    // Each call takes its client's outcome set as it is stored, so the outcome sums stay exact.
    const outcomeSets = await outcomeSetsOf(
      trx,
      owners.map((o) => o.id),
    );
    return new AfterCallsWrite(rollups, outcomeSets);
  }

  /** After one client's calls were removed or renamed (no classification, no alerts). */
  static async forClient(trx: Kysely<Database>, clientId: string): Promise<AfterCallsWrite> {
    return new AfterCallsWrite(RollupDeltas.forClient(await timeZoneOf(trx, clientId)), new Map());
  }

  /** Step 0: the row with its outcome columns, as it is to be stored. */
  classify<T extends NewCallRow | CallRow>(row: T): T {
    const set = this.outcomeSets.get(row.client_id) ?? DEFAULT_OUTCOME_SET;
    // classifyRow reads only columns a NewCallRow has too
    return { ...row, ...classifyRow(row as CallRow, set) };
  }

  /** `arrival`: how this write came, a provider's delivery, a sync or a sample (call-alerts.ts). */
  created(row: CallRow, arrival: CallSource): void {
    this.alerts.push({ row, arrival });
    this.rollups.add(row, 1);
    this.live.call(row, 'created');
  }

  updated(before: CallRow, after: CallRow, arrival: CallSource): void {
    this.rollups.add(before, -1);
    this.rollups.add(after, 1);
    this.live.call(after, before.verified === 0 ? 'created' : 'updated');
    // A call a provider announced as it happened, confirmed later by a sync, arrived by its webhook.
    const announced = before.verified === 0 && before.source === 'webhook';
    if (worthTelling(before, after))
      this.alerts.push({ row: after, arrival: announced ? 'webhook' : arrival });
  }

  deleted(row: CallRow): void {
    this.rollups.add(row, -1);
    this.live.call(row, 'deleted');
  }

  /** Many of one client's calls at once: dashboards reload rather than hear of each. */
  deletedMany(clientId: string, rows: CallRow[]): void {
    for (const row of rows) this.rollups.add(row, -1);
    this.live.refresh(clientId, 'calls deleted');
  }

  /**
   * An earlier call measured for the first time (the quality backfill): its rollups and its
   * Needs-attention reasons change, but nobody is told of an old call as if it were news.
   */
  remeasured(before: CallRow, after: CallRow): void {
    this.rollups.add(before, -1);
    this.rollups.add(after, 1);
  }

  /** A pathway's name filled in: only the rollups (which group by pathway) change. */
  renamed(before: CallRow, after: CallRow): void {
    this.rollups.add(before, -1);
    this.rollups.add(after, 1);
  }

  /** Steps 1 to 3, in order, in the write's transaction. `clock` is what events and messages are timed by. */
  async run(trx: Kysely<Database>, clock: () => number): Promise<void> {
    await this.rollups.apply(trx);
    await this.live.apply(trx, clock());
    // Messages about these calls are queued in this transaction: stored and told, or neither.
    await enqueueCallAlerts(trx, this.alerts, this.outcomeSets, clock());
  }
}
