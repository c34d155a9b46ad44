/**
 * The outbox's text channel: a call message rendered now for its reader, sent through Twilio.
 * It names the agency as its brand is when it is sent, like the e-mail channel.
 * A text goes only to a verified number and within the client's daily budget (sms-numbers.ts);
 * otherwise it is cancelled with the reason, which the outbox row keeps.
 */
import { loadBrand } from '../brand/brand-store';
import type { AppDeps } from '../context';
import type { OutboxRow } from '../db/schema';
import { type TwilioClient, TwilioError } from '../providers/messaging/twilio';
import type { CallMessagePayload } from './call-alerts';
import { callText, loadCallAndClient } from './call-messages';
import { callReaderOf } from './call-reader';
import { refundText, smsNumberState, spendText } from './sms-numbers';
import type { SendOutcome } from './worker';

export function smsSender(
  deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'rateCounters' | 'brandCache'>,
  twilio: TwilioClient,
) {
  const { db } = deps;
  return async (message: OutboxRow, payload: unknown): Promise<SendOutcome> => {
    // An SMS is only ever enqueued from a CallMessagePayload; its callId is checked next.
    const { callId, reasons, userId } = payload as CallMessagePayload;
    const found = typeof callId === 'string' ? await loadCallAndClient(db, message.client_id, callId) : null;
    if (!found || found.call.handled_at !== null)
      return { result: 'cancel', reason: 'nothing to send any more (the call was handled or deleted)' };
    const reader = await callReaderOf(db, found.client, userId, 'sms');
    if (!reader)
      return { result: 'cancel', reason: 'its reader is no longer an active user who may get texts' };
    if (!reader.address) return { result: 'cancel', reason: 'the client has no phone number' };
    const { verified } = await smsNumberState(db, found.client.id, reader.address, deps.now());
    if (!verified)
      return { result: 'cancel', reason: 'not sent: the number has not been verified with a code' };
    const spentAt = deps.now();
    if (!(await spendText(deps, found.client.id)))
      return {
        result: 'cancel',
        reason: `not sent: the client's texts for today (${deps.config.textsPerClientPerDay}, TEXTS_PER_CLIENT_PER_DAY) are used up`,
      };
    const brand = await loadBrand(deps);
    const ctx = { publicUrl: deps.config.publicUrl, brand: brand.settings.name };
    try {
      await twilio.sendSms(reader.address, callText(found.call, reasons, ctx, reader));
      return { result: 'sent', statusCode: 201 };
    } catch (error) {
      await refundText(deps, found.client.id, spentAt);
      if (error instanceof TwilioError && error.permanent)
        return {
          result: 'cancel',
          reason: `Twilio refused it (${error.code ?? error.status}): ${error.message}`,
        };
      return {
        result: 'retry',
        error: error instanceof Error ? error.message : String(error),
        statusCode: error instanceof TwilioError ? error.status : undefined,
      };
    }
  };
}
