/**
 * Retention per client: transcripts (with summaries, analysis, variables and stored
 * payloads), recordings' links, and whole calls, each after its number of days. Run by the privacy
 * job every minute and at once after a change, so a change applies within a minute. Totals,
 * charts, usage and invoices keep their numbers (calls/write/personal-data.ts never touches the
 * rollups). A call arriving already past its time is cut on arrival (privacy/redact-call.ts).
 *
 * Each cut-off applied is remembered (`*_cleared_before`): the next run reads only the calls that
 * have come of age since, not the client's whole history again. Work goes in batches of ids, so
 * one client's million old calls never hold the database in one statement.
 */
import type { Kysely } from 'kysely';
import type { RetentionField } from '../../contract/privacy';
import { claimLease, releaseLease } from '../background/lease';
import {
  clearRecordings,
  clearTranscripts,
  holdsTexts,
  removeCallsKeepingTotals,
} from '../calls/write/personal-data';
import { listClientIds } from '../clients/clients-repository';
import type { Database } from '../db/schema';
import { loadPrivacyMany } from './privacy-settings';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 1_000;

const WATERMARK = {
  transcriptDays: 'transcripts_cleared_before',
  recordingDays: 'recordings_cleared_before',
  callDays: 'calls_cleared_before',
} as const satisfies Record<RetentionField, string>;

export interface RetentionResult {
  transcripts: number;
  recordings: number;
  calls: number;
}

async function ensureRow(db: Kysely<Database>, clientId: string, now: number): Promise<void> {
  await db
    .insertInto('client_privacy')
    .values({ client_id: clientId, settings_json: '{}', updated_at: now })
    .onConflict((oc) => oc.column('client_id').doNothing())
    .execute();
}

/** The ids of a client's calls created in [from, before), a batch at a time, oldest first. */
async function idsIn(
  db: Kysely<Database>,
  clientId: string,
  window: { from: number | null; before: number },
  still?: 'texts' | 'recording',
) {
  const { from, before } = window;
  let q = db
    .selectFrom('calls')
    .select('id')
    .where('client_id', '=', clientId)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(BATCH);
  if (from !== null) q = q.where('created_at', '>=', from);
  // Those already cleared drop out of the next batch's read, so the loop ends.
  if (still === 'recording') q = q.where('recording_url', 'is not', null);
  if (still === 'texts') q = q.where(holdsTexts);
  return (await q.execute()).map((r) => r.id);
}

/** Applies one client's retention; answers what it cleared. */
export async function applyRetention(
  db: Kysely<Database>,
  clientId: string,
  retention: Record<RetentionField, number | null>,
  now: number,
): Promise<RetentionResult> {
  const result: RetentionResult = { transcripts: 0, recordings: 0, calls: 0 };
  if (Object.values(retention).every((d) => d === null)) return result;
  await ensureRow(db, clientId, now);
  const marks = await db
    .selectFrom('client_privacy')
    .select(Object.values(WATERMARK))
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  const windowOf = (field: RetentionField) => {
    const days = retention[field];
    if (days === null) return null;
    const before = now - days * DAY_MS;
    const mark = marks[WATERMARK[field]];
    const from = mark === null ? null : Number(mark);
    return from !== null && from >= before ? null : { from, before };
  };
  const remember = (field: RetentionField, before: number) =>
    db
      .updateTable('client_privacy')
      .set({ [WATERMARK[field]]: before })
      .where('client_id', '=', clientId)
      .execute();

  // Whole calls first: what they remove needs no clearing.
  const calls = windowOf('callDays');
  if (calls) {
    for (;;) {
      const ids = await idsIn(db, clientId, calls);
      if (ids.length === 0) break;
      result.calls += (await removeCallsKeepingTotals(db, clientId, { ids }, now)).length;
    }
    await remember('callDays', calls.before);
  }
  const transcripts = windowOf('transcriptDays');
  if (transcripts) {
    for (;;) {
      const ids = await idsIn(db, clientId, transcripts, 'texts');
      if (ids.length === 0) break;
      result.transcripts += await clearTranscripts(db, clientId, ids, now);
    }
    await remember('transcriptDays', transcripts.before);
  }
  const recordings = windowOf('recordingDays');
  if (recordings) {
    for (;;) {
      const ids = await idsIn(db, clientId, recordings, 'recording');
      if (ids.length === 0) break;
      result.recordings += await clearRecordings(db, clientId, ids, now);
    }
    await remember('recordingDays', recordings.before);
  }
  if (transcripts) {
    // Message copies (their texts are drawn from the call when sent) and the delivery log's kept
    // bodies of that age go too.
    await db
      .deleteFrom('outbox')
      .where('client_id', '=', clientId)
      .where('status', '!=', 'pending')
      .where('created_at', '<', transcripts.before)
      .execute();
    await db
      .updateTable('webhook_deliveries')
      .set({ raw_body: null, signature_headers: null })
      .where('client_id', '=', clientId)
      .where('received_at', '<', transcripts.before)
      .where('raw_body', 'is not', null)
      .execute();
  }
  return result;
}

/** How long one client's sweep by the minute job keeps the others off it. */
const RETENTION_LEASE_MS = 5 * 60_000;

/**
 * Every client's retention (the privacy job, each minute). With `leaseOwner` (the job, run on
 * every instance) each client's sweep holds the lease `retention:{client}` and a client another
 * instance is sweeping is left to it; without (work a change woke), every client is swept.
 */
export async function applyAllRetention(
  db: Kysely<Database>,
  now: number,
  leaseOwner?: string,
): Promise<RetentionResult> {
  const ids = await listClientIds(db);
  const privacy = await loadPrivacyMany(db, ids);
  const total: RetentionResult = { transcripts: 0, recordings: 0, calls: 0 };
  for (const id of ids) {
    const lease = `retention:${id}`;
    if (leaseOwner && !(await claimLease(db, lease, leaseOwner, now, RETENTION_LEASE_MS))) continue;
    try {
      const r = await applyRetention(db, id, privacy.get(id)!.retention, now);
      total.transcripts += r.transcripts;
      total.recordings += r.recordings;
      total.calls += r.calls;
    } finally {
      if (leaseOwner) await releaseLease(db, lease, leaseOwner);
    }
  }
  return total;
}
