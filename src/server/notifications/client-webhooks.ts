/**
 * Webhook notifications (issue 14): the client's endpoint, its signing secret, and one POST of
 * one event. Signed the way Stripe signs: `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">`, so a receiver can refuse replays older than a few minutes. The secret is
 * sealed at rest (SecretBox) and shown to the client only when it is made.
 */
import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { Kysely } from 'kysely';
import { WEBHOOK_SIGNATURE_HEADER } from '../../contract/integrations';
import type { SecretBox } from '../crypto/secrets';
import { randomToken } from '../crypto/secrets';
import type { Database } from '../db/schema';
import type { SendOutcome } from './worker';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookEndpoint {
  url: string;
  secret: string;
  createdAt: number;
}

export const newWebhookSecret = () => `whsec_${randomToken(24)}`;

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
  const newSecret = !current || change.rotate ? newWebhookSecret() : null;
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

/** Loopback, private, link-local (cloud metadata), carrier-grade NAT and unspecified ranges. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], 'ipv4');
  return PRIVATE.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Whether the URL's host resolves only to public addresses. Checked when the URL is saved and
 * again before every POST, so a name that later points inside the network is refused then.
 */
export async function isPublicTarget(url: string): Promise<boolean> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  try {
    const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true, verbatim: true });
    return addresses.length > 0 && addresses.every((a) => !isPrivateAddress(a.address));
  } catch {
    return false;
  }
}

/** One POST of one event; what the outbox makes of the answer. */
export async function postEvent(
  endpoint: WebhookEndpoint,
  event: { id: string; body: string },
  opts: { allowPrivate: boolean; now: number },
): Promise<SendOutcome> {
  if (!opts.allowPrivate && !(await isPublicTarget(endpoint.url)))
    return { result: 'retry', error: 'the address resolves inside a private network' };
  const t = Math.floor(opts.now / 1000);
  try {
    const res = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'CallAnalytics-Webhooks/1',
        'webhook-id': event.id,
        [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(endpoint.secret, event.body, t),
      },
      body: event.body,
      // A redirect could lead anywhere, private addresses included: it counts as a failure.
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { result: 'sent', statusCode: res.status };
    return { result: 'retry', error: `the endpoint answered ${res.status}`, statusCode: res.status };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return {
      result: 'retry',
      error: timedOut
        ? `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`
        : 'the endpoint could not be reached',
    };
  }
}
