/**
 * The only code that writes the `calls` table. Calls arrive by webhook, by sync and as samples;
 * all converge here, keyed by (client, provider call id), so a call is never stored twice and
 * rollups stay exact (same transaction as the write).
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, PostgresAdapter, type Transaction } from 'kysely';
import type { CallRow, CallSource, CallStatus, Database, NewCallRow } from '../db/schema';
import type { NormalizedCall } from '../providers/voice/types';
import { RollupDeltas } from './rollups';

export interface IncomingCall extends NormalizedCall {
  source: CallSource;
  /** The pathway's name when known; the pathway id is used until it is resolved. */
  pathway?: string;
  raw?: unknown;
}

/** What one incoming call did: stored as new, changed a stored call, or changed nothing. */
export type CallOutcome = 'created' | 'updated' | 'unchanged';

export interface UpsertResult {
  created: number;
  updated: number;
  /** One per incoming call, in the order given. */
  outcomes: CallOutcome[];
}

export interface CallOwner {
  id: string;
  per_minute_rate_cents: number;
  /** The client's time zone (daily rollups); read from the database when not given. */
  timezone?: string;
}

const CHUNK = 200;

/** Cost at the rate in force when the call first arrived: seconds × $/min ÷ 60, in micro-dollars. */
export function costMicros(durationSeconds: number, rateCents: number): number {
  return Math.round((durationSeconds * rateCents * 10_000) / 60);
}

/** Status only moves forward: a late or repeated "active" never reopens a finished call. */
export function mergeStatus(current: CallStatus, incoming: CallStatus): CallStatus {
  return current !== 'active' && incoming === 'active' ? current : incoming;
}

