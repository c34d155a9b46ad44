/** Calls, call-log queries, stats and chart points (SPEC §3, §7; DESIGN §6). */
import { z } from 'zod';
import { PAGE_SIZE, Pagination, QueryDate } from './common';

export const CALL_STATUSES = ['completed', 'failed', 'transferred', 'active', 'unknown'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
/** Pathways offered by the filter bar; the server matches names case-insensitively. */
export const PATHWAYS = ['sales', 'support', 'booking'] as const;
export const STATUS_FILTERS = ['completed', 'active', 'failed', 'transferred', 'all'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** A call as the API shows it. */
export const Call = z.object({
  id: z.string(),
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
});
export type Call = z.infer<typeof Call>;

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

/** Query of GET /api/client/calls (and the admin and demo variants). */
export const CallsQuery = z.object({
  pathway: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => (!v || v.toLowerCase() === 'all' ? null : v)),
  status: z
    .enum(STATUS_FILTERS)
    .optional()
    .transform((v) => (v === undefined || v === 'all' ? null : v)),
  startDate: QueryDate.optional(),
  endDate: QueryDate.optional(),
  page: positiveInt(1_000_000).optional().default('1'),
  limit: positiveInt(100).optional().default(String(PAGE_SIZE)),
  search: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => (v ? v : null)),
  /** Accepted and ignored here; the calls query filters by startDate/endDate. */
  dateRange: z.string().optional(),
});
export type CallsQuery = z.output<typeof CallsQuery>;

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
  /** YYYY-MM-DD in the client's timezone. */
  date: z.string(),
  /** Completed calls that day. */
  count: z.number(),
});
export type DailyPoint = z.infer<typeof DailyPoint>;
export const DailyPoints = z.array(DailyPoint);

export const SyncResult = z.object({
  success: z.boolean(),
  created: z.number(),
  updated: z.number(),
  message: z.string(),
});
export type SyncResult = z.infer<typeof SyncResult>;

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
export const ClientCallParams = z.object({
  clientId: z.string().trim().min(1).max(100),
  id: z.string().trim().min(1).max(100),
});
