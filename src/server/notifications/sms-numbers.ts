/**
 * The numbers a client's texts may go to, and what each text costs the client's daily budget.
 * Every text costs the agency money and some numbers cost far more (premium, shared-cost,
 * satellite), so a number gets texts only when:
 * - its kind is one a person carries: MOBILE or FIXED_LINE_OR_MOBILE by libphonenumber's full
 *   metadata; premium-rate, shared-cost, the international networks (+870, +881, +882, +883 and
 *   the other non-geographic codes) and every other kind are refused with a message saying why;
 * - someone of the client proved it is theirs: a 6-digit code texted to it was confirmed within
 *   ten minutes and five tries (`sms_numbers`, 034; numbers stored before that start unverified);
 * - the client has texts left today: TEXTS_PER_CLIENT_PER_DAY (UTC day) across all instances,
 *   codes included; past it nothing is sent, the message is cancelled with the reason, and the
 *   agency (ADMIN_EMAIL) is told once that day.
 * Who may get texts at all is the `receive_texts` permission (recipients.ts, call-reader.ts).
 * This module owns the `sms_numbers` table; it sends nothing itself.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { SMS_NUMBER_MESSAGES } from '../../contract/notification-choices';
import { findClient } from '../clients/clients-repository';
import type { AppDeps } from '../context';
import { sha256Hex } from '../crypto/secrets';
import type { Database } from '../db/schema';
import type { EmailContent, QueuedEmail } from './email-layout';
import { enqueue } from './outbox';

export const SMS_CODE_TTL_MS = 10 * 60 * 1000;
export const SMS_CODE_ATTEMPTS = 5;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Why texts may not go to `number` (E.164), or null when it is a kind a person carries. */
export function textableNumberProblem(number: string): string | null {
  const parsed = parsePhoneNumberFromString(number);
  if (!parsed) return SMS_NUMBER_MESSAGES.invalid;
  // Satellite and international networks first: many of their numbers do not even parse as valid.
  if (parsed.isNonGeographic()) return SMS_NUMBER_MESSAGES.international;
  const type = parsed.getType();
  if (type === 'PREMIUM_RATE') return SMS_NUMBER_MESSAGES.premium;
  if (type === 'SHARED_COST') return SMS_NUMBER_MESSAGES.sharedCost;
  if (!parsed.isValid()) return SMS_NUMBER_MESSAGES.invalid;
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return SMS_NUMBER_MESSAGES.notMobile;
  return null;
}

/** The verified numbers of several clients (one query). */
export async function verifiedNumbersOf(
  db: Kysely<Database>,
  clientIds: string[],
): Promise<Map<string, Set<string>>> {
  const byClient = new Map<string, Set<string>>();
  if (clientIds.length === 0) return byClient;
  const rows = await db
    .selectFrom('sms_numbers')
    .select(['client_id', 'number'])
    .where('client_id', 'in', [...new Set(clientIds)])
    .where('verified_at', 'is not', null)
    .execute();
  for (const row of rows) {
    const set = byClient.get(row.client_id) ?? new Set<string>();
    set.add(row.number);
    byClient.set(row.client_id, set);
  }
  return byClient;
}

export interface SmsNumberState {
  verified: boolean;
  /** A code was sent and can still be confirmed. */
  codePending: boolean;
}

export async function smsNumberState(
  db: Kysely<Database>,
  clientId: string,
  number: string | null,
  now: number,
): Promise<SmsNumberState> {
  if (!number) return { verified: false, codePending: false };
  const row = await db
    .selectFrom('sms_numbers')
    .select(['verified_at', 'code_hash', 'code_expires_at', 'code_attempts_left'])
    .where('client_id', '=', clientId)
    .where('number', '=', number)
    .executeTakeFirst();
  return {
    verified: row?.verified_at != null,
    codePending: !!row?.code_hash && Number(row.code_expires_at) > now && Number(row.code_attempts_left) > 0,
  };
}

const codeHash = (clientId: string, number: string, code: string) =>
  sha256Hex(`sms-code:${clientId}:${number}:${code}`);

/** A new code for `number` (any earlier one stops working); answers the code to text. */
export async function startVerification(
  db: Kysely<Database>,
  clientId: string,
  number: string,
  now: number,
): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const pending = {
    code_hash: codeHash(clientId, number, code),
    code_expires_at: now + SMS_CODE_TTL_MS,
    code_attempts_left: SMS_CODE_ATTEMPTS,
    updated_at: now,
  };
  await db
    .insertInto('sms_numbers')
    .values({ client_id: clientId, number, verified_at: null, verified_by: null, ...pending })
    .onConflict((oc) => oc.columns(['client_id', 'number']).doUpdateSet(pending))
    .execute();
  return code;
}

