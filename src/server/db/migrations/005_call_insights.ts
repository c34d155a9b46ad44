/**
 * What the provider says each call achieved: summary, who answered, who ended it, the
 * error, the post-call tag, analysis and variables, and the provider's price (the agency's cost,
 * apart from the client's bill). Existing calls are filled in from their stored payloads, in
 * batches, so no re-sync is needed.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';

const TEXT_COLUMNS = [
  'summary',
  'answered_by',
  'call_ended_by',
  'error_message',
  'disposition_tag',
  'analysis_json',
  'variables_json',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of TEXT_COLUMNS) {
    await db.schema.alterTable('calls').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('calls').addColumn('provider_price_micros', 'bigint').execute();
  await backfillCallInsights(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [...TEXT_COLUMNS, 'provider_price_micros']) {
    await db.schema.alterTable('calls').dropColumn(column).execute();
  }
}

/*
 * Frozen copy, 2026-11-27, of what this migration ran from the app: `backfillCallInsights`
 * (calls/write/insights-backfill.ts, since removed: nothing else ran it), reading Bland's payload with `blandCallSchema` and
 * `mapBlandInsights` (providers/voice/bland-payload.ts, with the field readers of
 * payload-fields.ts) into `insightColumns` (calls/write/insight-columns.ts). A migration must do
 * forever what it did when it first ran, so it imports nothing from the app: a later change to how
 * payloads are read is a new migration, never an edit here. Trimmed to what the backfill reaches;
 * otherwise as it was.
 */

/** The calls columns this backfill reads and writes, as this migration leaves them. */
interface Tables {
  calls: {
    id: string;
    raw_payload: string | null;
    summary: string | null;
    answered_by: string | null;
    call_ended_by: string | null;
    error_message: string | null;
    disposition_tag: string | null;
    analysis_json: string | null;
    variables_json: string | null;
    provider_price_micros: number | null;
  };
}

const BATCH = 500;

/** Exported for tests/api/call-insights.test.ts, which runs it on calls stored without insights. */
export async function backfillCallInsights(anyDb: Kysely<unknown>): Promise<number> {
  // The frozen copy below reads and writes these tables as they were at this migration.
  const db = anyDb as unknown as Kysely<Tables>;
  let after = '';
  let filled = 0;
  for (;;) {
    const rows = await db
      .selectFrom('calls')
      .select(['id', 'raw_payload'])
      .where('id', '>', after)
      .where('raw_payload', 'is not', null)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return filled;
    after = rows[rows.length - 1].id;
    for (const row of rows) {
      let json: unknown;
      try {
        json = JSON.parse(row.raw_payload ?? '');
      } catch {
        continue;
      }
      const parsed = blandCallSchema.safeParse(json);
      if (!parsed.success) continue;
      const price = parsed.data.price;
      const columns = insightColumns(mapBlandInsights(parsed.data), price ?? null);
      if (Object.values(columns).every((v) => v === null)) continue;
      await db.updateTable('calls').set(columns).where('id', '=', row.id).execute();
      filled++;
    }
  }
}

/* From payload-fields.ts: length caps, numbers and booleans sent as strings, ids, loose fields. */

const LIMITS = {
  id: 200,
  phone: 40,
  url: 2048,
  timestamp: 100,
  shortText: 100,
  transcriptText: 20_000,
  transcriptEntries: 2_000,
  summary: 8_000,
  errorMessage: 2_000,
  tag: 100,
} as const;

const numberLike = (max: number, outOfRange: string) =>
  z.union([z.number(), z.string().trim().max(40)]).transform((value, ctx) => {
    const n = typeof value === 'number' ? value : value === '' ? Number.NaN : Number(value);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'Expected a number' });
      return z.NEVER;
    }
    if (n < 0 || n > max) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: outOfRange });
      return z.NEVER;
    }
    return n;
  });

const MAX_CALL_SECONDS = 24 * 60 * 60;
const MAX_CALL_PRICE_USD = 1_000;

const booleanLike = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');

const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const isProviderId = (value: string) => value.length <= LIMITS.id && PROVIDER_ID.test(value);

const ID_MESSAGE = `Expected an id of letters, digits, '-' and '_', at most ${LIMITS.id} characters`;

const idLike = z
  .union([z.string().trim().min(1).max(LIMITS.id), z.number().int().nonnegative()], {
    errorMap: (_issue, ctx) => ({ message: ctx.data === undefined ? 'Required' : ID_MESSAGE }),
  })
  .transform((v) => String(v))
  .refine(isProviderId, ID_MESSAGE);

