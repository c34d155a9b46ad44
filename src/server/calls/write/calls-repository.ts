/**
 * The calls store: the only code that writes the `calls` table, and all it does is write calls.
 * Calls arrive by webhook, by sync and as samples; all converge here, keyed by (client, provider
 * call id), so a call is never stored twice. What follows a write (classification, rollups, live
 * events, alerts) is listed once in after-write.ts and run in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { insightColumns, mergeInsightColumns } from '../../call-rows/insight-columns';
import { NO_QUALITY, type QualityColumns } from '../../call-rows/quality-columns';
import { isPostgres } from '../../db/dialect';
import type { CallRow, CallSource, CallStatus, Database, NewCallRow } from '../../db/schema';
import { type EffectivePrivacy, loadPrivacyMany } from '../../privacy/privacy-settings';
import { prepareCallForStorage, type RetentionCleared } from '../../privacy/redact-call';
import type { NormalizedCall } from '../../providers/voice/types';
import { deliveredQualityColumns } from '../../quality/call-quality';
import { AfterCallsWrite } from './after-write';
import { storedPayload, withoutCopiedFields } from './stored-payload';

export interface IncomingCall extends NormalizedCall {
  source: CallSource;
  /** The pathway's name when known; the pathway id is used until it is resolved. */
  pathway?: string;
  raw?: unknown;
  /** Announced by a webhook the provider could not confirm yet: kept out of the log and totals. */
  unverified?: boolean;
  /** Set on arrival when the call is already past the client's retention (privacy/redact-call.ts). */
  retentionCleared?: RetentionCleared;
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

export interface UpsertItem {
  client: CallOwner;
  call: IncomingCall;
}
type IndexedItem = UpsertItem & { index: number };
interface CallKey {
  clientId: string;
  providerCallId: string;
}

const keyOf = (clientId: string, providerCallId: string) => `${clientId}\u0000${providerCallId}`;
const unique = <T>(values: T[]): T[] => [...new Set(values)];

/** Cost at the rate in force when the call first arrived: seconds × $/min ÷ 60, in micro-dollars. */
const storedQualityColumns = (row: CallRow): QualityColumns => ({
  quality_json: row.quality_json,
  quality_precision: row.quality_precision,
  quality_latency_p90_ms: row.quality_latency_p90_ms,
  quality_interruptions_caller: row.quality_interruptions_caller,
  quality_dead_air_ms: row.quality_dead_air_ms,
});

export function costMicros(durationSeconds: number, rateCents: number): number {
  return Math.round((durationSeconds * rateCents * 10_000) / 60);
}

/**
 * Status only moves forward (DESIGN §6 [5]): a late or repeated "active" never reopens an ended
 * call, and a delivery whose outcome maps to "unknown" never hides an outcome already known.
 * Between two known outcomes the newer delivery wins.
 */
export function mergeStatus(current: CallStatus, incoming: CallStatus): CallStatus {
  if (incoming === 'active') return current;
  if (incoming === 'unknown' && current !== 'active') return current;
  return incoming;
}

