/**
 * The agency's console: portfolio analytics with margin, clients at risk, the support
 * tools (webhook deliveries with replay, sync history, the audit log) and the admins. Shared by
 * the server (validation, answers) and the browser (types, labels).
 *
 * Money is integer cents: revenue is what the clients are billed (their per-minute rate when each
 * call arrived), cost is what the voice provider charged the agency, margin = revenue − cost.
 * Days are each client's local calendar days; a preset ends today (UTC's date).
 */
import { z } from 'zod';
import { RetriedErrors, SYNC_RUN_STATUSES } from './calls';
import { ADMIN_DATE_RANGES, LocalDay, Pagination } from './common';

export const MAX_ANALYTICS_DAYS = 366;

export const ANALYTICS_RANGE_MESSAGES = {
  pair: 'from and to go together',
  order: 'from must not be after to',
  tooLong: `A range may span at most ${MAX_ANALYTICS_DAYS} days`,
} as const;

/** The client table's columns it can be ordered by (PortfolioClient's fields). */
export const PORTFOLIO_SORTS = [
  'name',
  'revenueCents',
  'costCents',
  'marginCents',
  'marginPercent',
  'calls',
  'minutes',
  'answerRate',
  'failureRate',
  'lastCallAt',
] as const;
export type PortfolioSort = (typeof PORTFOLIO_SORTS)[number];
/** Names read A to Z first; figures largest first. */
export const defaultOrderOf = (sort: PortfolioSort): 'asc' | 'desc' => (sort === 'name' ? 'asc' : 'desc');
export const PORTFOLIO_PAGE_SIZE = 25;

export const AnalyticsQuery = z
  .object({
    dateRange: z.enum(ADMIN_DATE_RANGES).optional().default('30d'),
    from: LocalDay.optional(),
    to: LocalDay.optional(),
    /** The client table is sorted and paged on the server: a thousand rows are not sent at once. */
    sort: z.enum(PORTFOLIO_SORTS).optional().default('revenueCents'),
    order: z.enum(['asc', 'desc']).optional(),
    page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
    limit: z.coerce.number().int().min(1).max(1000).optional().default(PORTFOLIO_PAGE_SIZE),
    /** Clients whose name or e-mail holds this text (any case); the totals stay the portfolio's. */
    search: z.string().trim().max(200).optional(),
  })
  .superRefine((q, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message, path: ['from'] });
    if ((q.from === undefined) !== (q.to === undefined)) return issue(ANALYTICS_RANGE_MESSAGES.pair);
    if (q.from === undefined || q.to === undefined) return;
    if (q.from > q.to) return issue(ANALYTICS_RANGE_MESSAGES.order);
    if (dayCount(q.from, q.to) > MAX_ANALYTICS_DAYS) return issue(ANALYTICS_RANGE_MESSAGES.tooLong);
  });
export type AnalyticsQuery = z.output<typeof AnalyticsQuery>;

/** Days from `from` to `to`, both included. */
export function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

const Figures = {
  calls: z.number().int(),
  minutes: z.number(),
  revenueCents: z.number().int(),
  costCents: z.number().int(),
  marginCents: z.number().int(),
  /** Margin over revenue, in percent (one decimal); null without revenue. */
  marginPercent: z.number().nullable(),
  /** Share of calls that reached someone (completed or transferred), in percent; null without calls. */
  answerRate: z.number().nullable(),
  /** Share of calls that failed, in percent; null without calls. */
  failureRate: z.number().nullable(),
};
export const AnalyticsFigures = z.object(Figures);
export type AnalyticsFigures = z.infer<typeof AnalyticsFigures>;

/** Percent change against the previous period of the same length (0 when both are 0, 100 when only it is). */
export const AnalyticsChanges = z.object({
  calls: z.number(),
  minutes: z.number(),
  revenueCents: z.number(),
  costCents: z.number(),
  marginCents: z.number(),
});
export type AnalyticsChanges = z.infer<typeof AnalyticsChanges>;

export const PortfolioClient = z.object({
  clientId: z.string(),
  name: z.string(),
  email: z.string(),
  isActive: z.boolean(),
  ...Figures,
  changes: AnalyticsChanges,
  /** ISO time of the client's newest call, any time; null: never. */
  lastCallAt: z.string().nullable(),
  /** Median of the calls' median response times in the range (ms); null: none measured. */
  medianResponseMs: z.number().nullable(),
  /** Measured calls in which the caller interrupted the agent, in percent; null: none measured. */
  interruptionRate: z.number().nullable(),
});
export type PortfolioClient = z.infer<typeof PortfolioClient>;

