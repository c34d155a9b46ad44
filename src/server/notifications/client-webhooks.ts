/**
 * Webhook notifications: the client's endpoint, its signing secret, and one POST of
 * one event. Signed the way Stripe signs: `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">`, so a receiver can refuse replays older than a few minutes. The secret is
 * sealed at rest (SecretBox) and shown to the client only when it is made.
 */
import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { WEBHOOK_SIGNATURE_HEADER } from '../../contract/integrations';
import type { SecretBox } from '../crypto/secrets';
import { randomToken } from '../crypto/secrets';
import type { Database } from '../db/schema';
import { createSafeHttp, RefusedTargetError, type SafeHttp, TargetTimeoutError } from './safe-http';
import type { SendOutcome } from './worker';

export interface WebhookEndpoint {
  url: string;
  secret: string;
  createdAt: number;
}

export const newEndpointSigningSecret = () => `whsec_${randomToken(24)}`;

export async function findWebhookEndpoint(
  db: Kysely<Database>,
  secrets: SecretBox,
  clientId: string,
): Promise<WebhookEndpoint | null> {
  const row = await db
    .selectFrom('client_webhooks')
    .selectAll()
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return null;
  return { url: row.url, secret: secrets.decrypt(row.secret_encrypted), createdAt: Number(row.created_at) };
}

/** Sets the URL; a first URL (or `rotate`) gets a new secret, which is returned this once. */
export async function saveWebhookEndpoint(
  db: Kysely<Database>,
  secrets: SecretBox,
  clientId: string,
  change: { url?: string; rotate?: boolean },
  now: number,
): Promise<{ endpoint: WebhookEndpoint; newSecret: string | null } | null> {
  const current = await findWebhookEndpoint(db, secrets, clientId);
  const url = change.url ?? current?.url;
  if (!url) return null;
  const newSecret = !current || change.rotate ? newEndpointSigningSecret() : null;
  const secret = newSecret ?? current!.secret;
  const sealed = secrets.encrypt(secret);
  await db
    .insertInto('client_webhooks')
    .values({ client_id: clientId, url, secret_encrypted: sealed, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('client_id').doUpdateSet({ url, secret_encrypted: sealed, updated_at: now }),
    )
    .execute();
  return { endpoint: { url, secret, createdAt: current?.createdAt ?? now }, newSecret };
}

export async function removeWebhookEndpoint(db: Kysely<Database>, clientId: string): Promise<void> {
  await db.deleteFrom('client_webhooks').where('client_id', '=', clientId).execute();
}

export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** The requests of each mode: one agent per process and mode (safe-http.ts). */
const clients = new Map<boolean, SafeHttp>();
export function webhookHttp(allowPrivate: boolean): SafeHttp {
  let client = clients.get(allowPrivate);
  if (!client) {
    client = createSafeHttp({ allowPrivate });
    clients.set(allowPrivate, client);
  }
  return client;
}

/**
 * Whether the URL's host resolves only to public addresses, by the rules the connection itself
 * applies. Checked when the URL is saved; every POST checks again at connect time (a name that
 * later points inside the network is refused then).
 */
export function isPublicTarget(url: string): Promise<boolean> {
  return webhookHttp(false).check(url);
}

/** One POST of one event; what the outbox makes of the answer. */
export async function postEvent(
  endpoint: WebhookEndpoint,
  event: { id: string; body: string },
  opts: { allowPrivate: boolean; now: number; http?: SafeHttp },
): Promise<SendOutcome> {
  const http = opts.http ?? webhookHttp(opts.allowPrivate);
  const t = Math.floor(opts.now / 1000);
  try {
    // A redirect could lead anywhere, private addresses included: it is an answer, and not a 2xx.
    const { status } = await http.post(endpoint.url, {
      headers: {
        'content-type': 'application/json',
        'user-agent': 'CallAnalytics-Webhooks/1',
        'webhook-id': event.id,
        [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(endpoint.secret, event.body, t),
      },
      body: event.body,
    });
    if (status >= 200 && status < 300) return { result: 'sent', statusCode: status };
    return { result: 'retry', error: `the endpoint answered ${status}`, statusCode: status };
  } catch (error) {
    // A refused address reads the same however it was reached: nothing about what is behind it.
    if (error instanceof RefusedTargetError) return { result: 'retry', error: error.message };
    const timedOut = error instanceof TargetTimeoutError && error.phase === 'response';
    return {
      result: 'retry',
      error: timedOut
        ? `no answer within ${http.responseTimeoutMs / 1000} s`
        : 'the endpoint could not be reached',
    };
  }
}
