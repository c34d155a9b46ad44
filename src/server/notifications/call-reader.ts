/**
 * The person a call message is for, as they are when it is sent: their address, and
 * whether they see callers' numbers in full. A user deactivated, removed or no longer allowed to
 * read calls (or, for a text, to receive texts) since the message was queued gets nothing.
 * Numbers are masked as the call's answers are (access/number-masking.ts, one rule): for a user
 * without `unmask_numbers`, and for everyone while the client hides numbers until shown (a
 * message cannot offer "Show number").
 */
import type { Kysely } from 'kysely';
import { maskPhoneNumber } from '../../contract/phone-mask';
import { masksNumbersFor, numberMasker } from '../access/number-masking';
import { hasPermission } from '../access/permissions';
import { findUser } from '../clients/users-repository';
import type { CallRow, ClientRow, Database } from '../db/schema';

export interface CallReader {
  /** The e-mail address or the number to text; null: nowhere to send. */
  address: string | null;
  masked: boolean;
}

/** Null when the message should not go any more (the user is gone, inactive or may not read calls). */
export async function callReaderOf(
  db: Kysely<Database>,
  client: ClientRow,
  userId: string | undefined,
  channel: 'email' | 'sms',
): Promise<CallReader | null> {
  // No user: the account's own login (a client from before teams), as before, unless numbers are hidden.
  if (!userId)
    return {
      address: channel === 'email' ? client.email : client.phone_number,
      masked: client.hide_numbers_until_shown === 1,
    };
  const user = await findUser(db, client.id, userId);
  if (user?.status !== 'active' || !hasPermission(user, 'calls.read')) return null;
  // Texts cost money: only for those allowed them, checked again when sent.
  if (channel === 'sms' && !hasPermission(user, 'receive_texts')) return null;
  const address =
    channel === 'email'
      ? user.email
      : (user.sms_number ?? (user.is_account_login === 1 ? client.phone_number : null));
  return { address, masked: masksNumbersFor(client, user) };
}

/** A call's number as this reader may see it. */
export function numberFor(reader: Pick<CallReader, 'masked'>, number: string): string {
  return reader.masked ? maskPhoneNumber(number) : number;
}

/**
 * Free text about a call (its summary, the reasons) as this reader may see it: the caller's
 * number is masked wherever the text says it, however it is written.
 */
export function textFor(
  reader: Pick<CallReader, 'masked'>,
  call: Pick<CallRow, 'from_number' | 'to_number'>,
): (text: string) => string {
  return reader.masked ? numberMasker([call.from_number, call.to_number]) : (text) => text;
}
