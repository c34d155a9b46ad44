/**
 * The client's subscription and the plans (SPEC §7 "Client account and subscription", DESIGN §6
 * [12]), plus GET /api/billing/config for the checkout page.
 */
import type { FastifyInstance } from 'fastify';
import {
  BILLING_MESSAGES,
  BillingConfig,
  CancelSubscriptionResponse,
  Plans,
  Subscription,
} from '../../contract/billing';
import { requireClient } from '../auth/guards';
import { minutesUsedThisMonth } from '../call-rows/usage';
import type { ClientRow } from '../db/schema';
import { notFound } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import type { BillingPluginOptions } from './billing-context';
import { cancelAtPeriodEnd } from './cancellation';
import { findPlan, listActivePlans, toPlan } from './plans';
import { findSubscription, isEnded, toSubscription } from './subscriptions-repository';

export default async function subscriptionRoutes(
  fastify: FastifyInstance,
  { ctx }: BillingPluginOptions,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;

  /** The client's live subscription as the API shows it; null once it has ended or never existed. */
  async function currentSubscription(client: ClientRow): Promise<Subscription | null> {
    const row = await findSubscription(db, client.id);
    if (!row || isEnded(row, now())) return null;
    const [plan, minutes] = await Promise.all([
      findPlan(db, row.plan_id),
      minutesUsedThisMonth(db, client, now()),
    ]);
    if (!plan) return null;
    return toSubscription(row, plan, minutes, now());
  }

  app.get(
    '/api/client/subscription',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'The subscription, its plan and usage',
        tags: ['client'],
        response: { 200: Subscription.nullable() },
      },
    },
    async (request, reply) => {
      const subscription = await currentSubscription(requireClient(request));
      // JSON null, not an empty body: "no subscription" is an answer, not an error.
      return reply.type('application/json').send(subscription);
    },
  );

  app.get(
    '/api/client/subscription-plans',
    {
      config: { permission: 'billing' },
      schema: { summary: 'The plans on offer', tags: ['client'], response: { 200: Plans } },
    },
    async () => (await listActivePlans(db)).map(toPlan),
  );

  app.post(
    '/api/client/subscription/cancel',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'Cancel at the end of the period',
        tags: ['client'],
        ...apiDoc({ errors: [404, 409] }),
        response: { 200: CancelSubscriptionResponse },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const row = await findSubscription(db, client.id);
      if (!row || isEnded(row, now())) throw notFound(BILLING_MESSAGES.noSubscription);
      await cancelAtPeriodEnd(ctx, row);
      const subscription = await currentSubscription(client);
      if (!subscription) throw notFound(BILLING_MESSAGES.noSubscription);
      return { success: true as const, subscription };
    },
  );

  // Public: the publishable key is meant for browsers, and the page asks before anyone pays.
  app.get(
    '/api/billing/config',
    {
      schema: {
        summary: 'Which payment methods are on offer, and Stripe’s publishable key',
        tags: ['public'],
        response: { 200: BillingConfig },
      },
    },
    async () => ({
      stripePublishableKey: ctx.gateways.stripePublishableKey,
      paypalEnabled: !!ctx.gateways.paypal,
      stripeJsUrl: app.deps.config.stripe.jsUrl,
    }),
  );
}
