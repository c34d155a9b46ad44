/**
 * Caps on what one client or admin can create per window (sample data sets, wizard drafts, purchase
 * attempts), in the
 * database so they hold across instances. Over the cap: 429 with Retry-After, nothing created.
 */
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../context';
import { tooManyRequests } from './errors';

export interface CreationCap {
  /** Whose budget: e.g. `seed:{clientId}`, `draft:{adminId}`. */
  key: string;
  max: number;
  windowMs: number;
  /** Plural noun for the message: "sample data sets". */
  what: string;
}

export async function enforceCreationCap(
  deps: Pick<AppDeps, 'rateCounters' | 'now'>,
  reply: FastifyReply,
  cap: CreationCap,
): Promise<void> {
  const count = await deps.rateCounters.hit(`create:${cap.key}`, cap.windowMs);
  if (count <= cap.max) return;
  const windowEnd = (Math.floor(deps.now() / cap.windowMs) + 1) * cap.windowMs;
  const seconds = Math.max(1, Math.ceil((windowEnd - deps.now()) / 1000));
  reply.header('retry-after', String(seconds));
  throw tooManyRequests(
    `You can make at most ${cap.max} ${cap.what} per ${describeWindow(cap.windowMs)}. Try again later.`,
  );
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * A purchase attempt (card or PayPal) writes a payment row and creates objects at the payment
 * provider before the card is even checked, so attempts are counted per client, refused or not.
 */
export function enforceCheckoutCap(
  deps: Pick<AppDeps, 'rateCounters' | 'now' | 'config'>,
  reply: FastifyReply,
  clientId: string,
): Promise<void> {
  return enforceCreationCap(deps, reply, {
    key: `checkout:${clientId}`,
    max: deps.config.creationCaps.checkoutsPerHour,
    windowMs: HOUR_MS,
    what: 'purchase attempts',
  });
}

/** "Send test event" sends at once and "Send again" queues a send: both add a delivery row. */
export function enforceWebhookSendCap(
  deps: Pick<AppDeps, 'rateCounters' | 'now' | 'config'>,
  reply: FastifyReply,
  clientId: string,
  kind: 'test' | 'resend',
): Promise<void> {
  const { webhookTestsPerHour, webhookResendsPerHour } = deps.config.creationCaps;
  return enforceCreationCap(deps, reply, {
    key: `webhook-${kind}:${clientId}`,
    max: kind === 'test' ? webhookTestsPerHour : webhookResendsPerHour,
    windowMs: HOUR_MS,
    what: kind === 'test' ? 'test events' : 'resends',
  });
}

function describeWindow(ms: number): string {
  if (ms % (24 * 3_600_000) === 0) return ms === 24 * 3_600_000 ? 'day' : `${ms / (24 * 3_600_000)} days`;
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hour' : `${ms / 3_600_000} hours`;
  return `${Math.round(ms / 60_000)} minutes`;
}