export function createCallsRepository(db: Kysely<Database>) {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  async function timeZoneOf(trx: Kysely<Database>, clientId: string): Promise<string> {
    const row = await trx
      .selectFrom('clients')
      .select('timezone')
      .where('id', '=', clientId)
      .executeTakeFirst();
    return row?.timezone ?? 'UTC';
  }

  async function inTransaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    if ((db as Transaction<Database>).isTransaction) return fn(db);
    return db.transaction().execute(fn);
  }

  function selectExisting(trx: Kysely<Database>, clientId: string, providerIds: string[]) {
    const q = trx
      .selectFrom('calls')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('provider_call_id', 'in', providerIds);
    // Row locks serialise a webhook and a sync merging the same call (SQLite serialises writers anyway).
    return (isPostgres ? q.forUpdate() : q).execute();
  }

  function newRow(client: CallOwner, call: IncomingCall, now: number): NewCallRow {
    return {
      id: randomUUID(),
      client_id: client.id,
      provider_call_id: call.providerCallId,
      from_number: call.fromNumber,
      to_number: call.toNumber,
      duration_seconds: call.durationSeconds,
      status: call.status,
      pathway: call.pathway ?? call.pathwayId ?? '',
      pathway_id: call.pathwayId,
      created_at: call.createdAt,
      recording_url: call.recordingUrl,
      transcript: call.transcript ? JSON.stringify(call.transcript) : null,
      cost_micros: costMicros(call.durationSeconds, client.per_minute_rate_cents),
      per_minute_rate_cents: client.per_minute_rate_cents,
      is_proxy: call.isProxy ? 1 : 0,
      source: call.source,
      raw_payload: call.raw === undefined ? null : JSON.stringify(call.raw),
      updated_at: now,
    };
  }

  /** The stored row after taking in a newer delivery, or null when nothing changes. */
  function merged(current: CallRow, call: IncomingCall, now: number): CallRow | null {
    const status = mergeStatus(current.status, call.status);
    // A stale snapshot (still "active") may only fill in what we lack.
    const stale = status !== call.status;
    const duration = stale ? current.duration_seconds : call.durationSeconds;
    const next: CallRow = {
      ...current,
      status,
      from_number: stale ? current.from_number : call.fromNumber || current.from_number,
      to_number: stale ? current.to_number : call.toNumber || current.to_number,
      duration_seconds: duration,
      pathway:
        stale && current.pathway ? current.pathway : (call.pathway ?? call.pathwayId ?? current.pathway),
      pathway_id: call.pathwayId ?? current.pathway_id,
      created_at: stale ? current.created_at : call.createdAt,
      recording_url: (stale ? current.recording_url : null) ?? call.recordingUrl ?? current.recording_url,
      transcript:
        (stale ? current.transcript : null) ??
        (call.transcript ? JSON.stringify(call.transcript) : current.transcript),
      cost_micros: costMicros(duration, current.per_minute_rate_cents),
      is_proxy: call.isProxy || current.is_proxy ? 1 : 0,
      raw_payload: stale || call.raw === undefined ? current.raw_payload : JSON.stringify(call.raw),
    };
    const changed = (Object.keys(next) as (keyof CallRow)[]).some(
      (k) => k !== 'updated_at' && next[k] !== current[k],
    );
    return changed ? { ...next, updated_at: now } : null;
  }

  async function upsertChunk(
    trx: Kysely<Database>,
    client: CallOwner,
    indexed: { call: IncomingCall; index: number }[],
    result: UpsertResult,
  ) {
    const batch = indexed.map((i) => i.call);
    for (const { index } of indexed) result.outcomes[index] = 'unchanged';
    const indexOf = new Map(indexed.map((i) => [i.call.providerCallId, i.index]));
    const now = Date.now();
    const rollups = new RollupDeltas(client.timezone ?? (await timeZoneOf(trx, client.id)));
    // A call the client deleted stays deleted, whatever the provider sends later.
    const deleted = new Set(
      (
        await trx
          .selectFrom('deleted_calls')
          .select('provider_call_id')
          .where('client_id', '=', client.id)
          .where(
            'provider_call_id',
            'in',
            batch.map((c) => c.providerCallId),
          )
          .execute()
      ).map((r) => r.provider_call_id),
    );
    const calls = deleted.size > 0 ? batch.filter((c) => !deleted.has(c.providerCallId)) : batch;
    if (calls.length === 0) return;
    const ids = calls.map((c) => c.providerCallId);
    const existing = new Map((await selectExisting(trx, client.id, ids)).map((r) => [r.provider_call_id, r]));

    const fresh = calls.filter((c) => !existing.has(c.providerCallId)).map((c) => newRow(client, c, now));
    if (fresh.length > 0) {
      const inserted = await trx
        .insertInto('calls')
        .values(fresh)
        .onConflict((oc) => oc.columns(['client_id', 'provider_call_id']).doNothing())
        .returning('provider_call_id')
        .execute();
      const insertedIds = new Set(inserted.map((r) => r.provider_call_id));
      for (const row of fresh) {
        if (insertedIds.has(row.provider_call_id)) {
          rollups.add(row as CallRow, 1);
          result.created++;
          result.outcomes[indexOf.get(row.provider_call_id)!] = 'created';
        }
      }
      // Lost a race with a concurrent writer: those rows exist now, so merge into them instead.
      const raced = fresh.filter((r) => !insertedIds.has(r.provider_call_id)).map((r) => r.provider_call_id);
      if (raced.length > 0)
        for (const row of await selectExisting(trx, client.id, raced))
          existing.set(row.provider_call_id, row);
    }

    for (const call of calls) {
      const current = existing.get(call.providerCallId);
      if (!current) continue;
      const next = merged(current, call, now);
      if (!next) continue;
      const { id, client_id, ...changes } = next;
      await trx
        .updateTable('calls')
        .set(changes)
        .where('id', '=', id)
        .where('client_id', '=', client_id)
        .execute();
      rollups.add(current, -1);
      rollups.add(next, 1);
      existing.set(call.providerCallId, next);
      result.updated++;
      result.outcomes[indexOf.get(call.providerCallId)!] = 'updated';
    }
    await rollups.apply(trx);
  }

  return {
    async upsertCalls(client: CallOwner, calls: IncomingCall[]): Promise<UpsertResult> {
      // The same call twice in one batch: merge in order, as two deliveries would be.
      const result: UpsertResult = { created: 0, updated: 0, outcomes: [] };
      const batches: { call: IncomingCall; index: number }[][] = [];
      let batch: { call: IncomingCall; index: number }[] = [];
      let seen = new Set<string>();
      for (const [index, call] of calls.entries()) {
        if (seen.has(call.providerCallId) || batch.length >= CHUNK) {
          batches.push(batch);
          batch = [];
          seen = new Set();
        }
        batch.push({ call, index });
        seen.add(call.providerCallId);
      }
      if (batch.length) batches.push(batch);
      for (const b of batches) await inTransaction((trx) => upsertChunk(trx, client, b, result));
      return result;
    },

    async deleteCall(clientId: string, callId: string): Promise<boolean> {
      return inTransaction(async (trx) => {
        // RETURNING, not a read first: of two racing deletes only the one that removed the row
        // takes it out of the rollups.
        const row = await trx
          .deleteFrom('calls')
          .where('id', '=', callId)
          .where('client_id', '=', clientId)
          .returningAll()
          .executeTakeFirst();
        if (!row) return false;
        await trx
          .insertInto('deleted_calls')
          .values({ client_id: clientId, provider_call_id: row.provider_call_id, deleted_at: Date.now() })
          .onConflict((oc) => oc.columns(['client_id', 'provider_call_id']).doNothing())
          .execute();
        const rollups = new RollupDeltas(await timeZoneOf(trx, clientId));
        rollups.add(row, -1);
        await rollups.apply(trx);
        return true;
      });
    },

    /**
     * Deletes a client's calls created before a time and/or from some sources, rollups included
     * (the demo tenant's ageing, and its switch between generated and provider calls).
     */
    async deleteCalls(
      clientId: string,
      filter: { createdBefore?: number; sources?: CallSource[] },
    ): Promise<number> {
      return inTransaction(async (trx) => {
        let query = trx.deleteFrom('calls').where('client_id', '=', clientId);
        if (filter.createdBefore !== undefined) query = query.where('created_at', '<', filter.createdBefore);
        if (filter.sources) query = query.where('source', 'in', filter.sources);
        const rows = await query.returningAll().execute();
        if (rows.length === 0) return 0;
        const rollups = new RollupDeltas(await timeZoneOf(trx, clientId));
        for (const row of rows) rollups.add(row, -1);
        await rollups.apply(trx);
        return rows.length;
      });
    },

    findCall(clientId: string, callId: string): Promise<CallRow | undefined> {
      return db
        .selectFrom('calls')
        .selectAll()
        .where('id', '=', callId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
    },

    /** Fills in a pathway's name on the calls that still show its id. */
    async renamePathway(clientId: string, pathwayId: string, name: string): Promise<void> {
      await inTransaction(async (trx) => {
        const select = trx
          .selectFrom('calls')
          .selectAll()
          .where('client_id', '=', clientId)
          .where('pathway_id', '=', pathwayId)
          .where('pathway', '!=', name);
        // Locked, so a concurrent rename waits and then no longer sees these rows.
        const rows = await (isPostgres ? select.forUpdate() : select).execute();
        if (rows.length === 0) return;
        // Exactly the rows read above: one inserted since then is not in the rollup deltas.
        for (let i = 0; i < rows.length; i += CHUNK) {
          const ids = rows.slice(i, i + CHUNK).map((r) => r.id);
          await trx
            .updateTable('calls')
            .set({ pathway: name })
            .where('client_id', '=', clientId)
            .where('id', 'in', ids)
            .execute();
        }
        const rollups = new RollupDeltas(await timeZoneOf(trx, clientId));
        for (const row of rows) {
          rollups.add(row, -1);
          rollups.add({ ...row, pathway: name }, 1);
        }
        await rollups.apply(trx);
      });
    },
  };
}

export type CallsRepository = ReturnType<typeof createCallsRepository>;
