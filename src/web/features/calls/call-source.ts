/**
 * Where a calls view reads from and what it may do. The client dashboard, the demo and the admin
 * client view render the same components with different sources; an action whose URL is absent
 * is not offered (the demo has no delete).
 */
import type { DateRange } from '../../../contract/common';
import type { SessionUser } from '../../../contract/teams';
import { can } from '../../lib/permissions';

export interface CallSource {
  /** Separates cache entries of different sources: 'client', 'demo', 'admin:{clientId}'. */
  key: string;
  callsUrl: string;
  statsUrl: string;
  overTimeUrl: string;
  /** GET one call in full (the call detail drawer). */
  callUrl: (callId: string) => string;
  /** Outcomes: the summary strip, the stacked chart and the "Needs attention" list. */
  outcomesSummaryUrl: string;
  outcomesOverTimeUrl: string;
  attentionUrl: string;
  /** Conversation quality: the period's medians, precision, distribution and worst calls. */
  qualitySummaryUrl: string;
  /**
   * GET/PUT the quality thresholds (and how far measuring earlier calls got, which the Quality tab
   * says); none: the view has no thresholds (the demo).
   */
  qualityThresholdsUrl?: string;
  /** POST target of "Mark handled"; without it (the demo) calls cannot be marked. */
  handledUrl?: (callId: string) => string;
  /** The page a call's link opens it on (`?call=ID&t=SECONDS` is added). */
  pagePath: string;
  /** Date ranges the filter bar offers, in order. */
  dateRanges: readonly DateRange[];
  /** Audio for playback. */
  recordingUrl?: (callId: string) => string;
  /** "Show number": one call's numbers in full, where numbers can be masked (the client's). */
  unmaskUrl?: (callId: string) => string;
  /** The same audio as an attachment. */
  downloadUrl?: (callId: string) => string;
  /** GET target of the log's CSV and Excel exports (the log's filters added); none: no export. */
  exportUrl?: string;
  /** Where the signed-in user's call log columns are remembered; none: kept for the visit only. */
  preferencesUrl?: string;
  /** DELETE target; without it rows have no delete button. */
  deleteUrl?: (callId: string) => string;
  /** The live stream of this account's call events; none: no live updates (the demo). */
  eventsUrl?: string;
  /**
   * GET target of the first screen in one read: the log's first page, stats, charts,
   * outcomes, attention, live calls and the account's small reads, seeded into the separate
   * queries (first-screen.ts). Later reads (filters, paging, refresh, live) use the separate URLs.
   */
  dashboardUrl?: string;
  /** Cache lifetimes in ms (SPEC §9 differs between client and admin views). */
  staleTimes?: { calls?: number; stats?: number; overTime?: number };
}

/**
 * Where one account's quality thresholds are read and saved, and where the
 * re-classification a save starts is followed (the outcomes' state): the client's own, or the
 * admin's naming a client.
 */
export interface QualityThresholdsApi {
  thresholds: string;
  outcomes: string;
}

export const CLIENT_QUALITY_THRESHOLDS: QualityThresholdsApi = {
  thresholds: '/api/client/quality/thresholds',
  outcomes: '/api/client/outcomes',
};

export function adminQualityThresholds(clientId: string): QualityThresholdsApi {
  const id = encodeURIComponent(clientId);
  return {
    thresholds: `/api/admin/client-quality/${id}/thresholds`,
    outcomes: `/api/admin/client-outcomes/${id}`,
  };
}

export const CLIENT_CALL_SOURCE: CallSource = {
  key: 'client',
  dashboardUrl: '/api/client/dashboard',
  callsUrl: '/api/client/calls',
  statsUrl: '/api/client/stats',
  overTimeUrl: '/api/client/calls-over-time',
  callUrl: (id) => `/api/client/calls/${encodeURIComponent(id)}`,
  outcomesSummaryUrl: '/api/client/outcomes/summary',
  outcomesOverTimeUrl: '/api/client/outcomes-over-time',
  attentionUrl: '/api/client/attention',
  qualitySummaryUrl: '/api/client/quality/summary',
  qualityThresholdsUrl: CLIENT_QUALITY_THRESHOLDS.thresholds,
  handledUrl: (id) => `/api/client/calls/${encodeURIComponent(id)}/handled`,
  pagePath: '/dashboard',
  dateRanges: ['7d', '30d', '60d'],
  recordingUrl: (id) => `/api/client/recording/${encodeURIComponent(id)}`,
  unmaskUrl: (id) => `/api/client/calls/${encodeURIComponent(id)}/unmask`,
  downloadUrl: (id) => `/api/recording/${encodeURIComponent(id)}`,
  deleteUrl: (id) => `/api/client/calls/${encodeURIComponent(id)}`,
  exportUrl: '/api/client/calls/export',
  preferencesUrl: '/api/client/preferences',
  eventsUrl: '/api/client/events',
  staleTimes: { calls: 30_000, stats: 60_000, overTime: 60_000 },
};

