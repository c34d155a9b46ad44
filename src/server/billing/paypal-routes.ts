/**
 * PayPal purchase, the buyer's return and cancel (DESIGN §8), and POST /api/webhooks/paypal
 * (verified with PayPal's verify-webhook-signature; replayed event ids ignored).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { BILLING_MESSAGES, PaypalPaymentBody, PaypalPaymentResponse } from '../../contract/billing';
import { currentClient, requireClient } from '../auth/guards';
import { enforceCheckoutCap } from '../creation-caps';
import { badRequest, notFound, serviceUnavailable } from '../errors';
import type { ZodTypeProvider } from '../route-schemas';
import { isPaymentError } from '../providers/payments/errors';
import {
  PAYPAL_CANCEL_PATH,
  PAYPAL_RETURN_PATH,
  startPaypalPayment,
  syncPaypalSubscription,
} from './paypal-checkout';
import { findActivePlan } from './plans';
import { findPaymentByProviderId } from './payments-repository';
import { isEventHandled, recordEventHandled } from './provider-events';
import { keepRawBody, rawBodyOf } from '../raw-body';
import type { BillingPluginOptions } from './billing-context';
import { queuePaymentAlerts } from './payment-action';
import { findByPaypalSubscription } from './subscriptions-repository';

const SETTINGS = '/settings?tab=subscription';
const ReturnQuery = z.object({ subscription_id: z.string().trim().min(1).max(100).optional() });

export default async function paypalRoutes(
  fastify: FastifyInstance,
  { ctx }: BillingPluginOptions,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;

  app.post(
    '/api/client/process-paypal-payment',
    { schema: { body: PaypalPaymentBody, response: { 200: PaypalPaymentResponse } } },
    async (request, reply) => {
      const client = requireClient(request);
      const plan = await findActivePlan(db, request.body.planId);
      if (!plan) throw notFound(BILLING_MESSAGES.planNotFound);
      await enforceCheckoutCap(app.deps, reply, client.id);
      return startPaypalPayment(ctx, client, plan, request.body.amount);
    },
  );

  /** The buyer comes back from PayPal: PayPal is asked, and only ACTIVE activates. Always a redirect. */
  app.get(PAYPAL_RETURN_PATH, async (request, reply) => {
    const query = ReturnQuery.safeParse(request.query);
    const subscriptionId = query.success ? query.data.subscription_id : undefined;
    const paypal = ctx.gateways.paypal;
    if (!subscriptionId || !paypal) return redirect(reply, SETTINGS);
    const attempt = await findPaymentByProviderId(db, 'paypal', subscriptionId);
    if (!attempt) return redirect(reply, SETTINGS);
    try {
      const activatedFor = await syncPaypalSubscription(ctx, await paypal.getSubscription(subscriptionId));
      const viewer = await currentClient(app, request);
      if (activatedFor && viewer?.id === activatedFor) return redirect(reply, `${SETTINGS}&success=true`);
      return redirect(reply, `${SETTINGS}&paypal=pending`);
    } catch (error) {
      request.log.warn({ err: error }, 'PayPal return could not be confirmed');
      return redirect(reply, `${SETTINGS}&paypal=error`);
    }
  });

  // PayPal keeps an unapproved subscription pending forever; nothing of ours changes.
  app.get(PAYPAL_CANCEL_PATH, async (_request, reply) => redirect(reply, SETTINGS));

  await app.register(async (webhooks) => {
    keepRawBody(webhooks);
    webhooks.post('/api/webhooks/paypal', async (request) => {
      const paypal = ctx.gateways.paypal;
      if (!paypal || !app.deps.config.paypal.webhookId)
        throw serviceUnavailable('PayPal webhooks are not configured');
      const raw = rawBodyOf(request.body);
      const verified = await paypal.verifyWebhook(request.headers, raw);
      if (!verified) throw badRequest('Invalid webhook signature.');
      const event = parseEvent(raw);
      if (!event) throw badRequest('Invalid webhook event');
      if (await isEventHandled(db, 'paypal', event.id)) return { received: true, duplicate: true };
      if (event.subscriptionId) {
        try {
          await syncPaypalSubscription(ctx, await paypal.getSubscription(event.subscriptionId));
        } catch (error) {
          if (!(isPaymentError(error) && error.kind === 'not_found')) throw error;
        }
      }
      if (event.type === 'BILLING.SUBSCRIPTION.PAYMENT.FAILED' && event.subscriptionId) {
        const row = await findByPaypalSubscription(db, event.subscriptionId);
        if (row)
          await queuePaymentAlerts(ctx, row.client_id, {
            kind: 'failed',
            key: `paypal:${event.id}`,
            amount: null,
          });
      }
      await recordEventHandled(db, 'paypal', event.id, app.deps.now());
      return { received: true };
    });
  });
}

function redirect(reply: FastifyReply, to: string) {
  return reply.header('cache-control', 'no-store').redirect(to, 303);
}

/** The event id and the subscription it concerns (subscription events, and sales of a subscription). */
function parseEvent(raw: Buffer): { id: string; type: string; subscriptionId: string | null } | null {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
  const event = body as { id?: unknown; event_type?: unknown; resource?: Record<string, unknown> };
  if (typeof event.id !== 'string' || typeof event.event_type !== 'string') return null;
  const resource = event.resource ?? {};
  let subscriptionId: unknown = null;
  if (event.event_type.startsWith('BILLING.SUBSCRIPTION.')) subscriptionId = resource.id;
  else if (event.event_type.startsWith('PAYMENT.SALE.')) subscriptionId = resource.billing_agreement_id;
  return {
    id: event.id,
    type: event.event_type,
    subscriptionId: typeof subscriptionId === 'string' ? subscriptionId : null,
  };
}
