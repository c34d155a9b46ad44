/**
 * The outbox's e-mail channel. Every e-mail is rendered here, when it is sent, with the agency's
 * brand as it is then (loadBrand, cached a few seconds): a call message from the call
 * as it is (handled or deleted meanwhile: not sent); other messages (digests, reports, alerts,
 * invitations) from the content queued with them (`QueuedEmail`). Rendering at send time rather
 * than at enqueue is what lets a message queued before a brand change (quiet hours, a retry, a
 * relay that was down) go out under the new name, logo and colours. Messages queued by an older
 * version as finished HTML and text (`RenderedEmail`) are sent as they are.
 * The From header's display name and Reply-To come from the brand too; the address stays MAIL_FROM.
 */
import type { Kysely } from 'kysely';
import { type LoadedBrand, loadBrand } from '../brand/brand-store';
import type { AppDeps } from '../context';
import type { SecretBox } from '../crypto/secrets';
import type { Database, OutboxRow } from '../db/schema';
import { type Mailer, mailFromName } from '../providers/messaging/mailer';
import type { CallMessagePayload } from './call-alerts';
import { callEmail, loadCallAndClient } from './call-messages';
import { callReaderOf } from './call-reader';
import { emailBrandOf, type QueuedEmail, renderQueuedEmail } from './email-layout';
import type { SendOutcome } from './worker';

export interface RenderedEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: { filename: string; contentBase64: string; contentType: string }[];
}

function isRendered(p: unknown): p is RenderedEmail {
  // A type guard reads the unknown value as what it checks for: each field is tested here.
  const e = p as RenderedEmail;
  return !!e && typeof e.to === 'string' && typeof e.subject === 'string' && typeof e.text === 'string';
}

function isQueued(p: unknown): p is QueuedEmail {
  // A type guard reads the unknown value as what it checks for: each field is tested here.
  const e = p as QueuedEmail;
  return (
    !!e &&
    typeof e.to === 'string' &&
    typeof e.subject === 'string' &&
    !!e.content &&
    typeof e.content.heading === 'string'
  );
}

/**
 * A message carrying a secret (an invitation's single-use link) is queued sealed with
 * the app's secret box, so the database never holds the secret readable.
 */
export interface SealedEmail {
  sealed: string;
}

export function sealEmail(secrets: SecretBox, email: QueuedEmail): SealedEmail {
  return { sealed: secrets.encrypt(JSON.stringify(email)) };
}

function isSealed(p: unknown): p is SealedEmail {
  // A type guard reads the unknown value as what it checks for: each field is tested here.
  return !!p && typeof (p as SealedEmail).sealed === 'string';
}

async function emailOf(
  db: Kysely<Database>,
  message: OutboxRow,
  payload: unknown,
  publicUrl: string,
  secrets: SecretBox | undefined,
): Promise<QueuedEmail | RenderedEmail | null> {
  if (isSealed(payload)) {
    const opened: unknown = secrets ? JSON.parse(secrets.decrypt(payload.sealed)) : null;
    return isQueued(opened) || isRendered(opened) ? opened : null;
  }
  if (isQueued(payload) || isRendered(payload)) return payload;
  // Not an e-mail, so a call message, enqueued by us from a CallMessagePayload; callId is checked next.
  const { callId, reasons, userId } = payload as CallMessagePayload;
  if (typeof callId !== 'string') return null;
  const found = await loadCallAndClient(db, message.client_id, callId);
  if (!found) return null;
  // Handled before the e-mail left: the reason to write is gone (an outcome e-mail still goes).
  const stillWhy = found.call.handled_at === null ? reasons : [];
  if (message.topic === 'call.attention' && stillWhy.length === 0) return null;
  const reader = await callReaderOf(db, found.client, userId, 'email');
  if (!reader) return null;
  return callEmail(found.call, found.client, stillWhy, { publicUrl }, reader);
}

/**
 * The From header's name: the brand's sender name, else its name. Until a brand is saved, a name
 * written in MAIL_FROM ("Acme Alerts <alerts@acme.example>") is kept, so an installation that
 * named its sender there does not change its mail when it upgrades.
 */
export function senderNameOf(brand: LoadedBrand, mailFrom: string): string {
  if (brand.settings.emailSenderName) return brand.settings.emailSenderName;
  if (!brand.saved) return mailFromName(mailFrom) ?? brand.settings.name;
  return brand.settings.name;
}

export function emailSender(
  deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'secrets' | 'brandCache'>,
  mailer: Mailer,
) {
  const { db, config, secrets } = deps;
  return async (message: OutboxRow, payload: unknown): Promise<SendOutcome> => {
    const found = await emailOf(db, message, payload, config.publicUrl, secrets);
    if (!found)
      return {
        result: 'cancel',
        reason: 'nothing to send any more (the call was handled or deleted, or its reader may not read it)',
      };
    if (!found.to.includes('@')) return { result: 'cancel', reason: 'no address to send to' };
    // A failed brand read throws: the worker retries the message, it is not sent unbranded.
    const brand = await loadBrand(deps);
    const email: RenderedEmail = isQueued(found)
      ? renderQueuedEmail(found, emailBrandOf(brand, config.publicUrl))
      : found;
    try {
      await mailer.send({
        ...email,
        id: message.id,
        fromName: senderNameOf(brand, config.mail.from),
        replyTo: brand.settings.emailReplyTo,
      });
      return { result: 'sent' };
    } catch (error) {
      // nodemailer's errors carry the relay's responseCode; other errors read it as undefined.
      const e = error as { responseCode?: number; message?: string };
      // 5xx from the relay: refused for good; 4xx and network trouble: try again later.
      if (e.responseCode && e.responseCode >= 500)
        return { result: 'cancel', reason: `refused by the mail server: ${e.message ?? e.responseCode}` };
      return { result: 'retry', error: e.message ?? String(error) };
    }
  };
}
