/** Calls, call-log queries, stats and chart points (SPEC §3, §7; DESIGN §6). */
import { z } from 'zod';
import {
  ClientIdParam,
  DATE_RANGE_DAYS,
  DATE_RANGES,
  DateRangeQuery,
  IdParam,
  LocalDay,
  PAGE_SIZE,
  Pagination,
  QueryDate,
} from './common';
import {
  CALL_SORTS,
  CALL_STATUSES,
  type CallSort,
  SORT_ORDERS,
  type SortOrder,
  STATUS_FILTERS,
} from './log-options';
import { CallQuality, CallQualityBrief } from './quality';
import { parseSearch } from './search-query';

export {
  CALL_SORTS,
  CALL_STATUSES,
  type CallSort,
  type CallStatus,
  PATHWAYS,
  SORT_ORDERS,
  type SortOrder,
  STATUS_FILTERS,
  type StatusFilter,
} from './log-options';

/** A call as the API shows it. */
export const Call = z.object({
  id: z.string(),
  /**
   * The call's short reference (call-reference.ts: the start of `id`), as the log, the drawer, the
   * e-mails and the webhook events name the call; the log's search finds the call by it.
   */
  reference: z.string(),
  /** The voice provider's own id of the call, the one the client finds in the provider's dashboard. */
  providerCallId: z.string(),
  fromNumber: z.string(),
  toNumber: z.string(),
  /** Seconds. */
  duration: z.number(),
  status: z.enum(CALL_STATUSES),
  pathway: z.string(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  /** Our own download path when the provider has a recording; absent otherwise. */
  recordingUrl: z.string().optional(),
  /** JSON text of an array of transcript entries. */
  transcript: z.string().nullable(),
  /** Dollars. */
  cost: z.number(),
  /** Sample data the client added to try the dashboard: free, and removable together. */
  isSample: z.boolean(),
  /** The client's outcome the call matched ("Other" when none); null until it is classified. */
  outcome: z.string().nullable(),
  /** Whether a person should look at the call ("Needs attention"), until it is handled. */
  needsAttention: z.boolean(),
  /**
   * With a text search: the passage that matched (from the summary or the transcript), in parts,
   * the matching words marked, so no markup travels as text.
   */
  snippet: z.array(z.object({ text: z.string(), match: z.boolean() })).optional(),
  /** How well the agent spoke, in brief for the log; null when the call was not measured. */
  qualityBrief: CallQualityBrief.nullable().optional(),
});
export type Call = z.infer<typeof Call>;
export type SnippetPart = NonNullable<Call['snippet']>[number];

/**
 * GET …/calls/{id}: the call with what the provider says it achieved. Fields are null when the
 * provider never said (older calls, list-only syncs, providers without the feature).
 */
export const CallDetail = Call.extend({
  summary: z.string().nullable(),
  /** human, voicemail, unknown, no-answer, … (lower case, as the provider says). */
  answeredBy: z.string().nullable(),
  /** assistant, user, … (lower case). */
  endedBy: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** The provider's post-call outcome tag, as sent. */
  dispositionTag: z.string().nullable(),
  analysis: z.record(z.unknown()).nullable(),
  variables: z.record(z.unknown()).nullable(),
  /** Why the call needs a person (empty when it does not), and who marked it handled, when. */
  attentionReasons: z.array(z.string()),
  handledAt: z.string().nullable(),
  handledBy: z.string().nullable(),
  /** When the client's retention removed the transcript (and summary), or the recording. */
  transcriptRemovedAt: z.string().nullable(),
  recordingRemovedAt: z.string().nullable(),
  /** How well the agent spoke, in full; null when the call has nothing to measure. */
  quality: CallQuality.nullable(),
});
export type CallDetail = z.infer<typeof CallDetail>;

/** The admin's view adds what the provider charged the agency (dollars): the client never sees it. */
export const AdminCallDetail = CallDetail.extend({ providerPrice: z.number().nullable() });
export type AdminCallDetail = z.infer<typeof AdminCallDetail>;

export const CallsPage = z.object({ calls: z.array(Call), pagination: Pagination });
export type CallsPage = z.infer<typeof CallsPage>;

export interface TranscriptEntry {
  speaker?: string;
  role?: string;
  text?: string;
  content?: string;
  message?: string;
  timestamp?: string;
}

const positiveInt = (max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'Expected a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `Number must be between 1 and ${max}`);

/** A pathway filter: 'all' (or nothing) means every pathway; names match in any case. */
const PathwayFilter = z
  .string()
  .trim()
  .max(100)
  .optional()
  .transform((v) => (!v || v.toLowerCase() === 'all' ? null : v));

/**
 * Where a call log page ended, for the next one: the sort and order it was read in, the
 * last row's sort value (a number; for `relevance` its rank) and id. Sent as opaque base64url.
 */
export interface LogCursor {
  sort: CallSort;
  order: SortOrder;
  value: number;
  id: string;
}

export function encodeLogCursor(cursor: LogCursor): string {
  const json = JSON.stringify([cursor.sort, cursor.order, cursor.value, cursor.id]);
  return btoa(String.fromCharCode(...new TextEncoder().encode(json)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export function decodeLogCursor(text: string): LogCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const parsed: unknown = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))),
    );
    if (!Array.isArray(parsed) || parsed.length !== 4) return null;
    const [sort, order, value, id] = parsed;
    if (!CALL_SORTS.includes(sort) || !SORT_ORDERS.includes(order)) return null;
    if (typeof value !== 'number' || !Number.isFinite(value) || typeof id !== 'string' || id.length > 200)
      return null;
    return { sort, order, value, id };
  } catch {
    return null;
  }
}