export const DEMO_CALL_SOURCE: CallSource = {
  key: 'demo',
  dashboardUrl: '/api/demo/dashboard',
  callsUrl: '/api/demo/calls',
  statsUrl: '/api/demo/stats',
  overTimeUrl: '/api/demo/calls-over-time',
  callUrl: (id) => `/api/demo/calls/${encodeURIComponent(id)}`,
  outcomesSummaryUrl: '/api/demo/outcomes/summary',
  outcomesOverTimeUrl: '/api/demo/outcomes-over-time',
  attentionUrl: '/api/demo/attention',
  qualitySummaryUrl: '/api/demo/quality/summary',
  pagePath: '/demo',
  dateRanges: ['1d', '7d', '30d', '90d'],
  recordingUrl: (id) => `/api/demo/recording/${encodeURIComponent(id)}`,
  downloadUrl: (id) => `/api/demo/recording/${encodeURIComponent(id)}?download=1`,
  staleTimes: { calls: 30_000, stats: 60_000, overTime: 60_000 },
};

/** The admin's view of one client (SPEC §7 "Admin"); for the teammate building /admin/client/{id}. */
export function adminCallSource(clientId: string): CallSource {
  const id = encodeURIComponent(clientId);
  return {
    key: `admin:${clientId}`,
    dashboardUrl: `/api/admin/clients/${id}/dashboard`,
    callsUrl: `/api/admin/client-calls/${id}`,
    statsUrl: `/api/admin/client-stats/${id}`,
    overTimeUrl: `/api/admin/client-calls-over-time/${id}`,
    callUrl: (callId) => `/api/admin/client-calls/${id}/${encodeURIComponent(callId)}`,
    outcomesSummaryUrl: `/api/admin/client-outcomes/${id}/summary`,
    outcomesOverTimeUrl: `/api/admin/client-outcomes/${id}/over-time`,
    attentionUrl: `/api/admin/client-attention/${id}`,
    qualitySummaryUrl: `/api/admin/client-quality/${id}/summary`,
    qualityThresholdsUrl: adminQualityThresholds(clientId).thresholds,
    handledUrl: (callId) => `/api/admin/client-calls/${id}/${encodeURIComponent(callId)}/handled`,
    pagePath: `/admin/client/${id}`,
    dateRanges: ['1d', '7d', '30d', '90d'],
    recordingUrl: (callId) => `/api/admin/client-recording/${id}/${encodeURIComponent(callId)}`,
    downloadUrl: (callId) => `/api/recording/${encodeURIComponent(callId)}`,
    deleteUrl: (callId) => `/api/admin/calls/${encodeURIComponent(callId)}?clientId=${id}`,
    exportUrl: `/api/admin/clients/${id}/calls/export`,
    preferencesUrl: '/api/admin/preferences',
    eventsUrl: `/api/admin/clients/${id}/events`,
    staleTimes: { calls: 30_000, stats: 30_000, overTime: 30_000 },
  };
}

/**
 * The client's source for the signed-in user: what their role lacks is left out, so
 * the workspace does not offer it (no `calls.manage`: no delete, no "Mark handled"; no `export`:
 * no export). The server refuses those anyway; this keeps the browser from offering them.
 */
export function clientCallSourceFor(user: Pick<SessionUser, 'permissions'> | null): CallSource {
  const { deleteUrl, handledUrl, exportUrl, ...rest } = CLIENT_CALL_SOURCE;
  return {
    ...rest,
    ...(can(user, 'calls.manage') ? { deleteUrl, handledUrl } : {}),
    ...(can(user, 'export') ? { exportUrl } : {}),
  };
}
