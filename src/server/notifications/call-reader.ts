/**
 * The person a call message is for, as they are when it is sent (issue 36): their address, and
 * whether they see callers' numbers in full. A user deactivated, removed or no longer allowed to
 * read calls since the message was queued gets nothing. Numbers are masked for a user without
 * `unmask_numbers`, and for everyone while the client hides numbers until shown (a message cannot
 * offer "Show number").
 */
import type { Kysely } from 'kysely';
import { maskPhoneNumber } from '../../contract/phone-mask';
import { hasPermission } from '../auth/permissions';
import { findUser } from '../clients/users-repository';
import type { ClientRow, Database } from '../db/schema';

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
  // The `in` test: the privacy switch arrives with migration 024 (H1's part of issue 36).
  const hidden = 'hide_numbers_until_shown' in client && client.hide_numbers_until_shown === 1;
  if (!userId) return { address: channel === 'email' ? client.email : client.phone_number, masked: hidden };
  const user = await findUser(db, client.id, userId);
  if (user?.status !== 'active' || !hasPermission(user, 'calls.read')) return null;
  const address =
    channel === 'email'
      ? user.email
      : (user.sms_number ?? (user.is_account_login === 1 ? client.phone_number : null));
  return { address, masked: hidden || !hasPermission(user, 'unmask_numbers') };
}

/** Anything in free text that looks like a phone number (7 or more digits, as people write them). */
const PHONE_LIKE = /\+?\d[\d\s().-]{5,}\d/g;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A caller's number as this reader may see it. */
export function numberFor(reader: Pick<CallReader, 'masked'>, number: string): string {
  return reader.masked ? maskPhoneNumber(number) : number;
}

/**
 * Free text (a summary, a reason) as this reader may see it: a caller may say their number, and
 * a summary may repeat it.
 */
export function textFor(reader: Pick<CallReader, 'masked'>, text: string): string {
  if (!reader.masked) return text;
  return text.replace(PHONE_LIKE, (match) => {
    const digits = match.replace(/\D/g, '').length;
    // A date (2026-06-10) is not a number to hide.
    return digits < 7 || ISO_DATE.test(match.trim()) ? match : maskPhoneNumber(match.trim());
  });
}