/** The longest custom range (`from`..`to`): a year, leap day included. */
export const MAX_CUSTOM_RANGE_DAYS = 366;
export const CUSTOM_RANGE_MESSAGES = {
  pair: 'from and to go together',
  order: 'from must not be after to',
  tooLong: `A custom range may span at most ${MAX_CUSTOM_RANGE_DAYS} days`,
  exclusive: 'Give either from/to or startDate/endDate, not both',
} as const;

/**
 * A custom range: local days in the client's time zone, both included. The server
 * turns them into a window with the client's zone, so a range means the same days whoever asks.
 */
const customRangeFields = { from: LocalDay.optional(), to: LocalDay.optional() };

type RangeFields = { from?: string; to?: string; startDate?: number; endDate?: number };

function checkCustomRange(q: RangeFields, ctx: z.RefinementCtx) {
  const issue = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message, path: ['from'] });
  if ((q.from === undefined) !== (q.to === undefined)) return issue(CUSTOM_RANGE_MESSAGES.pair);
  if (q.from === undefined || q.to === undefined) return;
  if (q.startDate !== undefined || q.endDate !== undefined) return issue(CUSTOM_RANGE_MESSAGES.exclusive);
  if (q.from > q.to) return issue(CUSTOM_RANGE_MESSAGES.order);
  const days = (Date.parse(q.to) - Date.parse(q.from)) / (24 * 60 * 60 * 1000) + 1;
  if (days > MAX_CUSTOM_RANGE_DAYS) return issue(CUSTOM_RANGE_MESSAGES.tooLong);
}

/** The log's text search: a phone number, a call id, or words in the summary or transcript. */
const SearchText = z
  .string()
  .trim()
  .max(200)
  .optional()
  .superRefine((v, ctx) => {
    const parsed = v ? parseSearch(v) : null;
    if (parsed && !parsed.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.message });
  })
  .transform((v) => (v ? v : null));

/** A lower bound on a quality figure: a whole number, or nothing. */
const QualityBound = z
  .string()
  .trim()
  .regex(/^\d{1,7}$/, 'Expected a whole number')
  .transform(Number)
  .optional();