export const AdminAnalytics = z.object({
  range: z.object({ from: z.string(), to: z.string(), days: z.number().int() }),
  previous: z.object({ from: z.string(), to: z.string() }),
  totals: AnalyticsFigures,
  /** The previous period's totals: a figure that was 0 there shows "new", not a percentage. */
  previousTotals: AnalyticsFigures,
  changes: AnalyticsChanges,
  /** One point per day of the range, oldest first. */
  series: z.array(
    z.object({
      date: z.string(),
      calls: z.number().int(),
      revenueCents: z.number().int(),
      costCents: z.number().int(),
    }),
  ),
  /** One page of the clients, in the asked order; the totals and the chart cover them all. */
  clients: z.array(PortfolioClient),
  /** The client table's page: `total` counts the clients matching `search`. */
  pagination: Pagination,
});
export type AdminAnalytics = z.infer<typeof AdminAnalytics>;

export const RISK_CODES = [
  'volume_drop',
  'failure_spike',
  'webhook_silent',
  'api_key_invalid',
  'payment_failed',
  'subscription_ending',
  'over_plan',
  'response_time_up',
  'attention_backlog',
  'failure_share',
] as const;
export type RiskCode = (typeof RISK_CODES)[number];

export const RISK_LABELS: Record<RiskCode, string> = {
  volume_drop: 'Call volume down',
  failure_spike: 'Failures up',
  webhook_silent: 'Webhook silent',
  api_key_invalid: 'API key refused',
  payment_failed: 'Payment failed',
  subscription_ending: 'Subscription ending',
  over_plan: 'Over plan',
  response_time_up: 'Agent response time up',
  attention_backlog: 'Calls need attention',
  failure_share: 'Many calls failing',
};

export const AtRiskClient = z.object({
  clientId: z.string(),
  name: z.string(),
  reasons: z.array(z.object({ code: z.enum(RISK_CODES), text: z.string() })),
});
export type AtRiskClient = z.infer<typeof AtRiskClient>;
export const AtRiskList = z.array(AtRiskClient);

const pageFields = {
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20),
};

export const DELIVERY_OUTCOMES = [
  'created',
  'updated',
  'duplicate',
  'unconfirmed',
  'acknowledged',
  'refused',
] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

export const DELIVERY_OUTCOME_LABELS: Record<DeliveryOutcome, string> = {
  created: 'Stored (new call)',
  updated: 'Stored (call updated)',
  duplicate: 'Duplicate',
  unconfirmed: 'Unconfirmed',
  acknowledged: 'Live event',
  refused: 'Refused',
};

export const DeliveriesQuery = z.object({
  ...pageFields,
  outcome: z.enum(DELIVERY_OUTCOMES).optional(),
});

export const Delivery = z.object({
  id: z.string(),
  receivedAt: z.string(),
  /** call | event | invalid */
  kind: z.string(),
  callId: z.string().nullable(),
  outcome: z.string(),
  detail: z.string().nullable(),
  /** The body as received, where it was kept (refused and unconfirmed deliveries). */
  body: z.string().nullable(),
  replayOf: z.string().nullable(),
  /** Whether Replay can run it again (its body was kept). */
  replayable: z.boolean(),
});
export type Delivery = z.infer<typeof Delivery>;

export const DeliveriesPage = z.object({ items: z.array(Delivery), pagination: Pagination });
export type DeliveriesPage = z.infer<typeof DeliveriesPage>;

export const ReplayResult = z.object({ delivery: Delivery, message: z.string() });
export type ReplayResult = z.infer<typeof ReplayResult>;

export const SyncRun = z.object({
  id: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  /** Who started it, in words: "The client", an admin's name, "Sync all by …", "The system". */
  startedBy: z.string(),
  created: z.number().int(),
  updated: z.number().int(),
  unfetched: z.number().int(),
  error: z.string().nullable(),
  /** running, succeeded, failed, or interrupted (the server stopped before it finished). */
  status: z.enum(SYNC_RUN_STATUSES),
  /** Provider errors retried during the run, per HTTP status. */
  retried: RetriedErrors,
});
export type SyncRun = z.infer<typeof SyncRun>;
export const SyncRunsPage = z.object({ items: z.array(SyncRun), pagination: Pagination });
export type SyncRunsPage = z.infer<typeof SyncRunsPage>;
export const PageQuery = z.object(pageFields);

