/**
 * Events and their delivery, as Stripe does it: each event is stored once with an `evt_…` id;
 * deliveries POST the pretty-printed JSON (Stripe indents with two spaces, which is why receivers
 * must verify the raw bytes) with `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`
 * keyed by the endpoint secret. Deliveries go out one at a time, in order, after the API answer
 * that caused them. Stripe retries failed deliveries for days; the stand-in records the failure
 * and leaves retrying to `resend` (`POST /_sim/resend/:eventId`).
 */
import { createHmac } from 'node:crypto';
import { API_VERSION, newId, type StripeEvent } from './objects';
import type { StripeSimState, WebhookDelivery } from './state';

/** The header Stripe sends, for a payload exactly as it is put on the wire. */
export function stripeSignatureHeader(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/** The events this product's endpoint subscribes to (Stripe sends an endpoint only its enabled events). */
export const DEFAULT_ENABLED_EVENTS = [
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.payment_action_required',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
];

export interface WebhookTarget {
  url: string;
  secret: string;
  /** Event types delivered to this target; `['*']` for all. */
  enabledEvents: string[];
}

function wants(target: WebhookTarget, type: string): boolean {
  return target.enabledEvents.includes('*') || target.enabledEvents.includes(type);
}

export class WebhookDispatcher {
  target: WebhookTarget | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly state: StripeSimState,
    private readonly nowSeconds: () => number,
  ) {}

  createEvent(
    type: string,
    object: unknown,
    previousAttributes: Record<string, unknown> | undefined,
    request: { id: string | null; idempotencyKey: string | null },
  ): StripeEvent {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.nowSeconds(),
      data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
      livemode: false,
      pending_webhooks: this.target && wants(this.target, type) ? 1 : 0,
      request: { id: request.id, idempotency_key: request.idempotencyKey },
      type,
    };
    this.state.events.set(event.id, event);
    return event;
  }

  /** Queues delivery to the current target (events raised with no target are only stored). */
  enqueue(event: StripeEvent): void {
    const target = this.target;
    if (!target || !wants(target, event.type)) return;
    this.queue = this.queue.then(() => this.deliver(event, target).then(() => undefined));
  }

  /** Delivers a stored event again: same id and body, fresh timestamp and signature. */
  resend(eventId: string): Promise<WebhookDelivery> | null {
    const event = this.state.events.get(eventId);
    const target = this.target;
    if (!event || !target) return null;
    const result = this.queue.then(() => this.deliver(event, target));
    this.queue = result.then(() => undefined);
    return result;
  }

  /** Resolves once every queued delivery has been attempted. */
  async flush(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.queue;
      await current;
    } while (current !== this.queue);
  }

  private async deliver(event: StripeEvent, target: WebhookTarget): Promise<WebhookDelivery> {
    const payload = JSON.stringify(event, null, 2);
    const attempt = this.state.deliveries.filter((d) => d.eventId === event.id).length + 1;
    const delivery: WebhookDelivery = {
      eventId: event.id,
      type: event.type,
      url: target.url,
      attempt,
      at: Date.now(),
      status: null,
      ok: false,
      error: null,
    };
    try {
      const res = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          // Wall-clock time, whatever clock the stand-in runs on: receivers check it against theirs.
          'stripe-signature': stripeSignatureHeader(payload, target.secret),
        },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      delivery.status = res.status;
      delivery.ok = res.ok;
    } catch (err) {
      delivery.error = err instanceof Error ? err.message : String(err);
    }
    this.state.deliveries.push(delivery);
    return delivery;
  }
}
