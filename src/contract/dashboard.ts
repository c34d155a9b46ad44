/**
 * The dashboard's first screen in one read: GET /api/client/dashboard, the admin's
 * GET /api/admin/clients/{clientId}/dashboard and the demo's GET /api/demo/dashboard. Its query is
 * the union of what the separate reads take (the log's filters and paging, the stats' and charts'
 * window, the chart's interval, the attention list's length) and each part is checked by that
 * read's own schema, so a query the log refuses is refused here with the same 400. Its answer is
 * those reads' answers side by side, each in the separate endpoint's shape; the separate
 * endpoints stay (SPEC, other programs) and the browser's later reads use them.
 */
import { z } from 'zod';
import { AdminClientListItem } from './admin';
import { Subscription } from './billing';
import {
  CallsPage,
  CallsQuery,
  ChartQuery,
  ClientStats,
  DailyPoints,
  DemoStats,
  SampleDataState,
  StatsQuery,
  UiPreferences,
} from './calls';
import { AttentionList, AttentionQuery, OutcomePoints, OutcomeSummary } from './outcomes';
import { ClientUser } from './teams';
import { TwoFactorStatus } from './two-factor';

/** How many "Needs attention" calls the first screen shows (the panel and the header's badge). */
export const DASHBOARD_ATTENTION_LIMIT = 5;
/** The calls in progress the "Live now" strip lists. */
export const DASHBOARD_LIVE_LIMIT = 5;

/** The object schema under a schema's refinements (CallsQuery and ChartQuery are refined objects). */
function shapeOf(schema: z.ZodTypeAny): z.ZodRawShape {
  let inner: z.ZodTypeAny = schema;
  while (inner instanceof z.ZodEffects) inner = inner.innerType();
  if (!(inner instanceof z.ZodObject)) throw new Error('dashboard query: expected an object schema');
  return inner.shape;
}

/** Every parameter a part takes, as text (what a query string carries); `attentionLimit` is the list's `limit`. */
const PARAMETERS = [
  ...new Set([...Object.keys(shapeOf(CallsQuery)), ...Object.keys(shapeOf(ChartQuery)), 'attentionLimit']),
];
const RawDashboardQuery = z.object(
  Object.fromEntries(
    PARAMETERS.map((name): [string, z.ZodOptional<z.ZodString>] => [name, z.string().optional()]),
  ),
);

/**
 * Query of the dashboard endpoints. Each part is parsed by its own read's schema from the same
 * parameters; their issues are the answer's 400 (each said once).
 */
export const DashboardQuery = RawDashboardQuery.transform((raw, ctx) => {
  const defined = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  const { attentionLimit, ...rest } = defined;
  const log = CallsQuery.safeParse(rest);
  const stats = StatsQuery.safeParse(rest);
  const chart = ChartQuery.safeParse(rest);
  const attention = AttentionQuery.safeParse(
    attentionLimit === undefined ? { limit: String(DASHBOARD_ATTENTION_LIMIT) } : { limit: attentionLimit },
  );
  const seen = new Set<string>();
  for (const [part, result] of [
    ['', log],
    ['', stats],
    ['', chart],
    ['attentionLimit', attention],
  ] as const) {
    if (result.success) continue;
    for (const issue of result.error.issues) {
      const path = part ? [part] : issue.path;
      const key = `${path.join('.')}\u0000${issue.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      ctx.addIssue({ ...issue, path });
    }
  }
  if (!log.success || !stats.success || !chart.success || !attention.success) return z.NEVER;
  return { log: log.data, stats: stats.data, chart: chart.data, attentionLimit: attention.data.limit };
});
export type DashboardQuery = z.output<typeof DashboardQuery>;

/** What every view's first screen shows, each part as its separate endpoint answers it. */
const dashboardParts = {
  /** GET …/calls with the query's filters and page. */
  calls: CallsPage,
  /** GET …/stats over the query's window and pathway. */
  stats: ClientStats,
  /** GET …/calls-over-time with the query's interval. */
  callsOverTime: DailyPoints,
  /** GET …/outcomes/summary. */
  outcomesSummary: OutcomeSummary,
  /** GET …/outcomes-over-time. */
  outcomesOverTime: OutcomePoints,
  /** GET …/attention?limit=attentionLimit (5 unless asked). */
  attention: AttentionList,
  /** "Live now": GET …/calls?status=active&limit=5&sort=created&order=desc; not in the demo. */
  liveCalls: CallsPage.optional(),
};

/**
 * GET /api/client/dashboard. A part the signed-in user's role may not read is left out, as its
 * own endpoint would answer 403 (subscription without `billing`); the calls parts need
 * `calls.read`, as the log does, and without it the whole read is a 403.
 */
export const ClientDashboard = z.object({
  ...dashboardParts,
  /** GET /api/client/preferences (the log's columns). */
  preferences: UiPreferences,
  /** GET /api/client/sample-calls. */
  sampleData: SampleDataState,
  /** GET /api/client/2fa (whether the user must set up two-factor sign-in first). */
  twoFactor: TwoFactorStatus,
  /** GET /api/client/subscription (null: none); left out without `billing`. */
  subscription: Subscription.nullable().optional(),
});
export type ClientDashboard = z.infer<typeof ClientDashboard>;

/** GET /api/admin/clients/{clientId}/dashboard: the client as the admin's header shows it, too. */
export const AdminClientDashboard = z.object({
  ...dashboardParts,
  /** GET /api/admin/client-data/{clientId}'s client (the same audit rows). */
  client: AdminClientListItem,
  /** GET /api/admin/preferences. */
  preferences: UiPreferences,
  /** GET /api/admin/clients/{id}/users (the client's team card). */
  users: z.array(ClientUser),
});
export type AdminClientDashboard = z.infer<typeof AdminClientDashboard>;

/** GET /api/demo/dashboard: the demo's stats carry the agency's revenue. */
export const DemoDashboard = z.object({ ...dashboardParts, stats: DemoStats });
export type DemoDashboard = z.infer<typeof DemoDashboard>;
