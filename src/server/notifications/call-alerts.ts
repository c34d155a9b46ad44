/**
 * What a stored call makes the product send, decided in the transaction that stores
 * it: an e-mail when it needs attention or reaches an outcome the client asked to hear about, a
 * text when it needs attention (held through quiet hours; only to holders of `receive_texts` at a
 * verified number), and a webhook event once it is finished. One message per call, channel and
 * recipient (each of the client's people who chose it, recipients.ts), whatever
 * re-deliveries or syncs follow (dedupe keys).
 * Alerts (e-mail, text) are for calls that just happened: only a provider's delivery as the call
 * happens may send one, and only within the client's alert window after the call ended (an hour by
 * default). A sync (a new client's history), the quality backfill and re-classification never
 * alert (the last two do not pass through here). The client webhook's `call.completed` is data,
 * not an alert: every finished call is sent once, however it arrived, so the client's own
 * system holds the same calls as the dashboard.
 * Only the decision is made here; the senders render the call as it is when they send
 * (call-messages.ts), so nothing here needs the server's configuration.
 */
import type { Kysely } from 'kysely';
import { listRecipientUsers, type UserRecipient } from '../access/notification-choices';
import { readNotificationPrefsOf, type StoredNotificationPrefs } from '../account/notification-prefs';
import { attentionReasonsOf } from '../call-rows/call';
import { notificationTargetsOf } from '../clients/clients-repository';
import type { CallRow, CallSource, Database } from '../db/schema';
import type { OutcomeSet } from '../outcomes/outcomes-repository';
import { enqueue, type NewMessage } from './outbox';
import { endOfQuietHours } from './quiet-hours';
import {
  holds,
  pickRecipients,
  type Recipient,
  recipientKey,
  recipientsOf,
  wantsEmail,
  wantsSms,
} from './recipients';
import { verifiedNumbersOf } from './sms-numbers';

/** Statuses after which a call changes no more (a webhook event is sent once). */
const FINISHED = new Set(['completed', 'failed', 'transferred']);

interface ClientFacts {
  id: string;
  email: string;
  phone_number: string | null;
  timezone: string;
  onboarding_status: string;
  webhook_url: string | null;
}

/** What a call message carries: the call, why it was sent, and to whom. */
export interface CallMessagePayload {
  callId: string;
  reasons: string[];
  /**
   * The user it is for: their address and whether they see full numbers are read when it is sent.
   * Absent (messages queued before teams, clients without users): the account's own login.
   */
  userId?: string;
}

/** A call as it was written, and how it arrived (a provider's delivery, a sync, a sample). */
export interface WrittenCall {
  row: CallRow;
  arrival: CallSource;
}

/** Whether a call may still alert a person: delivered as it happened, and ended within the window. */
export function isAlertable(call: WrittenCall, windowMinutes: number, now: number): boolean {
  if (call.arrival !== 'webhook') return false;
  const endedAt = call.row.created_at + call.row.duration_seconds * 1000;
  return now - endedAt <= windowMinutes * 60_000;
}

function shouldEmail(call: CallRow, set: OutcomeSet | undefined): { attention: string[]; outcome: boolean } {
  const attention = call.handled_at == null ? attentionReasonsOf(call) : [];
  const outcome = !!set?.outcomes.find((o) => o.name === call.outcome)?.notify;
  return { attention, outcome };
}

/**
 * The messages for calls just stored or changed; rows are the calls as they are now. E-mails and
 * texts go to each of the client's people who chose them and may read calls (recipients.ts).
 */
export function callMessages(
  calls: WrittenCall[],
  clients: Map<string, ClientFacts>,
  prefs: Map<string, StoredNotificationPrefs>,
  sets: Map<string, OutcomeSet>,
  now: number,
  users: Map<string, UserRecipient[]> = new Map(),
  verifiedNumbers: Map<string, Set<string>> = new Map(),
): NewMessage[] {
  const messages: NewMessage[] = [];
  for (const written of calls) {
    const call = written.row;
    const client = clients.get(call.client_id);
    const pref = prefs.get(call.client_id);
    // Sample data, the demo tenant, unconfirmed deliveries and live calls tell no one anything.
    if (!client || !pref || client.onboarding_status === 'demo') continue;
    if (call.source === 'sample' || call.verified !== 1 || call.is_proxy !== 0 || !FINISHED.has(call.status))
      continue;
    const alertable = isAlertable(written, pref.alertWindowMinutes, now);
    const { attention, outcome } = alertable
      ? shouldEmail(call, sets.get(call.client_id))
      : { attention: [], outcome: false };
    const people = recipientsOf(users, client).filter((r) => holds(r, 'calls.read'));
    const payloadFor = (userId: string | null): CallMessagePayload => ({
      callId: call.id,
      reasons: attention,
      ...(userId ? { userId } : {}),
    });
    if (attention.length > 0 || outcome)
      for (const r of pickRecipients(people, 'email', (p) => wantsEmail(p, pref.emailNotifications)))
        messages.push({
          clientId: client.id,
          channel: 'email',
          topic: attention.length > 0 ? 'call.attention' : 'call.outcome',
          dedupeKey: recipientKey(`email:call:${call.id}`, r),
          payload: payloadFor(r.userId),
        });
    // Texts only to those allowed them, at a number verified by a code (sms-numbers.ts).
    const verified = verifiedNumbers.get(client.id);
    const textable = (p: Recipient) =>
      holds(p, 'receive_texts') &&
      !!p.smsTo &&
      !!verified?.has(p.smsTo) &&
      wantsSms(p, pref.smsNotifications);
    if (attention.length > 0)
      for (const r of pickRecipients(people, 'sms', textable))
        messages.push({
          clientId: client.id,
          channel: 'sms',
          topic: 'call.attention',
          dedupeKey: recipientKey(`sms:call:${call.id}`, r),
          payload: payloadFor(r.userId),
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
  calls: WrittenCall[],
  sets: Map<string, OutcomeSet>,
  now: number,
): Promise<number> {
  if (calls.length === 0) return 0;
  const ids = [...new Set(calls.map((c) => c.row.client_id))];
  const [clientRows, prefs, users, verified] = await Promise.all([
    notificationTargetsOf(trx, ids),
    readNotificationPrefsOf(trx, ids),
    listRecipientUsers(trx, ids),
    verifiedNumbersOf(trx, ids),
  ]);
  const clients = new Map(clientRows.map((c) => [c.id, c]));
  return enqueue(trx, callMessages(calls, clients, prefs, sets, now, users, verified), now);
}
