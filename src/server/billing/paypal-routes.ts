/**
 * PayPal purchase, the buyer's return and cancel (DESIGN §8), and POST /api/webhooks/paypal
 * (verified with PayPal's verify-webhook-signature, then handled like every payment provider's
 * event: payment-webhooks.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { BILLING_MESSAGES, PaypalPaymentBody, PaypalPaymentResponse } from '../../contract/billing';
import { currentClient, requireClient } from '../auth/guards';
import { enforceCheckoutCap } from '../http/creation-caps';
import { notFound } from '../http/errors';
import { keepRawBody, rawBodyOf } from '../http/raw-body';
import { apiDoc, received, redirect as redirectAnswer } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import type { BillingPluginOptions } from './billing-context';
import { receivePaymentWebhook } from './payment-webhooks';
import { findPaymentByProviderId } from './payments-repository';
import {
  PAYPAL_CANCEL_PATH,
  PAYPAL_RETURN_PATH,
  startPaypalPayment,
  syncPaypalSubscription,
} from './paypal-checkout';
import { findActivePlan } from './plans';

/** What PayPal posts, for the API description: the route reads it raw. */
const PAYPAL_EVENT_BODY = {
  description:
    'A PayPal webhook event, read raw and verified with PayPal (the `PAYPAL-TRANSMISSION-*` headers).',
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['id', 'event_type'],
        properties: {
          id: { type: 'string' },
          event_type: { type: 'string', example: 'BILLING.SUBSCRIPTION.ACTIVATED' },
          resource: { type: 'object' },
        },
        additionalProperties: true,
      },
    },
  },
};

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
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'Subscribe with PayPal (answers where to approve it)',
        tags: ['client'],
        ...apiDoc({ errors: [409, 429, 502, 503] }),
        body: PaypalPaymentBody,
        response: { 200: PaypalPaymentResponse },
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      const plan = await findActivePlan(db, request.body.planId);
      if (!plan) throw notFound(BILLING_MESSAGES.planNotFound);
      await enforceCheckoutCap(app.deps, reply, client.id);
      return startPaypalPayment(ctx, client, plan, request.body.amount);
    },
  );

  /** The buyer comes back from PayPal: PayPal is asked, and only ACTIVE activates. Always a redirect. */
  app.get(
    PAYPAL_RETURN_PATH,
    {
      schema: {
        summary: 'Where PayPal sends the buyer back after approving',
        tags: ['public'],
        ...apiDoc({
          responses: redirectAnswer(303, 'To the subscription settings, with the outcome in the query'),
        }),
      },
    },
    async (request, reply) => {
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
    },
  );

  // PayPal keeps an unapproved subscription pending forever; nothing of ours changes.
  app.get(
    PAYPAL_CANCEL_PATH,
    {
      schema: {
        summary: 'Where PayPal sends the buyer back after cancelling',
        tags: ['public'],
        ...apiDoc({ responses: redirectAnswer(303, 'To the subscription settings') }),
      },
    },
    async (_request, reply) => redirect(reply, SETTINGS),
  );

  await app.register(async (webhooks) => {
    keepRawBody(webhooks);
    webhooks.post(
      '/api/webhooks/paypal',
      {
        schema: {
          summary: 'Receive a PayPal event',
          tags: ['public'],
          ...apiDoc({
            errors: [400, 502, 503],
            responses: received('Handled, or already handled before (`duplicate`).'),
            rawBody: PAYPAL_EVENT_BODY,
          }),
        },
      },
      async (request) => receivePaymentWebhook(ctx, 'paypal', rawBodyOf(request.body), request.headers),
    );
  });
}

function redirect(reply: FastifyReply, to: string) {
  return reply.header('cache-control', 'no-store').redirect(to, 303);
}
