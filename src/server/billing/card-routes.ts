/** Card payments (SPEC §7, DESIGN §8): purchase, 3-D Secure confirmation, replacing the card. */
import type { FastifyInstance } from 'fastify';
import {
  BILLING_MESSAGES,
  ConfirmStripePaymentBody,
  PaymentMethodBody,
  type PaymentMethodResponse,
  StripePaymentBody,
  type StripePaymentResponse,
} from '../../contract/billing';
import { requireClient } from '../auth/guards';
import { notFound, parseInput } from '../errors';
import { confirmCardPayment, processCardPayment, replaceCard } from './card-checkout';
import { asHttpError } from './gateways';
import { findActivePlan } from './plans';
import type { BillingPluginOptions } from './billing-context';

export default async function cardRoutes(app: FastifyInstance, { ctx }: BillingPluginOptions): Promise<void> {
  const { db } = app.deps;

  const planOr404 = async (id: string) => {
    const plan = await findActivePlan(db, id);
    if (!plan) throw notFound(BILLING_MESSAGES.planNotFound);
    return plan;
  };

  app.post('/api/client/process-stripe-payment', async (request): Promise<StripePaymentResponse> => {
    const client = await requireClient(app, request);
    const body = parseInput(StripePaymentBody, request.body);
    const plan = await planOr404(body.planId);
    try {
      return await processCardPayment(ctx, client, plan, body.paymentMethodId);
    } catch (error) {
      throw asHttpError(error, request.log);
    }
  });

  app.post('/api/client/confirm-stripe-payment', async (request): Promise<StripePaymentResponse> => {
    const client = await requireClient(app, request);
    const body = parseInput(ConfirmStripePaymentBody, request.body);
    const plan = await planOr404(body.planId);
    try {
      return await confirmCardPayment(ctx, client, plan, body.paymentMethodId);
    } catch (error) {
      throw asHttpError(error, request.log);
    }
  });

  app.put('/api/client/payment-method', async (request): Promise<PaymentMethodResponse> => {
    const client = await requireClient(app, request);
    const body = parseInput(PaymentMethodBody, request.body);
    try {
      return { success: true, paymentMethod: await replaceCard(ctx, client, body.paymentMethodId) };
    } catch (error) {
      throw asHttpError(error, request.log);
    }
  });
}
