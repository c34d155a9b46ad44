/**
 * The outbox's e-mail channel. A call message is rendered now from the call as it is (handled
 * or deleted meanwhile: not sent); other messages (digests, reports, alerts) were rendered when
 * they were queued and are sent as they are.
 */
import type { Kysely } from 'kysely';
import type { SecretBox } from '../crypto/secrets';
import type { Database, OutboxRow } from '../db/schema';
import type { CallMessagePayload } from './call-alerts';
import { type MessageContext, callEmail, loadCallAndClient } from './call-messages';
import { callReaderOf } from './call-reader';
import type { Mailer } from '../providers/messaging/mailer';
import type { SendOutcome } from './worker';

export interface RenderedEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: { filename: string; contentBase64: string; contentType: string }[];
}

function isRendered(p: unknown): p is RenderedEmail {
  const e = p as RenderedEmail;
  return !!e && typeof e.to === 'string' && typeof e.subject === 'string' && typeof e.text === 'string';
}

/**
 * A message carrying a secret (an invitation's single-use link, issue 36) is queued sealed with
 * the app's secret box, so the database never holds the secret readable.
 */
export interface SealedEmail {
  sealed: string;
}

export function sealEmail(secrets: SecretBox, email: RenderedEmail): SealedEmail {
  return { sealed: secrets.encrypt(JSON.stringify(email)) };
}

function isSealed(p: unknown): p is SealedEmail {
  return !!p && typeof (p as SealedEmail).sealed === 'string';
}

async function emailOf(
  db: Kysely<Database>,
  message: OutboxRow,
  payload: unknown,
  ctx: MessageContext,
  secrets: SecretBox | undefined,
) {
  if (isSealed(payload)) {
    const opened: unknown = secrets ? JSON.parse(secrets.decrypt(payload.sealed)) : null;
    return isRendered(opened) ? opened : null;
  }
  if (isRendered(payload)) return payload;
  const { callId, reasons, userId } = payload as CallMessagePayload;
  if (typeof callId !== 'string') return null;
  const found = await loadCallAndClient(db, message.client_id, callId);
  if (!found) return null;
  // Handled before the e-mail left: the reason to write is gone (an outcome e-mail still goes).
  const stillWhy = found.call.handled_at === null ? reasons : [];
  if (message.topic === 'call.attention' && stillWhy.length === 0) return null;
  const reader = await callReaderOf(db, found.client, userId, 'email');
  if (!reader) return null;
  return callEmail(found.call, found.client, stillWhy, ctx, reader);
}

export function emailSender(db: Kysely<Database>, mailer: Mailer, ctx: MessageContext, secrets?: SecretBox) {
  return async (message: OutboxRow, payload: unknown): Promise<SendOutcome> => {
    const email = await emailOf(db, message, payload, ctx, secrets);
    if (!email)
      return {
        result: 'cancel',
        reason: 'nothing to send any more (the call was handled or deleted, or its reader may not read it)',
      };
    if (!email.to.includes('@')) return { result: 'cancel', reason: 'no address to send to' };
    try {
      await mailer.send({ ...email, id: message.id });
      return { result: 'sent' };
    } catch (error) {
      const e = error as { responseCode?: number; message?: string };
      // 5xx from the relay: refused for good; 4xx and network trouble: try again later.
      if (e.responseCode && e.responseCode >= 500)
        return { result: 'cancel', reason: `refused by the mail server: ${e.message ?? e.responseCode}` };
      return { result: 'retry', error: e.message ?? String(error) };
    }
  };
}