export type ConfirmResult = 'verified' | 'wrong' | 'none';

/**
 * Checks `code` for `number`. Each try spends one attempt first (one statement, so two instances
 * cannot both try the last one); a code expired or out of attempts is as good as none.
 */
export async function confirmCode(
  db: Kysely<Database>,
  clientId: string,
  number: string,
  code: string,
  userId: string,
  now: number,
): Promise<ConfirmResult> {
  const spent = await db
    .updateTable('sms_numbers')
    .set((eb) => ({ code_attempts_left: eb('code_attempts_left', '-', 1), updated_at: now }))
    .where('client_id', '=', clientId)
    .where('number', '=', number)
    .where('code_hash', 'is not', null)
    .where('code_expires_at', '>', now)
    .where('code_attempts_left', '>', 0)
    .returning(['code_hash'])
    .executeTakeFirst();
  if (!spent?.code_hash) return 'none';
  const given = Buffer.from(codeHash(clientId, number, code));
  if (!timingSafeEqual(given, Buffer.from(spent.code_hash))) return 'wrong';
  await markVerified(db, clientId, number, userId, now);
  return 'verified';
}

/** Texts may go to `number` from now on (a confirmed code; tests set one up directly). */
export async function markVerified(
  db: Kysely<Database>,
  clientId: string,
  number: string,
  userId: string | null,
  now: number,
): Promise<void> {
  const verified = {
    verified_at: now,
    verified_by: userId,
    code_hash: null,
    code_expires_at: null,
    code_attempts_left: 0,
    updated_at: now,
  };
  await db
    .insertInto('sms_numbers')
    .values({ client_id: clientId, number, ...verified })
    .onConflict((oc) => oc.columns(['client_id', 'number']).doUpdateSet(verified))
    .execute();
}

const utcDay = (now: number) => new Date(now).toISOString().slice(0, 10);
const budgetKey = (clientId: string, now: number) => `texts:${clientId}:${utcDay(now)}`;

type BudgetDeps = Pick<AppDeps, 'db' | 'config' | 'rateCounters' | 'now'>;

/**
 * Takes one text from the client's budget for today. False: the budget is spent, nothing may be
 * sent, and the agency has been told (once a day: the alert's dedupe key).
 */
export async function spendText(deps: BudgetDeps, clientId: string): Promise<boolean> {
  const now = deps.now();
  const cap = deps.config.textsPerClientPerDay;
  const count = await deps.rateCounters.hit(budgetKey(clientId, now), DAY_MS);
  if (count <= cap) return true;
  // Refused texts do not count: the figure stays at the cap.
  await deps.rateCounters.release(budgetKey(clientId, now), DAY_MS);
  await alertAgency(deps, clientId, now);
  return false;
}

/** A text that was not sent after all (Twilio refused or failed): its budget back. */
export function refundText(deps: BudgetDeps, clientId: string, spentAt: number): Promise<void> {
  return deps.rateCounters.release(budgetKey(clientId, spentAt), DAY_MS);
}

async function alertAgency(deps: BudgetDeps, clientId: string, now: number): Promise<void> {
  const admin = deps.config.mail.adminEmail;
  if (!admin) return;
  const cap = deps.config.textsPerClientPerDay;
  const client = await findClient(deps.db, clientId);
  const name = client?.company_name || client?.email || clientId;
  const url = `${deps.config.publicUrl.replace(/\/$/, '')}/admin/client/${encodeURIComponent(clientId)}`;
  const content: EmailContent = {
    heading: `${name} reached its ${cap} texts for today`,
    lines: [
      `${name} has been sent ${cap} texts today (UTC), the most TEXTS_PER_CLIENT_PER_DAY allows. Further texts today are not sent.`,
      'Many texts in a day can mean misuse (texts to costly numbers); look at the client’s calls and people.',
    ],
    action: { label: 'Open the client', url },
    footer: 'Sent to the agency (ADMIN_EMAIL) once a day per client while it lasts.',
  };
  await enqueue(
    deps.db,
    [
      {
        clientId,
        channel: 'email',
        topic: 'admin.texts-cap',
        dedupeKey: `email:texts-cap:${clientId}:${utcDay(now)}`,
        payload: { to: admin, subject: content.heading, content } satisfies QueuedEmail,
      },
    ],
    now,
  );
}
