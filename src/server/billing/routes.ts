/**
 * Billing: plans, the client's subscription, card (Stripe) and wallet (PayPal) purchases and the
 * providers' webhooks. The gateways are created here once per app from the configuration.
 */
import type { FastifyInstance } from 'fastify';
import type { BillingContext } from './billing-context';
import cardRoutes from './card-routes';
import { createBillingGateways } from './gateways';
import paypalRoutes from './paypal-routes';
import planChangeRoutes from './plan-change-routes';
import stripeWebhookRoutes from './stripe-webhook-routes';
import subscriptionRoutes from './subscription-routes';

export default async function billingRoutes(app: FastifyInstance): Promise<void> {
  const ctx: BillingContext = {
    deps: app.deps,
    gateways: createBillingGateways(app.deps.config),
    log: app.log,
  };
  await app.register(subscriptionRoutes, { ctx });
  await app.register(cardRoutes, { ctx });
  await app.register(planChangeRoutes, { ctx });
  await app.register(stripeWebhookRoutes, { ctx });
  await app.register(paypalRoutes, { ctx });

  // PayPal reconciliation runs as a background job (paypal-reconcile.ts, background-jobs.ts).
}