/** `now` is the clock notifications are queued by (tests move it); stored times come from the calls. */
export function createCallsRepository(db: Kysely<Database>, clock: () => number = Date.now) {
  const onPostgres = isPostgres(db);

  async function inTransaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    // A Kysely instance is a Transaction only at run time; isTransaction tells them apart
    if ((db as Transaction<Database>).isTransaction) return fn(db);
    return db.transaction().execute(fn);
  }

  /** Stored rows for these (client, provider call id) pairs; the query may over-fetch, the caller keys exactly. */
  function selectExisting(trx: Kysely<Database>, keys: CallKey[]) {
    const q = trx
      .selectFrom('calls')
      .selectAll()
      .where('client_id', 'in', unique(keys.map((k) => k.clientId)))
      .where('provider_call_id', 'in', unique(keys.map((k) => k.providerCallId)));
    // Row locks serialise a webhook and a sync merging the same call (SQLite serialises writers
    // anyway), taken in key order so two writers of the same calls never wait on each other.
    return (onPostgres ? q.orderBy('client_id').orderBy('provider_call_id').forUpdate() : q).execute();
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
      // An unconfirmed announcement keeps only what settling it needs: the provider's own data
      // replaces it, so a forged delivery cannot fill the database with transcripts and payloads.
      transcript: call.transcript && !call.unverified ? JSON.stringify(call.transcript) : null,
      cost_micros: costMicros(call.durationSeconds, client.per_minute_rate_cents),
      per_minute_rate_cents: client.per_minute_rate_cents,
      is_proxy: call.isProxy ? 1 : 0,
      verified: call.unverified ? 0 : 1,
      source: call.source,
      raw_payload: call.unverified ? null : storedPayload(call.raw),
      updated_at: now,
      // Like the transcript, an unconfirmed announcement's word on the outcome is not kept.
      ...insightColumns(call.unverified ? undefined : call.insights, call.unverified ? null : call.priceUsd),
      transcript_cleared_at: call.retentionCleared?.transcript ? now : null,
      recording_cleared_at: call.retentionCleared?.recording ? now : null,
      ...((call.unverified ? null : deliveredQualityColumns(call)) ?? NO_QUALITY),
    };
  }

  /** The stored row after taking in a newer delivery, or null when nothing changes. */
  function merged(current: CallRow, incoming: IncomingCall, now: number): CallRow | null {
    // An unconfirmed delivery never changes a call the provider confirmed.
    if (incoming.unverified && current.verified === 1) return null;
    // Nor does it bring a transcript or payload to one still unconfirmed (see newRow).
    const call = incoming.unverified ? { ...incoming, transcript: null, raw: undefined } : incoming;
    if (current.verified === 0 && !call.unverified) {
      // The provider's word replaces whatever the unconfirmed delivery claimed.
      const { id, client_id, per_minute_rate_cents } = current;
      const confirmed = newRow({ id: client_id, per_minute_rate_cents }, call, now);
      // The spread of a whole CallRow with the fresh row over it is a full CallRow
      return { ...current, ...confirmed, id, client_id, per_minute_rate_cents, verified: 1 } as CallRow;
    }
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
      raw_payload: stale || call.raw === undefined ? current.raw_payload : storedPayload(call.raw),
      transcript_cleared_at:
        current.transcript_cleared_at ?? (call.retentionCleared?.transcript ? now : null),
      recording_cleared_at: current.recording_cleared_at ?? (call.retentionCleared?.recording ? now : null),
      // Measured again from a delivery with a conversation; a stale one only fills in a lack.
      ...((stale && current.quality_json ? null : deliveredQualityColumns(call)) ??
        storedQualityColumns(current)),
      // A stale snapshot may fill in what is missing but not overwrite what a later one said.
      ...(stale
        ? mergeInsightColumns(insightColumns(call.insights, call.priceUsd), current)
        : mergeInsightColumns(current, insightColumns(call.insights, call.priceUsd))),
    };
    // Object.keys is string[]; `next` is a CallRow, so its keys are CallRow's
    const changed = (Object.keys(next) as (keyof CallRow)[]).some(
      (k) => k !== 'updated_at' && next[k] !== current[k],
    );
    return changed ? { ...next, updated_at: now } : null;
  }

  /**
   * One chunk (no call twice) of calls, of one or many clients: a fixed number of statements
   * whatever the number of clients, plus one update per changed call. `after` is told of each.
   */
  async function upsertChunk(
    trx: Kysely<Database>,
    chunk: IndexedItem[],
    result: UpsertResult,
    after: AfterCallsWrite,
  ) {
    const now = Date.now();
    for (const { index } of chunk) result.outcomes[index] = 'unchanged';
    const keys = chunk.map(({ client, call }) => ({
      clientId: client.id,
      providerCallId: call.providerCallId,
    }));

    // A call the client deleted stays deleted, whatever the provider sends later.
    const deleted = new Set(
      (
        await trx
          .selectFrom('deleted_calls')
          .select(['client_id', 'provider_call_id'])
          .where('client_id', 'in', unique(keys.map((k) => k.clientId)))
          .where('provider_call_id', 'in', unique(keys.map((k) => k.providerCallId)))
          .execute()
      ).map((r) => keyOf(r.client_id, r.provider_call_id)),
    );
    const items = chunk.filter(({ client, call }) => !deleted.has(keyOf(client.id, call.providerCallId)));
    if (items.length === 0) return;
    const rowKey = (r: Pick<CallRow, 'client_id' | 'provider_call_id'>) =>
      keyOf(r.client_id, r.provider_call_id);
    const itemKey = (i: UpsertItem) => keyOf(i.client.id, i.call.providerCallId);
    const indexOf = new Map(items.map((i) => [itemKey(i), i.index]));
    const wanted = new Set(items.map(itemKey));
    const existing = new Map<string, CallRow>();
    const remember = (rows: CallRow[]) => {
      for (const r of rows) if (wanted.has(rowKey(r))) existing.set(rowKey(r), r);
    };
    remember(await selectExisting(trx, keys));

    // In key order: two transactions inserting the same new calls (a webhook and a sync, in any
    // order) then wait on the unique index in the same order, so neither deadlocks the other.
    const fresh = items
      .filter((i) => !existing.has(itemKey(i)))
      .map((i) => after.classify(newRow(i.client, i.call, now)))
      .sort((a, b) => (rowKey(a) < rowKey(b) ? -1 : rowKey(a) > rowKey(b) ? 1 : 0));
    if (fresh.length > 0) {
      const inserted = await trx
        .insertInto('calls')
        .values(fresh)
        .onConflict((oc) => oc.columns(['client_id', 'provider_call_id']).doNothing())
        .returning(['client_id', 'provider_call_id'])
        .execute();
      const insertedKeys = new Set(inserted.map(rowKey));
      for (const row of fresh) {
        if (!insertedKeys.has(rowKey(row))) continue;
        // Once inserted, the fresh row is a stored CallRow (newRow set every column)
        after.created(row as CallRow, row.source);
        result.created++;
        result.outcomes[indexOf.get(rowKey(row))!] = 'created';
      }
      // Lost a race with a concurrent writer: those rows exist now, so merge into them instead.
      const raced = fresh
        .filter((r) => !insertedKeys.has(rowKey(r)))
        .map((r) => ({ clientId: r.client_id, providerCallId: r.provider_call_id }));
      if (raced.length > 0) remember(await selectExisting(trx, raced));
    }

    for (const item of items) {
      const current = existing.get(itemKey(item));
      if (!current) continue;
      const mergedRow = merged(current, item.call, now);
      if (!mergedRow) continue;
      const next = after.classify(mergedRow);
      const { id, client_id, ...changes } = next;
      await trx
        .updateTable('calls')
        .set(changes)
        .where('id', '=', id)
        .where('client_id', '=', client_id)
        .execute();
      after.updated(current, next, item.call.source);
      result.updated++;
      result.outcomes[item.index] = 'updated';
    }
  }

  /** Chunks of at most CHUNK calls in which no call appears twice: repeats merge in order, as two deliveries would. */
  function chunked(items: IndexedItem[]): IndexedItem[][] {
    const chunks: IndexedItem[][] = [];
    let chunk: IndexedItem[] = [];
    let seen = new Set<string>();
    for (const item of items) {
      const key = keyOf(item.client.id, item.call.providerCallId);
      if (seen.has(key) || chunk.length >= CHUNK) {
        chunks.push(chunk);
        chunk = [];
        seen = new Set();
      }
      chunk.push(item);
      seen.add(key);
    }
    if (chunk.length) chunks.push(chunk);
    return chunks;
  }

  /**
   * Every call is made fit to store first, outside any transaction (redaction reads each text
   * once): its client's redaction categories applied, and what retention already removed left
   * out; a call past the client's whole-call retention is not stored ('unchanged').
   */
  async function prepared(
    items: UpsertItem[],
    loaded?: Map<string, EffectivePrivacy>,
  ): Promise<IndexedItem[]> {
    const privacy =
      loaded ??
      (await loadPrivacyMany(
        db,
        items.map((i) => i.client.id),
      ));
    const now = clock();
    const out: IndexedItem[] = [];
    for (const [index, item] of items.entries()) {
      const incoming = item.call.raw ? { ...item.call, raw: withoutCopiedFields(item.call.raw) } : item.call;
      const call = prepareCallForStorage(incoming, privacy.get(item.client.id)!, now);
      if (call) out.push({ client: item.client, call, index });
    }
    return out;
  }

  /**
   * `privacy`: the clients' settings, when the caller read them before opening the transaction it
   * passes as `db` (a transaction's reads are not cached: measured, reading and parsing
   * them per webhook batch). Each item's client must be in it.
   */
  async function upsertMany(
    items: UpsertItem[],
    privacy?: Map<string, EffectivePrivacy>,
  ): Promise<UpsertResult> {
    const result: UpsertResult = { created: 0, updated: 0, outcomes: items.map(() => 'unchanged') };
    const chunks = chunked(await prepared(items, privacy));
    if (chunks.length === 0) return result;
    // One transaction and one after-write for all the chunks (a sync's page of a thousand calls):
    // the rollups and running totals are written once, netted over the page, and committed once
    // (a commit and a set of rollup statements per 200 calls made a sync slow).
    await inTransaction(async (trx) => {
      const after = await AfterCallsWrite.forCalls(
        trx,
        chunks.flat().map((i) => i.client),
      );
      for (const chunk of chunks) await upsertChunk(trx, chunk, result, after);
      await after.run(trx, clock);
    });
    return result;
  }

  return {
    upsertCalls(client: CallOwner, calls: IncomingCall[]): Promise<UpsertResult> {
      return upsertMany(calls.map((call) => ({ client, call })));
    },

    /** Calls of several clients at once (webhook group commit); outcomes follow the given order. */
    upsertMany,

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
        const after = await AfterCallsWrite.forClient(trx, clientId);
        after.deleted(row);
        await after.run(trx, clock);
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
        const after = await AfterCallsWrite.forClient(trx, clientId);
        after.deletedMany(clientId, rows);
        await after.run(trx, clock);
        return rows.length;
      });
    },

    /** A client's calls still waiting for the provider's confirmation, oldest first. */
    listUnverified(clientId: string, limit: number): Promise<CallRow[]> {
      return db
        .selectFrom('calls')
        .selectAll()
        .where('client_id', '=', clientId)
        .where('verified', '=', 0)
        .orderBy('updated_at')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /**
     * Drops unconfirmed calls (never in rollups, so nothing else changes): one the provider says it
     * never made, or announcements nobody confirmed by `updatedBefore`. A row confirmed meanwhile
     * (verified = 1) is left alone.
     */
    async deleteUnverified(filter: {
      clientId?: string;
      ids?: string[];
      updatedBefore?: number;
    }): Promise<number> {
      if (filter.ids?.length === 0) return 0;
      let query = db.deleteFrom('calls').where('verified', '=', 0);
      if (filter.clientId !== undefined) query = query.where('client_id', '=', filter.clientId);
      if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids);
      if (filter.updatedBefore !== undefined) query = query.where('updated_at', '<', filter.updatedBefore);
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows);
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
        const rows = await (onPostgres ? select.forUpdate() : select).execute();
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
        const after = await AfterCallsWrite.forClient(trx, clientId);
        for (const row of rows) after.renamed(row, { ...row, pathway: name });
        await after.run(trx, clock);
      });
    },
  };
}

export type CallsRepository = ReturnType<typeof createCallsRepository>;
