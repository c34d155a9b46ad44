/**
 * The live stream's events (issue 17), as GET /api/client/events and the admin's
 * /api/admin/clients/{id}/events send them (server-sent events, `event:` the kind, `id:` for
 * resuming with Last-Event-ID, `data:` this JSON).
 */
import type { CallStatus } from './calls';

export type LiveCallChange = 'created' | 'updated' | 'deleted';

/** A call of the client appeared, changed (status, outcome, details) or went. */
export interface LiveCallEvent {
  change: LiveCallChange;
  callId: string;
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

export const LIVE_EVENT_KINDS = ['call', 'refresh'] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

/** How often the stream sends a comment line, so proxies and the browser know it is alive. */
export const LIVE_HEARTBEAT_MS = 15_000;
/** How long events are kept for a reconnecting stream to resume from. */
export const LIVE_RESUME_MS = 10 * 60 * 1000;