/** The log's filters, shared by its page query and its export. */
const callFilterFields = {
  pathway: PathwayFilter,
  status: z
    .enum(STATUS_FILTERS)
    .optional()
    .transform((v) => (v === undefined || v === 'all' ? null : v)),
  startDate: QueryDate.optional(),
  endDate: QueryDate.optional(),
  ...customRangeFields,
  search: SearchText,
  /** "true": only calls that still need a person ("Needs attention"). */
  attention: z.enum(['true', 'false']).optional(),
  /** An outcome's name (any case): only calls with that outcome; "Other" for unmatched. */
  outcome: z
    .string()
    .trim()
    .max(60)
    .optional()
    .transform((v) => (v ? v : null)),
  /** Conversation quality: calls at or above each figure (ms, or a count). */
  minLatencyP90Ms: QualityBound,
  minInterruptions: QualityBound,
  minDeadAirMs: QualityBound,
  /** Without it: best match first for a text search, else the newest first. */
  sort: z.enum(CALL_SORTS).optional(),
  order: z.enum(SORT_ORDERS).optional(),
  /**
   * Alone, the last N days up to now, as on the stats; from/to or startDate/endDate
   * sent with it win. Left out, with no dates, the log lists every call. An unknown range is a
   * 400, as everywhere.
   */
  dateRange: z.enum(DATE_RANGES).optional(),
};

/** Query of GET /api/client/calls (and the admin and demo variants). */
export const CallsQuery = z
  .object({
    ...callFilterFields,
    page: positiveInt(1_000_000).optional().default('1'),
    limit: positiveInt(100).optional().default(String(PAGE_SIZE)),
    /**
     * The page after the one whose `pagination.nextAfter` this is (keyset, no OFFSET);
     * `page` then only numbers it. Required past the first 1,000 calls of a search or a
     * quality filter, whose count stops there.
     */
    after: z
      .string()
      .trim()
      .max(400)
      .optional()
      .transform((v, ctx) => {
        if (!v) return undefined;
        const cursor = decodeLogCursor(v);
        if (!cursor) {
          ctx.addIssue({
            code: 'custom',
            message: 'Invalid cursor: use pagination.nextAfter as it was given',
          });
          return z.NEVER;
        }
        return cursor;
      }),
  })
  .superRefine((q, ctx) => checkCustomRange(q, ctx));
export type CallsQuery = z.output<typeof CallsQuery>;
/** The filters of a call log, without its paging: what an export takes. */
export type CallFilterQuery = Omit<CallsQuery, 'page' | 'limit'>;

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Query of GET /api/client/calls/export (and the admin variants): the log's filters and a format. */
export const CallsExportQuery = z
  .object({ ...callFilterFields, format: z.enum(EXPORT_FORMATS) })
  .superRefine((q, ctx) => checkCustomRange(q, ctx));
export type CallsExportQuery = z.output<typeof CallsExportQuery>;

const HOUR_MS = 60 * 60 * 1000;
/** The longest window an analytics request may name (the longest range plus a day of slack). */
export const MAX_WINDOW_MS = (Math.max(...Object.values(DATE_RANGE_DAYS)) + 1) * 24 * HOUR_MS;
/** Hourly chart points are offered for windows up to two days. */
export const MAX_HOURLY_WINDOW_MS = 48 * HOUR_MS + HOUR_MS;
export const ANALYTICS_MESSAGES = {
  windowPair: 'startDate and endDate go together',
  windowOrder: 'startDate must be before endDate',
  windowTooLong: 'The window may span at most 91 days',
  hourlyTooLong: 'Hourly points are offered for windows up to 2 days',
} as const;

/**
 * Query of the stats and calls-over-time endpoints (client, admin and demo). `dateRange` alone
 * means DESIGN's rolling window ending now. The dashboard also sends the exact window and the
 * pathway its call log uses, so the stats, the chart and the log count the same calls.
 */
const analyticsFields = {
  dateRange: DateRangeQuery.shape.dateRange,
  pathway: PathwayFilter,
  startDate: QueryDate.optional(),
  endDate: QueryDate.optional(),
  ...customRangeFields,
};

type WindowFields = { startDate?: number; endDate?: number };

