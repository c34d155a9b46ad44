import { pendingWalks, runClientWalk } from '../../background/client-walk';
import { type QualityColumns, qualityColumns } from '../../call-rows/quality-columns';
import { findClient } from '../../clients/clients-repository';
import type { AppDeps } from '../../context';
import type { CallRow } from '../../db/schema';
import type { Job } from '../../http/jobs';
import { createWorkSlices } from '../../http/work-slices';
import { voiceOf } from '../../providers/voice/registry';
import type {
  NormalizedConversation,
  NormalizedTranscriptEntry,
  VoiceProvider,
} from '../../providers/voice/types';
import { endedByOfStored, qualityOfCall } from '../../quality/call-quality';
import { writeMeasuredQuality } from './quality-write';

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

/** Measures one client's earlier calls to the end, unless another instance holds the lease. */
export async function backfillClient(
  deps: Pick<AppDeps, 'db' | 'voices'>,
  clientId: string,
  now: () => number,
): Promise<boolean> {
  const { db } = deps;
  const client = await findClient(db, clientId);
  if (!client) return false;
  const provider = voiceOf(deps.voices, client);
  const slices = createWorkSlices();
  return runClientWalk(
    db,
    clientId,
    'quality-backfill',
    {
      // The total was counted when the backfill was asked for; a run goes on where one stopped.
      resume: true,
      firstBatch: BATCH,
      read: (after, limit) =>
        db
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
          .limit(limit)
          .execute(),
      async handle(rows) {
        const measured: { id: string; columns: QualityColumns }[] = [];
        for (const row of rows) {
          await slices.pause();
          if (row.quality_json !== null) continue;
          const columns = measureStored(row, provider);
          if (columns.quality_json !== null) measured.push({ id: row.id, columns });
        }
        await writeMeasuredQuality(db, clientId, measured, now);
        return undefined;
      },
    },
    now,
  );
}

/** Every client with earlier calls still to measure, one after another. */
export async function runQualityBackfill(deps: Pick<AppDeps, 'db' | 'voices' | 'now'>): Promise<void> {
  for (const clientId of await pendingWalks(deps.db, 'quality-backfill'))
    await backfillClient(deps, clientId, deps.now);
}

export function qualityBackfillJob(deps: AppDeps, onError: (error: unknown) => void): Job {
  return {
    name: 'quality-backfill',
    intervalMs: QUALITY_BACKFILL_INTERVAL_MS,
    runAtStart: true,
    run: () => runQualityBackfill(deps).catch(onError),
  };
}
