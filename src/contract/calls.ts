/** Calls, call-log queries, stats and chart points (SPEC §3, §7; DESIGN §6). */
import { z } from 'zod';
import { PAGE_SIZE, type Pagination } from './common';

export const CALL_STATUSES = ['completed', 'failed', 'transferred', 'active', 'unknown'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
/** Pathways offered by the filter bar; the server matches names case-insensitively. */
export const PATHWAYS = ['sales', 'support', 'booking'] as const;
export const STATUS_FILTERS = ['completed', 'active', 'failed', 'transferred', 'all'] as const;

/** A call as the API shows it. */
export interface Call {
  id: string;
  fromNumber: string;
  toNumber: string;
  /** Seconds. */
  duration: number;
  status: CallStatus;
  pathway: string;
  /** ISO 8601, UTC. */
  createdAt: string;
  /** Our own download path when the provider has a recording; absent otherwise. */
  recordingUrl?: string;
  /** JSON text of an array of transcript entries. */
  transcript: string | null;
  /** Dollars. */
  cost: number;
}

export interface CallsPage {
  calls: Call[];
  pagination: Pagination;
}

export interface TranscriptEntry {
  speaker?: string;
  role?: string;
  text?: string;
  content?: string;
  message?: string;
  timestamp?: string;
}

const isoDate = z
  .string()
  .trim()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), 'Invalid date')
  .transform((v) => Date.parse(v));

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
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
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

export interface StatChanges {
  totalCalls: number;
  totalCost: number;
  avgDuration: number;
  totalTransfers: number;
}

export interface ClientStats {
  totalCalls: number;
  /** Dollars. */
  totalCost: number;
  /** Seconds, over calls that connected (completed and transferred). */
  avgDuration: number;
  totalTransfers: number;
  /** Percent change of each figure against the previous window of the same length. */
  changes: StatChanges;
}

export interface DemoStats extends ClientStats {
  totalRevenue: number;
}

export interface DailyPoint {
  /** YYYY-MM-DD in the client's timezone. */
  date: string;
  /** Completed calls that day. */
  count: number;
}

export interface SyncResult {
  success: boolean;
  created: number;
  updated: number;
  message: string;
}

export interface SeedResult {
  success: boolean;
  inserted: number;
}
