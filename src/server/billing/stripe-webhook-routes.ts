/**
 * POST /api/webhooks/stripe (DESIGN §8): a Stripe event, verified with the endpoint's signing
 * secret over the raw body and handled like every payment provider's (payment-webhooks.ts).
 */
import type { FastifyInstance } from 'fastify';
import { keepRawBody, rawBodyOf } from '../http/raw-body';
import type { BillingPluginOptions } from './billing-context';
import { receivePaymentWebhook } from './payment-webhooks';

export default async function stripeWebhookRoutes(
  app: FastifyInstance,
  { ctx }: BillingPluginOptions,
): Promise<void> {
  keepRawBody(app);
  app.post('/api/webhooks/stripe', async (request) =>
    receivePaymentWebhook(ctx, 'stripe', rawBodyOf(request.body), request.headers),
  );
}