function checkWindow(q: WindowFields, ctx: z.RefinementCtx) {
  const issue = (message: string) =>
    ctx.addIssue({ code: z.ZodIssueCode.custom, message, path: ['startDate'] });
  if ((q.startDate === undefined) !== (q.endDate === undefined)) return issue(ANALYTICS_MESSAGES.windowPair);
  if (q.startDate === undefined || q.endDate === undefined) return;
  if (q.startDate >= q.endDate) return issue(ANALYTICS_MESSAGES.windowOrder);
  if (q.endDate - q.startDate > MAX_WINDOW_MS) return issue(ANALYTICS_MESSAGES.windowTooLong);
}

export const StatsQuery = z.object(analyticsFields).superRefine((q, ctx) => {
  checkWindow(q, ctx);
  checkCustomRange(q, ctx);
});
export type StatsQuery = z.output<typeof StatsQuery>;

export const CHART_INTERVALS = ['day', 'hour'] as const;
export type ChartInterval = (typeof CHART_INTERVALS)[number];

export const ChartQuery = z
  .object({
    ...analyticsFields,
    /** 'hour': one point per local hour (windows up to 2 days); the default is one per local day. */
    interval: z.enum(CHART_INTERVALS).optional().default('day'),
  })
  .superRefine((q, ctx) => {
    checkWindow(q, ctx);
    checkCustomRange(q, ctx);
    if (q.interval !== 'hour') return;
    const span =
      q.from !== undefined && q.to !== undefined
        ? Date.parse(q.to) - Date.parse(q.from) + 24 * HOUR_MS
        : q.startDate !== undefined && q.endDate !== undefined
          ? q.endDate - q.startDate
          : DATE_RANGE_DAYS[q.dateRange] * 24 * HOUR_MS;
    if (span > MAX_HOURLY_WINDOW_MS)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: ANALYTICS_MESSAGES.hourlyTooLong,
        path: ['interval'],
      });
  });
export type ChartQuery = z.output<typeof ChartQuery>;

export const StatChanges = z.object({
  totalCalls: z.number(),
  totalCost: z.number(),
  avgDuration: z.number(),
  totalTransfers: z.number(),
});
export type StatChanges = z.infer<typeof StatChanges>;

const StatFigures = {
  totalCalls: z.number(),
  /** Dollars. */
  totalCost: z.number(),
  /** Seconds, over calls that connected (completed and transferred). */
  avgDuration: z.number(),
  totalTransfers: z.number(),
};

export const ClientStats = z.object({
  ...StatFigures,
  /**
   * Percent change of each figure against the previous window of the same length; DESIGN's
   * numbers: 0 when both are 0, 100 when only the earlier one is 0. The browser shows a figure
   * whose earlier value is 0 (and current is not) as "—" with "no earlier data", not "+100.0%".
   */
  changes: StatChanges,
  /** The same figures over the previous window; absent from older servers. */
  previousPeriod: z.object(StatFigures).optional(),
});
export type ClientStats = z.infer<typeof ClientStats>;

export const DemoStats = ClientStats.extend({ totalRevenue: z.number() });
export type DemoStats = z.infer<typeof DemoStats>;

export const DailyPoint = z.object({
  /**
   * YYYY-MM-DD in the client's timezone; with interval=hour, the local hour as YYYY-MM-DDTHH:00.
   * With a startDate, the first and last points cover only the part of their day (or hour)
   * inside the window, so the points add up to the calls the log lists.
   */
  date: z.string(),
  /** Completed calls that day (or hour). */
  count: z.number(),
});
export type DailyPoint = z.infer<typeof DailyPoint>;
export const DailyPoints = z.array(DailyPoint);

/**
 * Provider errors that were answered and then retried, per HTTP status ("429", "503", or
 * "network" for a connection that failed): a sync under provider faults leaves a trace.
 */
export const RetriedErrors = z.record(z.string(), z.number().int());
export type RetriedErrors = z.infer<typeof RetriedErrors>;

export const SyncResult = z.object({
  success: z.boolean(),
  created: z.number(),
  updated: z.number(),
  /** Calls stored without their details (the provider kept failing); the next sync retries them. */
  unfetched: z.number().optional(),
  /** Present when some provider errors were retried. */
  retried: RetriedErrors.optional(),
  message: z.string(),
});
export type SyncResult = z.infer<typeof SyncResult>;

