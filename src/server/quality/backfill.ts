/**
 * Measures the calls stored before conversation quality existed, from what they kept:
 * the provider's payload where it still holds the timed transcript (Retell's transcript_object,
 * Vapi's artifact), else the stored transcript's lines, which give turns and ended-by (`approx`).
 * One client at a time under a lease (client_quality.backfill_lock_until), so one instance does
 * each; progress in client_quality, shown with the thresholds. Runs in slices (http/work-slices.ts).
 */
import type { Kysely } from 'kysely';
import type { CallRow, Database } from '../db/schema';
import { findClient } from '../clients/clients-repository';
import type { AppDeps } from '../context';
import { writeMeasuredQuality } from '../calls/write/quality-write';
import type { Job } from '../http/jobs';
import { createWorkSlices } from '../http/work-slices';
import { voiceOf } from '../providers/voice/registry';
import type {
  NormalizedConversation,
  NormalizedTranscriptEntry,
  VoiceProvider,
} from '../providers/voice/types';
import { endedByOfStored, qualityOfCall } from './call-quality';
import { type QualityColumns, qualityColumns } from '../call-rows/quality-columns';

const LEASE_MS = 60_000;
const BATCH = 200;
export const QUALITY_BACKFILL_INTERVAL_MS = 60_000;

type Stored = Pick<
  CallRow,
  'id' | 'transcript' | 'raw_payload' | 'duration_seconds' | 'status' | 'call_ended_by'
>;

function jsonOf(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function storedLines(text: string | null): NormalizedTranscriptEntry[] | null {
  const value = jsonOf(text);
  if (!Array.isArray(value)) return null;
  const lines = value.filter(
    (l): l is NormalizedTranscriptEntry => !!l && typeof l === 'object' && typeof l.role === 'string',
  );
  return lines.length > 0 ? lines : null;
}

/** A stored call's quality columns, from its payload's timed lines or else its transcript. */
export function measureStored(row: Stored, provider: VoiceProvider): QualityColumns {
  const reread = provider.readStoredPayload?.(jsonOf(row.raw_payload)) ?? {
    transcript: null,
    conversation: null,
  };
  const call = { durationSeconds: row.duration_seconds, status: row.status };
  if (reread.conversation && reread.conversation.precision !== 'approx' && reread.transcript)
    return qualityColumns(qualityOfCall({ ...call, transcript: reread.transcript }, reread.conversation));
  const conversation: NormalizedConversation = {
    precision: 'approx',
    endedBy: reread.conversation?.endedBy ?? endedByOfStored(row.call_ended_by),
    sentiment: reread.conversation?.sentiment ?? null,
  };
  return qualityColumns(qualityOfCall({ ...call, transcript: storedLines(row.transcript) }, conversation));
}

/** How far measuring a client's earlier calls got; null when there is nothing (more) to measure. */
export async function backfillProgress(
  db: Kysely<Database>,
  clientId: string,
): Promise<{ done: number; total: number } | null> {
  const row = await db
    .selectFrom('client_quality')
    .select(['backfill_done', 'backfill_total', 'backfill_finished_at'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row || row.backfill_finished_at !== null) return null;
  const total = Number(row.backfill_total);
  return { done: Math.min(Number(row.backfill_done), total), total };
}

/** Measures one client's earlier calls to the end, unless another instance holds the lease. */
export async function backfillClient(
  deps: Pick<AppDeps, 'db' | 'voices'>,
  clientId: string,
  now: () => number,
): Promise<boolean> {
  const { db } = deps;
  const taken = await db
    .updateTable('client_quality')
    .set({ backfill_lock_until: now() + LEASE_MS })
    .where('client_id', '=', clientId)
    .where('backfill_finished_at', 'is', null)
    .where((eb) => eb.or([eb('backfill_lock_until', 'is', null), eb('backfill_lock_until', '<', now())]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) return false;
  try {
    const client = await findClient(db, clientId);
    if (!client) return false;
    const provider = voiceOf(deps.voices, client);
    const state = await db
      .selectFrom('client_quality')
      .select(['backfill_after_id', 'backfill_done'])
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow();
    let after = state.backfill_after_id ?? '';
    let done = Number(state.backfill_done);
    const slices = createWorkSlices();
    for (;;) {
      const rows = await db
        .selectFrom('calls')
        .select([
          'id',
          'transcript',
          'raw_payload',
          'duration_seconds',
          'status',
          'call_ended_by',
          'quality_json',
        ])
        .where('client_id', '=', clientId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) break;
      const measured: { id: string; columns: QualityColumns }[] = [];
      for (const row of rows) {
        await slices.pause();
        if (row.quality_json !== null) continue;
        const columns = measureStored(row, provider);
        if (columns.quality_json !== null) measured.push({ id: row.id, columns });
      }
      await writeMeasuredQuality(db, clientId, measured, now);
      after = rows[rows.length - 1]?.id ?? after;
      done += rows.length;
      await db
        .updateTable('client_quality')
        .set({ backfill_after_id: after, backfill_done: done, backfill_lock_until: now() + LEASE_MS })
        .where('client_id', '=', clientId)
        .execute();
    }
    await db
      .updateTable('client_quality')
      .set({ backfill_finished_at: now(), backfill_total: done, backfill_done: done })
      .where('client_id', '=', clientId)
      .execute();
    return true;
  } finally {
    await db
      .updateTable('client_quality')
      .set({ backfill_lock_until: null })
      .where('client_id', '=', clientId)
      .execute();
  }
}

/** Every client with earlier calls still to measure, one after another. */
export async function runQualityBackfill(deps: Pick<AppDeps, 'db' | 'voices' | 'now'>): Promise<void> {
  const pending = await deps.db
    .selectFrom('client_quality')
    .select('client_id')
    .where('backfill_finished_at', 'is', null)
    .execute();
  for (const { client_id } of pending) await backfillClient(deps, client_id, deps.now);
}

export function qualityBackfillJob(deps: AppDeps, onError: (error: unknown) => void): Job {
  return {
    name: 'quality-backfill',
    intervalMs: QUALITY_BACKFILL_INTERVAL_MS,
    runAtStart: true,
    run: () => runQualityBackfill(deps).catch(onError),
  };
}
