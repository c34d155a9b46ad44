/**
 * What a stored call makes the product send (issue 14), decided in the transaction that stores
 * it: an e-mail when it needs attention or reaches an outcome the client asked to hear about, a
 * text when it needs attention (held through quiet hours), and a webhook event once it is
 * finished. One message per call and channel, whatever re-deliveries or syncs follow (dedupe keys).
 * Only the decision is made here; the senders render the call as it is when they send
 * (call-messages.ts), so nothing here needs the server's configuration.
 */
import type { Kysely } from 'kysely';
import { type StoredNotificationPrefs, readNotificationPrefsOf } from '../account/notification-prefs';
import { attentionReasonsOf } from '../calls/read/call-queries';
import { notificationTargetsOf } from '../clients/clients-repository';
import type { CallRow, Database } from '../db/schema';
import type { OutcomeSet } from '../outcomes/outcomes-repository';
import { type NewMessage, enqueue } from './outbox';
import { endOfQuietHours } from './quiet-hours';

/** Statuses after which a call changes no more (a webhook event is sent once). */
const FINISHED = new Set(['completed', 'failed', 'transferred']);

interface ClientFacts {
  id: string;
  phone_number: string | null;
  timezone: string;
  onboarding_status: string;
  webhook_url: string | null;
}

/** What a call message carries: the call, and why it was sent. */
export interface CallMessagePayload {
  callId: string;
  reasons: string[];
}

function shouldEmail(call: CallRow, set: OutcomeSet | undefined): { attention: string[]; outcome: boolean } {
  const attention = call.handled_at == null ? attentionReasonsOf(call) : [];
  const outcome = !!set?.outcomes.find((o) => o.name === call.outcome)?.notify;
  return { attention, outcome };
}

/** The messages for calls just stored or changed; rows are the calls as they are now. */
export function callMessages(
  calls: CallRow[],
  clients: Map<string, ClientFacts>,
  prefs: Map<string, StoredNotificationPrefs>,
  sets: Map<string, OutcomeSet>,
  now: number,
): NewMessage[] {
  const messages: NewMessage[] = [];
  for (const call of calls) {
    const client = clients.get(call.client_id);
    const pref = prefs.get(call.client_id);
    // Sample data, the demo tenant, unconfirmed deliveries and live calls tell no one anything.
    if (!client || !pref || client.onboarding_status === 'demo') continue;
    if (call.source === 'sample' || call.verified !== 1 || call.is_proxy !== 0 || !FINISHED.has(call.status))
      continue;
    const { attention, outcome } = shouldEmail(call, sets.get(call.client_id));
    if (pref.emailNotifications && (attention.length > 0 || outcome))
      messages.push({
        clientId: client.id,
        channel: 'email',
        topic: attention.length > 0 ? 'call.attention' : 'call.outcome',
        dedupeKey: `email:call:${call.id}`,
        payload: { callId: call.id, reasons: attention } satisfies CallMessagePayload,
      });
    if (pref.smsNotifications && attention.length > 0 && client.phone_number)
      messages.push({
        clientId: client.id,
        channel: 'sms',
        topic: 'call.attention',
        dedupeKey: `sms:call:${call.id}`,
        payload: { callId: call.id, reasons: attention } satisfies CallMessagePayload,
        notBefore: endOfQuietHours(now, client.timezone, pref.quietHours),
      });
    if (pref.webhookNotifications && client.webhook_url)
      messages.push({
        clientId: client.id,
        channel: 'webhook',
        topic: 'call.completed',
        dedupeKey: `webhook:call.completed:${call.id}`,
        payload: { callId: call.id, reasons: attention } satisfies CallMessagePayload,
      });
  }
  return messages;
}

/** Called by the calls repository inside the transaction that stored the calls. */
export async function enqueueCallAlerts(
  trx: Kysely<Database>,
  calls: CallRow[],
  sets: Map<string, OutcomeSet>,
  now: number,
): Promise<number> {
  if (calls.length === 0) return 0;
  const ids = [...new Set(calls.map((c) => c.client_id))];
  const [clientRows, prefs] = await Promise.all([
    notificationTargetsOf(trx, ids),
    readNotificationPrefsOf(trx, ids),
  ]);
  const clients = new Map(clientRows.map((c) => [c.id, c]));
  return enqueue(trx, callMessages(calls, clients, prefs, sets, now), now);
}
