/**
 * Re-redacting a client's stored calls after it turned a redaction category on: every
 * text a call holds (transcript, summary, error, analysis, variables, the stored payload), the
 * search index with them (the database rebuilds a call's entry when its texts change), and the
 * delivery log's kept bodies. The client's walk over its calls (background/client-walk.ts: in
 * batches, under a lease so two instances never run it at once, progress shown as GET
 * /api/client/privacy's `reRedaction`), the event loop let turn between slices as the outcomes'
 * re-classification does.
 */
import type { Kysely } from 'kysely';
import type { ReRedaction } from '../../contract/privacy';
import { pendingWalks, runClientWalk, walkState } from '../background/client-walk';
import { PERSONAL_TEXT_COLUMNS, type PersonalTexts, rewriteCallTexts } from '../calls/write/personal-data';
import type { Database } from '../db/schema';
import { createWorkSlices, nextBatchSize } from '../http/work-slices';
import { loadPrivacy, redactionOptionsOf } from './privacy-settings';
import { redactJsonText } from './redact-call';
import { type RedactionOptions, redactText } from './redaction';

const FIRST_BATCH = 50;
const MAX_BATCH = 500;
const BATCH_BYTES = 2_000_000;

/** A stored transcript ([{role, text, …}]) with each line's text redacted, its shape kept. */
function redactTranscript(text: string | null, options: RedactionOptions): string | null {
  return redactJsonText(text, options);
}

/** One call's stored texts redacted; null when nothing changed. */
export function redactStoredTexts(
  row: PersonalTexts & { from_number: string; to_number: string },
  base: Omit<RedactionOptions, 'keepNumbers'>,
  keepCallerNumber = true,
): PersonalTexts | null {
  const own = keepCallerNumber ? [row.from_number, row.to_number].filter(Boolean) : [];
  const options = { ...base, keepNumbers: own };
  const next: PersonalTexts = {
    transcript: redactTranscript(row.transcript, options),
    summary: row.summary && redactText(row.summary, options).text,
    error_message: row.error_message && redactText(row.error_message, options).text,
    analysis_json: redactJsonText(row.analysis_json, options),
    variables_json: redactJsonText(row.variables_json, options),
    raw_payload: redactJsonText(row.raw_payload, options),
  };
  return PERSONAL_TEXT_COLUMNS.some((c) => next[c] !== row[c]) ? next : null;
}

/** Clients with a re-redaction asked for and not finished. */
export async function pendingReRedactions(db: Kysely<Database>): Promise<string[]> {
  return pendingWalks(db, 're-redact');
}

/**
 * Runs to the end unless another instance holds the lease (then answers false at once). A category
 * turned on during the run asks for the walk again, so the run goes round once more.
 */
export async function reRedactClient(
  db: Kysely<Database>,
  clientId: string,
  now: () => number = Date.now,
): Promise<boolean> {
  const privacy = await loadPrivacy(db, clientId);
  const { keepNumbers: _none, ...base } = redactionOptionsOf(privacy);
  const slices = createWorkSlices();
  return runClientWalk(
    db,
    clientId,
    're-redact',
    {
      resume: false,
      firstBatch: FIRST_BATCH,
      async count() {
        const { total } = await db
          .selectFrom('calls')
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .where('client_id', '=', clientId)
          .executeTakeFirstOrThrow();
        return Number(total);
      },
      read: (after, limit) =>
        db
          .selectFrom('calls')
          .select(['id', 'from_number', 'to_number', ...PERSONAL_TEXT_COLUMNS])
          .where('client_id', '=', clientId)
          .where('id', '>', after)
          .orderBy('id')
          .limit(limit)
          .execute(),
      async handle(rows) {
        const changed: ({ id: string } & PersonalTexts)[] = [];
        let bytes = 0;
        for (const row of rows) {
          bytes += PERSONAL_TEXT_COLUMNS.reduce((n, c) => n + (row[c]?.length ?? 0), 0);
          await slices.pause();
          const next = redactStoredTexts(row, base, privacy.keepCallerNumber);
          if (next) changed.push({ id: row.id, ...next });
        }
        await rewriteCallTexts(db, clientId, changed);
        return nextBatchSize(rows.length, bytes, BATCH_BYTES, MAX_BATCH);
      },
      finish: () => reRedactDeliveryBodies(db, clientId, base),
    },
    now,
  );
}

/**
 * The delivery log's kept bodies of the client (refused and unconfirmed deliveries). A redacted
 * body no longer matches its signature, so its signature headers go with it: such a delivery is
 * read, not replayed (the next sync settles the call from the provider's own copy).
 */
async function reRedactDeliveryBodies(
  db: Kysely<Database>,
  clientId: string,
  base: Omit<RedactionOptions, 'keepNumbers'>,
): Promise<void> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'raw_body'])
    .where('client_id', '=', clientId)
    .where('raw_body', 'is not', null)
    .execute();
  for (const row of rows) {
    const body = redactJsonText(row.raw_body, { ...base, keepNumbers: [] });
    if (body === row.raw_body) continue;
    await db
      .updateTable('webhook_deliveries')
      .set({ raw_body: body, signature_headers: null })
      .where('id', '=', row.id)
      .execute();
  }
}

/** Running while a run is asked for or holds the lease; done once one ended. */
export async function reRedactionOf(
  db: Kysely<Database>,
  clientId: string,
  now: number = Date.now(),
): Promise<ReRedaction> {
  const walk = await walkState(db, clientId, 're-redact', now);
  if (!walk) return { state: 'idle', done: 0, total: 0 };
  const { done, total } = walk;
  if (walk.finishedAt === null) return { state: 'running', done, total };
  return { state: total > 0 ? 'done' : 'idle', done, total };
}
