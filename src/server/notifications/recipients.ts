/**
 * Who of a client's people gets each kind of message, and at which address. Each
 * active user whose effective choice for the channel is on (their own, or the account-wide switch
 * when they chose "default") and who holds what the message is about:
 *
 * | kind                                   | needs        | channel switch                        |
 * |----------------------------------------|--------------|---------------------------------------|
 * | call e-mail (attention, outcome)       | calls.read   | e-mail                                |
 * | call text (attention)                  | calls.read   | SMS, and a number to text             |
 * | usage, subscription ending, payments   | billing      | none: account alerts are always sent  |
 * | digest (daily, weekly)                 | reports      | e-mail                                |
 * | monthly report                         | reports      | the account's monthly-report switch,  |
 * |                                        |              | unless the user turned e-mail off     |
 *
 * E-mail goes to the user's own address; texts to their own mobile number, or for the account
 * login the account's phone number when it has none. Each address gets a message once. The
 * account login's messages keep the outbox keys they had before teams, so a client with only its
 * login gets exactly what it got before (same recipient, same count); other users' keys end in
 * `:user:<id>`. A client without any user row (created before teams, never signed in since) is
 * its own login, as before. Webhook events are the account's, not a person's: unchanged.
 */
import type { Kysely } from 'kysely';
import { isChannelOn } from '../../contract/notification-choices';
import { PERMISSIONS, type Permission } from '../../contract/teams';
import { listRecipientUsers, type UserRecipient } from '../access/notification-choices';
import type { Database } from '../db/schema';
import type { NewMessage } from './outbox';

export interface Recipient {
  /** Null: the client has no users at all; its own login, as before teams. */
  userId: string | null;
  isAccountLogin: boolean;
  email: string;
  /** Where a text goes: the user's own number, or for the account login the account's. */
  smsTo: string | null;
  notifyEmail: number | null;
  notifySms: number | null;
  permissions: readonly Permission[];
}

export interface AccountContact {
  id: string;
  email: string;
  phone_number: string | null;
}

export function recipientsOf(users: Map<string, UserRecipient[]>, client: AccountContact): Recipient[] {
  const list = users.get(client.id);
  if (!list)
    return [
      {
        userId: null,
        isAccountLogin: true,
        email: client.email,
        smsTo: client.phone_number,
        notifyEmail: null,
        notifySms: null,
        permissions: PERMISSIONS,
      },
    ];
  return list.map((u) => ({
    userId: u.userId,
    isAccountLogin: u.isAccountLogin,
    email: u.email,
    smsTo: u.smsNumber ?? (u.isAccountLogin ? client.phone_number : null),
    notifyEmail: u.notifyEmail,
    notifySms: u.notifySms,
    permissions: u.permissions,
  }));
}

/** The account login keeps the key it had before teams; anyone else's is their own. */
export function recipientKey(base: string, recipient: Recipient): string {
  return recipient.isAccountLogin ? base : `${base}:user:${recipient.userId}`;
}

/** Who of `recipients` gets a message on `channel`, each address once (the first keeps it). */
export function pickRecipients(
  recipients: Recipient[],
  channel: 'email' | 'sms',
  accepts: (r: Recipient) => boolean,
): Recipient[] {
  const seen = new Set<string>();
  return recipients.filter((r) => {
    const address = channel === 'email' ? r.email.toLowerCase() : r.smsTo;
    if (!address || seen.has(address) || !accepts(r)) return false;
    seen.add(address);
    return true;
  });
}

export const wantsEmail = (r: Recipient, accountDefault: boolean) =>
  isChannelOn(r.notifyEmail, accountDefault);
export const wantsSms = (r: Recipient, accountDefault: boolean) => isChannelOn(r.notifySms, accountDefault);
export const holds = (r: Recipient, permission: Permission) => r.permissions.includes(permission);

/** An e-mail already rendered, addressed to the client's login (`to`: its e-mail). */
interface AddressedPayload {
  to: string;
}

function isAddressed(payload: unknown): payload is AddressedPayload {
  // A type guard reads the unknown value as what it checks for: each field is tested here.
  return !!payload && typeof (payload as AddressedPayload).to === 'string';
}

/**
 * A message rendered for the client's login, copied for each recipient with their address and
 * key. Only for messages that carry no caller's number (account alerts, digests, reports): nothing
 * in them needs masking.
 */
export function copyForRecipients(message: NewMessage, recipients: Recipient[]): NewMessage[] {
  if (!isAddressed(message.payload)) return [message];
  const payload = message.payload;
  return recipients.map((r) => ({
    ...message,
    dedupeKey: recipientKey(message.dedupeKey, r),
    payload: { ...payload, to: r.email },
  }));
}

/**
 * Rendered e-mails to clients (payload.to: the client's e-mail), each sent instead to those of
 * the client's people `accepts` takes, once per address. Messages without a client pass as they are.
 */
export async function addressToPeople(
  db: Kysely<Database>,
  messages: NewMessage[],
  accepts: (recipient: Recipient) => boolean,
): Promise<NewMessage[]> {
  const ids = messages.flatMap((m) => (m.clientId ? [m.clientId] : []));
  const users = await listRecipientUsers(db, ids);
  return messages.flatMap((m) => {
    if (!m.clientId || !isAddressed(m.payload)) return [m];
    const people = recipientsOf(users, { id: m.clientId, email: m.payload.to, phone_number: null });
    return copyForRecipients(m, pickRecipients(people, 'email', accepts));
  });
}

/** Account alerts about the plan and payments: to every active holder of `billing`, always. */
export const toBillingHolders = (db: Kysely<Database>, messages: NewMessage[]) =>
  addressToPeople(db, messages, (r) => holds(r, 'billing'));
