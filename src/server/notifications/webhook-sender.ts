/**
 * The outbox's webhook channel: the event rendered now from the call as it is (docs/webhooks.md),
 * signed and POSTed to the client's endpoint. A refusal or no answer is retried by the outbox
 * with backoff for 24 hours; the delivery log shows every try.
 */
import type { Kysely } from 'kysely';
import { WEBHOOK_API_VERSION, type WebhookEventType } from '../../contract/integrations';
import { readNotificationPrefs } from '../account/notification-prefs';
import { toCallDetail } from '../call-rows/call';
import type { SecretBox } from '../crypto/secrets';
import type { Database, OutboxRow } from '../db/schema';
import type { CallMessagePayload } from './call-alerts';
import { callLink, loadCallAndClient } from './call-messages';
import { findWebhookEndpoint, postEvent } from './client-webhooks';
import type { SendOutcome } from './worker';

/** A webhook message's payload: the call (for call events), and the event id a resend keeps. */
export interface WebhookPayload extends Partial<CallMessagePayload> {
  /** Set by "Send again": the receiver sees the same event id and can ignore a repeat. */
  eventId?: string;
}

export interface WebhookContext {
  db: Kysely<Database>;
  secrets: SecretBox;
  publicUrl: string;
  allowPrivate: boolean;
  now: () => number;
}

export const eventIdOf = (message: Pick<OutboxRow, 'id' | 'payload_json'>): string => {
  try {
    // JSON.parse is any: the outbox row was written by us from a WebhookPayload.
    const payload = JSON.parse(message.payload_json) as WebhookPayload;
    if (typeof payload.eventId === 'string') return payload.eventId;
  } catch {
    // fall through: the message's own id
  }
  return `evt_${message.id.replace(/-/g, '')}`;
};

/**
 * The JSON body of an event (docs/webhooks.md): `{type, id, apiVersion, createdAt, link, call}`
 * for a call, `{type: "test", id, apiVersion, createdAt, message}` for a test; null when there is
 * nothing to send any more (the call is gone).
 */
export async function renderEvent(
  ctx: WebhookContext,
  message: OutboxRow,
  payload: WebhookPayload,
): Promise<string | null> {
  // A webhook message's topic is set by us from a WebhookEventType when it is enqueued.
  const type = message.topic as WebhookEventType;
  const envelope = {
    id: eventIdOf(message),
    type,
    apiVersion: WEBHOOK_API_VERSION,
    createdAt: new Date(Number(message.created_at)).toISOString(),
  };
  if (type === 'test') {
    return JSON.stringify({
      ...envelope,
      data: { message: 'A test event from Call Analytics. Your endpoint works.' },
    });
  }
  if (typeof payload.callId !== 'string') return null;
  const found = await loadCallAndClient(ctx.db, message.client_id, payload.callId);
  const detail = found ? toCallDetail(found.call) : null;
  if (!found || !detail) return null;
  // `call` is the call as GET /api/client/calls/{id} answers it; `link` opens it in the dashboard.
  return JSON.stringify({ ...envelope, link: callLink(ctx.publicUrl, found.call.id), call: detail });
}

export function webhookSender(ctx: WebhookContext) {
  return async (message: OutboxRow, payload: unknown): Promise<SendOutcome> => {
    if (!message.client_id) return { result: 'cancel', reason: 'no client' };
    const endpoint = await findWebhookEndpoint(ctx.db, ctx.secrets, message.client_id);
    if (!endpoint) return { result: 'cancel', reason: 'no webhook URL is set' };
    if (!(await readNotificationPrefs(ctx.db, message.client_id)).webhookNotifications)
      return { result: 'cancel', reason: 'webhook notifications were switched off' };
    // The worker hands over the parsed payload_json, which we wrote from a WebhookPayload.
    const body = await renderEvent(ctx, message, payload as WebhookPayload);
    if (body === null) return { result: 'cancel', reason: 'the call was deleted' };
    return postEvent(
      endpoint,
      { id: eventIdOf(message), body },
      { allowPrivate: ctx.allowPrivate, now: ctx.now() },
    );
  };
}
