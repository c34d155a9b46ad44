/**
 * Card payments (SPEC §7, DESIGN §8): purchase, 3-D Secure confirmation, replacing the card
 * (through a SetupIntent), and completing a renewal the bank wants authenticated.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  BILLING_MESSAGES,
  ConfirmStripePaymentBody,
  PaymentAction,
  PaymentMethodBody,
  PaymentMethodResponse,
  SetupIntentResponse,
  StripePaymentBody,
  StripePaymentResponse,
} from '../../contract/billing';
import { requireClient } from '../auth/guards';
import { enforceCheckoutCap } from '../http/creation-caps';
import { notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/route-schemas';
import type { BillingPluginOptions } from './billing-context';
import { confirmCardPayment, processCardPayment, replaceCard, setUpNewCard } from './card-checkout';
import { confirmPaymentAction, pendingPaymentAction } from './payment-action';

const PaymentMethodConfirmed = z.object({ success: z.literal(true) });

import { apiDoc } from '../http/route-docs';
import { findActivePlan } from './plans';

// Provider failures (a declined card, Stripe unreachable) reach the app's error handler as
// PaymentError and are answered there (app.ts), the same way for every route.
export default async function cardRoutes(
  fastify: FastifyInstance,
  { ctx }: BillingPluginOptions,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;

  const planOr404 = async (id: string) => {
    const plan = await findActivePlan(db, id);
    if (!plan) throw notFound(BILLING_MESSAGES.planNotFound);
    return plan;
  };

  app.post(
    '/api/client/process-stripe-payment',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'Subscribe with a card',
        tags: ['client'],
        ...apiDoc({ errors: [402, 404, 409, 429, 502, 503] }),
        body: StripePaymentBody,
        response: { 200: StripePaymentResponse },
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      const plan = await planOr404(request.body.planId);
      await enforceCheckoutCap(app.deps, reply, client.id);
      return processCardPayment(ctx, client, plan, request.body.paymentMethodId);
    },
  );

  app.post(
    '/api/client/confirm-stripe-payment',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'Confirm a card payment the bank authenticated',
        tags: ['client'],
        ...apiDoc({ errors: [402, 404, 409, 502, 503] }),
        body: ConfirmStripePaymentBody,
        response: { 200: StripePaymentResponse },
      },
    },
    async (request) => {
      const plan = await planOr404(request.body.planId);
      return confirmCardPayment(ctx, requireClient(request), plan, request.body.paymentMethodId);
    },
  );

  app.put(
    '/api/client/payment-method',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'Replace the card',
        tags: ['client'],
        ...apiDoc({ errors: [402, 404, 502, 503] }),
        body: PaymentMethodBody,
        response: { 200: PaymentMethodResponse },
      },
    },
    async (request) => ({
      success: true as const,
      paymentMethod: await replaceCard(ctx, requireClient(request), request.body),
    }),
  );

  app.post(
    '/api/client/payment-method/setup-intent',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'Start adding a card',
        tags: ['client'],
        ...apiDoc({ errors: [402, 404, 502, 503] }),
        response: { 200: SetupIntentResponse },
      },
    },
    async (request) => ({ clientSecret: await setUpNewCard(ctx, requireClient(request)) }),
  );

  app.get(
    '/api/client/payment-action',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'A payment that waits for the card holder, if any',
        tags: ['client'],
        ...apiDoc({ errors: [404] }),
        response: { 200: PaymentAction },
      },
    },
    async (request) => pendingPaymentAction(ctx, requireClient(request)),
  );

  app.post(
    '/api/client/payment-action/confirm',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'Confirm a payment that waited for the card holder',
        tags: ['client'],
        ...apiDoc({ errors: [402, 404, 409, 502, 503] }),
        response: { 200: PaymentMethodConfirmed },
      },
    },
    async (request) => {
      await confirmPaymentAction(ctx, requireClient(request));
      return { success: true as const };
    },
  );
}