const text = (max: number) => z.string().max(max);

const looseText = (max: number) =>
  z
    .unknown()
    .transform((v) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null))
    .optional();

const looseObject = z
  .unknown()
  .transform((v) =>
    // Checked in the same line: a JSON object, not an array.
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null,
  )
  .optional();

/** INSIGHT_JSON_MAX_BYTES of providers/voice/types.ts. */
const INSIGHT_JSON_MAX_BYTES = 8 * 1024;

function boundedObject(value: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!value) return null;
  try {
    return Buffer.byteLength(JSON.stringify(value)) <= INSIGHT_JSON_MAX_BYTES ? value : null;
  } catch {
    return null;
  }
}

/* From bland-payload.ts: the fields of Bland's call object read then, and its insights. */

const blandTranscriptEntrySchema = z.object({
  id: z.union([z.string().max(LIMITS.id), z.number()]).nullish(),
  created_at: text(LIMITS.timestamp).nullish(),
  text: text(LIMITS.transcriptText).nullish(),
  user: text(LIMITS.shortText).nullish(),
});

const blandCallSchema = z.object({
  call_id: idLike,
  to: text(LIMITS.phone).nullish(),
  from: text(LIMITS.phone).nullish(),
  call_length: numberLike(
    MAX_CALL_SECONDS / 60,
    'A call lasts between 0 and 24 hours (1,440 minutes)',
  ).nullish(),
  corrected_duration: numberLike(
    MAX_CALL_SECONDS,
    'A call lasts between 0 and 24 hours (86,400 seconds)',
  ).nullish(),
  created_at: text(LIMITS.timestamp).nullish(),
  started_at: text(LIMITS.timestamp).nullish(),
  completed: booleanLike.nullish(),
  queue_status: text(LIMITS.shortText).nullish(),
  status: text(LIMITS.shortText).nullish(),
  recording_url: text(LIMITS.url).nullish(),
  price: numberLike(MAX_CALL_PRICE_USD, `A call's price is between $0 and $${MAX_CALL_PRICE_USD}`).nullish(),
  pathway_id: z
    .string()
    .trim()
    .max(LIMITS.id)
    .refine((v) => v === '' || isProviderId(v), ID_MESSAGE)
    .nullish(),
  transferred_to: text(LIMITS.phone).nullish(),
  is_proxy_agent_call: booleanLike.nullish(),
  transcripts: z.array(blandTranscriptEntrySchema).max(LIMITS.transcriptEntries).nullish(),
  summary: looseText(LIMITS.summary),
  answered_by: looseText(LIMITS.shortText),
  call_ended_by: looseText(LIMITS.shortText),
  error_message: looseText(LIMITS.errorMessage),
  disposition_tag: looseText(LIMITS.tag),
  analysis: looseObject,
  variables: looseObject,
});
type BlandCallPayload = z.infer<typeof blandCallSchema>;

interface CallInsights {
  summary: string | null;
  answeredBy: string | null;
  endedBy: string | null;
  errorMessage: string | null;
  dispositionTag: string | null;
  analysis: Record<string, unknown> | null;
  variables: Record<string, unknown> | null;
}

function mapBlandInsights(payload: BlandCallPayload): CallInsights {
  const lower = (v: string | null | undefined) => (v ? v.toLowerCase() : null);
  return {
    summary: payload.summary ?? null,
    answeredBy: lower(payload.answered_by),
    endedBy: lower(payload.call_ended_by),
    errorMessage: payload.error_message ?? null,
    dispositionTag: payload.disposition_tag ?? null,
    analysis: boundedObject(payload.analysis),
    variables: boundedObject(payload.variables),
  };
}

/* From insight-columns.ts: a call's insights as the calls columns hold them. */

type InsightColumns = Omit<Tables['calls'], 'id' | 'raw_payload'>;

const json = (value: Record<string, unknown> | null) => (value ? JSON.stringify(value) : null);

function insightColumns(insights: CallInsights | undefined, priceUsd: number | null): InsightColumns {
  return {
    summary: insights?.summary ?? null,
    answered_by: insights?.answeredBy ?? null,
    call_ended_by: insights?.endedBy ?? null,
    error_message: insights?.errorMessage ?? null,
    disposition_tag: insights?.dispositionTag ?? null,
    analysis_json: json(insights?.analysis ?? null),
    variables_json: json(insights?.variables ?? null),
    provider_price_micros: priceUsd === null ? null : Math.round(priceUsd * 1_000_000),
  };
}
