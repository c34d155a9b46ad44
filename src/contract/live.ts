/**
 * The live stream's events, as GET /api/client/events and the admin's
 * /api/admin/clients/{id}/events send them (server-sent events, `event:` the kind, `id:` for
 * resuming with Last-Event-ID, `data:` this JSON).
 */
import type { CallStatus } from './calls';

export type LiveCallChange = 'created' | 'updated' | 'deleted';

/** A call of the client appeared, changed (status, outcome, details) or went. */
export interface LiveCallEvent {
  change: LiveCallChange;
  callId: string;
  /** The provider's id of the call, as its live activity names it. */
  providerCallId: string;
  status: CallStatus;
  outcome: string | null;
  /** ISO time the call was created. */
  createdAt: string;
  fromNumber: string;
  toNumber: string;
  pathway: string;
}

/** Many calls changed at once (a bulk delete, a re-classification): everything should be read again. */
export interface LiveRefreshEvent {
  reason: string;
}

/**
 * The provider reported a call in progress (Bland's live events to the webhook): the call is not
 * stored until it ends, so this is all there is of it for now. Not confirmed by the provider's API.
 */
export interface LiveActivityEvent {
  providerCallId: string;
  /** ISO time the activity arrived. */
  at: string;
}

export const LIVE_EVENT_KINDS = ['call', 'refresh', 'activity'] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

/** How often the stream sends a comment line, so proxies and the browser know it is alive. */
export const LIVE_HEARTBEAT_MS = 15_000;
/** How long events are kept for a reconnecting stream to resume from. */
export const LIVE_RESUME_MS = 10 * 60 * 1000;