export const SYNC_RUN_STATUSES = ['running', 'succeeded', 'failed', 'interrupted'] as const;
export type SyncRunState = (typeof SYNC_RUN_STATUSES)[number];

/**
 * A sync still running when its POST answers (202), and what GET …/sync/runs/{id} answers until it
 * ends: the calls stored so far, then the result (succeeded) or the reason (failed, interrupted).
 */
export const SyncProgress = z.object({
  runId: z.string(),
  status: z.enum(SYNC_RUN_STATUSES),
  startedAt: z.string(),
  created: z.number().int(),
  updated: z.number().int(),
  /** Calls read from the provider so far (while running; the provider gives no total up front). */
  fetched: z.number().int(),
  retried: RetriedErrors,
  message: z.string(),
  /** When status is succeeded. */
  result: SyncResult.optional(),
});
export type SyncProgress = z.infer<typeof SyncProgress>;

/** 409: another sync of the account holds the lock; who started it and since when. */
export const SyncBusy = z.object({
  message: z.string(),
  runId: z.string().nullable(),
  startedBy: z.string().nullable(),
  startedAt: z.string().nullable(),
});
export type SyncBusy = z.infer<typeof SyncBusy>;

export const SyncRunParam = z.object({ runId: z.string().uuid() });

export const SeedResult = z.object({ success: z.boolean(), inserted: z.number() });
export type SeedResult = z.infer<typeof SeedResult>;

/** GET /api/client/sample-calls: whether sample data can be added (no real calls yet) or removed. */
export const SampleDataState = z.object({ sampleCalls: z.number(), hasRealCalls: z.boolean() });
export type SampleDataState = z.infer<typeof SampleDataState>;

export const RemovedSamples = z.object({ success: z.literal(true), deleted: z.number() });
export type RemovedSamples = z.infer<typeof RemovedSamples>;

/** A client's webhook URL token: the only credential a provider's delivery carries. */
export const WebhookTokenParam = z.object({
  token: z
    .string()
    .min(16)
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/),
});

/**
 * What a voice webhook delivery is answered: a call (with `verified: false` while the provider has
 * not confirmed it, so it counts nowhere yet) or a live event, acknowledged and logged.
 */
export const WebhookAnswer = z.object({
  received: z.literal(true),
  kind: z.enum(['call', 'event']),
  callId: z.string().optional(),
  verified: z.literal(false).optional(),
});
export type WebhookAnswer = z.infer<typeof WebhookAnswer>;

/** An admin's view of one client's call (recordings). */
export const ClientCallParams = ClientIdParam.merge(IdParam);

/** The call log's columns a person may hide; the row's buttons always show. */
export const CALL_LOG_COLUMNS = [
  'callId',
  'fromTo',
  'duration',
  'status',
  'pathway',
  'created',
  'outcome',
  'quality',
  'cost',
] as const;
export type CallLogColumn = (typeof CALL_LOG_COLUMNS)[number];
/**
 * What a person who never chose sees (a stored null): every column but conversation quality
 *, which a busy table leaves to the Quality tab until someone asks for it.
 */
export const DEFAULT_CALL_LOG_COLUMNS: readonly CallLogColumn[] = CALL_LOG_COLUMNS.filter(
  (c) => c !== 'quality',
);

/**
 * GET/PUT /api/client/preferences and /api/admin/preferences: what the signed-in person chose for
 * the call log, remembered on the server so it follows them to any browser. null: the defaults.
 */
export const UiPreferences = z.object({
  callLogColumns: z
    .array(z.enum(CALL_LOG_COLUMNS))
    .min(1, 'Keep at least one column')
    .max(CALL_LOG_COLUMNS.length)
    .refine((columns) => new Set(columns).size === columns.length, 'Each column once')
    .nullable(),
});
export type UiPreferences = z.infer<typeof UiPreferences>;
/** PUT /api/{client,admin}/preferences: a patch, a choice left out keeps the stored one. */
export const UiPreferencesBody = UiPreferences.partial();
export type UiPreferencesBody = z.infer<typeof UiPreferencesBody>;