export const AUDIT_ACTIONS = [
  'client.create_draft',
  'client.finalize',
  'client.update',
  'client.delete',
  'client.credentials',
  'client.rotate_webhook',
  'client.view',
  'client.read_calls',
  'call.read',
  'client.export',
  'clients.export',
  'client.outcomes',
  'client.sync',
  'client.test_call',
  'clients.sync_all',
  'call.delete',
  'delivery.replay',
  'admin.create',
  'admin.deactivate',
  'admin.activate',
  'admin.reset_password',
  'client.user_resend_invite',
  'client.user_reset_password',
  'client.user_reset_two_factor',
  'admins.require_two_factor',
  'admin.two_factor_enabled',
  'admin.two_factor_disabled',
  'brand.update',
  'brand.asset',
  'client.privacy',
  'privacy.defaults',
  'client.erasure',
  'client.subject_export',
  'client.quality_thresholds',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'client.create_draft': 'Started onboarding',
  'client.finalize': 'Finished onboarding',
  'client.update': 'Edited client',
  'client.delete': 'Deleted client',
  'client.credentials': 'Generated login credentials',
  'client.rotate_webhook': 'Rotated webhook URL',
  'client.view': 'Viewed as client',
  'client.read_calls': 'Read the call log',
  'call.read': 'Opened calls',
  'client.export': 'Exported calls',
  'clients.export': "Exported every client's calls",
  'client.outcomes': 'Changed outcomes',
  'client.sync': 'Synced client',
  'client.test_call': 'Sent a test call',
  'clients.sync_all': 'Synced all clients',
  'call.delete': 'Deleted a call',
  'delivery.replay': 'Replayed a delivery',
  'admin.create': 'Created admin',
  'admin.deactivate': 'Deactivated admin',
  'admin.activate': 'Reactivated admin',
  'admin.reset_password': 'Reset admin password',
  'client.user_resend_invite': "Resent a client user's invitation",
  'client.user_reset_password': 'Sent a client user a new password link',
  'client.user_reset_two_factor': "Reset a client user's two-factor sign-in",
  'admins.require_two_factor': 'Changed the two-factor rule for administrators',
  'admin.two_factor_enabled': 'Turned on their two-factor sign-in',
  'admin.two_factor_disabled': 'Turned off their two-factor sign-in',
  'brand.update': 'Changed the brand',
  'brand.asset': 'Changed a brand image',
  'client.privacy': 'Changed a client’s privacy settings',
  'privacy.defaults': 'Changed the privacy defaults',
  'client.erasure': 'Erased a caller’s data',
  'client.subject_export': 'Exported a caller’s data',
  'client.quality_thresholds': 'Changed a client’s quality thresholds',
};

export const AuditQuery = z.object({
  ...pageFields,
  adminId: z.string().trim().min(1).max(100).optional(),
  clientId: z.string().trim().min(1).max(100).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
});

export const AuditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  adminId: z.string(),
  adminName: z.string(),
  action: z.string(),
  clientId: z.string().nullable(),
  /** The client's name when it still exists. */
  clientName: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditPage = z.object({ items: z.array(AuditEntry), pagination: Pagination });
export type AuditPage = z.infer<typeof AuditPage>;

export const AdminAccount = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  isActive: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  /** The admin asking. */
  isYou: z.boolean(),
});
export type AdminAccount = z.infer<typeof AdminAccount>;

export const ADMIN_USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{1,39}$/;

export const CreateAdminBody = z.object({
  username: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      ADMIN_USERNAME_PATTERN,
      'Username: 2 to 40 lower-case letters, digits, dots, dashes or underscores',
    ),
  name: z.string().trim().min(1, 'Name is required').max(100),
});
export type CreateAdminBody = z.infer<typeof CreateAdminBody>;

/** A new admin or a reset: the password is shown once, to hand over. */
export const AdminCredentials = z.object({ admin: AdminAccount, temporaryPassword: z.string() });
export type AdminCredentials = z.infer<typeof AdminCredentials>;

export const TestCallBody = z.object({
  phoneNumber: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{7,14}$/, 'Please enter the phone number in international format, e.g. +14155550123'),
});
export const TestCallResult = z.object({ success: z.literal(true), callId: z.string(), message: z.string() });
export type TestCallResult = z.infer<typeof TestCallResult>;
