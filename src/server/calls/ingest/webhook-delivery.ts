/**
 * One webhook delivery, from its bytes to the delivery log: parsed and checked by the provider,
 * confirmed, merged into the calls, logged with what became of it. The webhook route runs it for
 * what arrives; Support Tools runs it again for a stored delivery ("Replay"), with the
 * body and signature it came with, so a replay proves no more than the original delivery did.
 *
 * Refused and unconfirmed deliveries keep their body and signature headers (for the retention of
 * the delivery log), as they are the ones an admin needs to read and replay once the cause is fixed.
 */
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../context';
import type { ClientRow } from '../../db/schema';
import { LiveEvents } from '../../live/live-events';
import { loadPrivacy } from '../../privacy/privacy-settings';
import { redactKeptBody } from '../../privacy/redact-call';
import { voiceOf } from '../../providers/voice/registry';
import type { WebhookHeaders } from '../../providers/voice/types';
import { backfillPathwayName, cachedPathwayNames } from './pathways';
import { createWebhookConfirmer } from './webhook-confirmation';
import { createWebhookIngest, type DeliveryLog } from './webhook-ingest';
import type { WebhookBudget } from './webhook-rate-limit';

export interface DeliveryInput {
  client: ClientRow;
  body: Buffer;
  headers: WebhookHeaders;
  /** The delivery this one replays. */
  replayOf?: string;
  /**
   * Spends one delivery of this budget (the webhook route's per-URL limit), asked once it is known
   * whether the delivery is believed; false: over the limit, and nothing is recorded. A replay
   * spends none.
   */
  admit?: (budget: WebhookBudget) => Promise<boolean>;
}

export type DeliveryResult =
  | { kind: 'limited' }
  | { kind: 'refused'; status: 400 | 401; message: string; deliveryId: string }
  | { kind: 'event'; callId: string | null; deliveryId: string }
  | { kind: 'call'; callId: string; unverified: boolean; outcome: string; deliveryId: string };

/**
 * Bodies kept for a replay are bounded, as whoever holds a webhook URL could post anything to it
 * (the per-URL rate limit and the log's retention bound how many): a real call's body, transcript
 * included, is far smaller.
 */
export const MAX_KEPT_BODY_BYTES = 256 * 1024;

/** Headers a provider signs with; kept so a replay checks the same signature. */
const SIGNATURE_HEADER = /signature/i;

function signatureHeaders(headers: WebhookHeaders): string | null {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => SIGNATURE_HEADER.test(name)));
  return Object.keys(kept).length > 0 ? JSON.stringify(kept) : null;
}

export type ProcessDelivery = (input: DeliveryInput) => Promise<DeliveryResult>;

export function createDeliveryProcessor(
  deps: AppDeps,
  log: { warn(obj: object, msg: string): void },
): ProcessDelivery {
  const confirmer = createWebhookConfirmer(deps);
  const ingest = createWebhookIngest(deps);
  /**
   * The body to keep for a replay, when it is small enough to be worth the space, redacted with
   * the client's categories. A body redaction changed no longer matches its signature,
   * so it is kept without its signature headers: read in the log, not replayed.
   */
  const keep = async (input: DeliveryInput): Promise<Pick<DeliveryLog, 'rawBody' | 'signatureHeaders'>> => {
    if (input.body.length > MAX_KEPT_BODY_BYTES) return {};
    const body = input.body.toString('utf8');
    const kept = redactKeptBody(body, await loadPrivacy(deps.db, input.client.id));
    return { rawBody: kept, signatureHeaders: kept === body ? signatureHeaders(input.headers) : null };
  };

  async function record(
    input: DeliveryInput,
    row: Omit<DeliveryLog, 'replayOf'> & { kind: string; outcome: string; callId: string | null },
  ) {
    const id = randomUUID();
    await deps.db
      .insertInto('webhook_deliveries')
      .values({
        id,
        client_id: input.client.id,
        received_at: deps.now(),
        kind: row.kind,
        provider_call_id: row.callId,
        outcome: row.outcome,
        detail: row.detail ?? null,
        raw_body: row.rawBody ?? null,
        signature_headers: row.signatureHeaders ?? null,
        replay_of: input.replayOf ?? null,
      })
      .execute();
    return id;
  }

  return async function processDelivery(input) {
    const { client } = input;
    const voice = voiceOf(deps.voices, client);
    // What the signature is checked with: the client's signing secret, or (Retell) its API key.
    const stored = voice.signatureKey === 'apiKey' ? client.bland_api_key_enc : client.webhook_secret_enc;
    const secret = stored ? deps.secrets.decrypt(stored) : null;
    const body = voice.parseWebhook(input.body, input.headers, secret, deps.now());
    const admit = input.admit ?? (async () => true);
    // Believed without a look-up: signed (parseWebhook refuses a bad signature when there is a
    // secret), or nothing to check it with (a client being onboarded is taken at its word).
    const believed = secret !== null || !client.bland_api_key_enc;
    if (body.kind === 'unauthorized' || body.kind === 'invalid') {
      if (!(await admit('unverified'))) return { kind: 'limited' };
      const deliveryId = await record(input, {
        kind: 'invalid',
        outcome: 'refused',
        callId: null,
        detail: body.message,
        ...(await keep(input)),
      });
      return {
        kind: 'refused',
        status: body.kind === 'unauthorized' ? 401 : 400,
        message: body.message,
        deliveryId,
      };
    }
    if (body.kind === 'event') {
      if (!(await admit(believed ? 'verified' : 'unverified'))) return { kind: 'limited' };
      const deliveryId = await record(input, { kind: 'event', outcome: 'acknowledged', callId: body.callId });
      // A call in progress, for "Live now" (a replay of an old event announces nothing).
      if (body.callId && !input.replayOf) {
        const live = new LiveEvents();
        live.activity(client.id, body.callId, deps.now());
        await live.apply(deps.db, deps.now());
        deps.live.wake();
      }
      return { kind: 'event', callId: body.callId, deliveryId };
    }

    if (believed && !(await admit('verified'))) return { kind: 'limited' };
    const { call, raw, unverified, reason } = await confirmer.confirm(
      client,
      body.call,
      body.raw,
      secret !== null,
    );
    // A notification is believed once the provider confirms it (the look-ups are bounded by the
    // confirmer, so a flood costs no more than before), and spends the budget of what it proved.
    if (!believed && !(await admit(unverified ? 'unverified' : 'verified'))) return { kind: 'limited' };
    const names = call.pathwayId
      ? await cachedPathwayNames(deps, client.id, [call.pathwayId])
      : new Map<string, string>();
    const pathway = call.pathwayId ? (names.get(call.pathwayId) ?? call.pathwayId) : '';
    const written = await ingest.submit({
      client,
      call: { ...call, pathway, source: 'webhook', raw, unverified },
      receivedAt: deps.now(),
      log: {
        replayOf: input.replayOf ?? null,
        ...(unverified ? { detail: reason ?? null, ...(await keep(input)) } : {}),
      },
    });
    // An unconfirmed delivery's pathway is only a claim: no request is made with the client's key
    // for it (a flood of made-up pathway ids would each cost one); the settling sync names it.
    if (call.pathwayId && !unverified && !names.has(call.pathwayId)) {
      // Resolve the pathway's name after answering; the provider must not wait on us.
      const pathwayId = call.pathwayId;
      setImmediate(() => {
        backfillPathwayName(deps, client, pathwayId).catch((error) =>
          log.warn({ err: error }, 'pathway name lookup failed'),
        );
      });
    }
    return { kind: 'call', callId: call.providerCallId, unverified, ...written };
  };
}
