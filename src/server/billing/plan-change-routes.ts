/**
 * Plan change on a card subscription and Resume: GET the price Stripe computes for a
 * change, POST the change at that price with the saved card, confirm it after 3-D Secure, and
 * withdraw a pending cancellation.
 */
import type { FastifyInstance } from 'fastify';
import {
  BILLING_MESSAGES,
  ChangePlanBody,
  ChangePlanResponse,
  ChangePreviewQuery,
  ConfirmPlanChangeBody,
  PlanChangePreview,
  ResumeSubscriptionResponse,
} from '../../contract/billing';
import { requireClient } from '../auth/guards';
import { enforceCheckoutCap } from '../http/creation-caps';
import { notFound } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import type { BillingPluginOptions } from './billing-context';
import { resumeSubscription } from './cancellation';
import { changePlan, confirmPlanChange, previewPlanChange, subscriptionOf } from './plan-change';
import { findSubscription, isEnded } from './subscriptions-repository';

export default async function planChangeRoutes(
  fastify: FastifyInstance,
  { ctx }: BillingPluginOptions,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;

  app.get(
    '/api/client/subscription/change-preview',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'Preview a plan change and its charge',
        tags: ['client'],
        ...apiDoc({ errors: [404, 409] }),
        querystring: ChangePreviewQuery,
        response: { 200: PlanChangePreview },
      },
    },
    async (request) => previewPlanChange(ctx, requireClient(request), request.query.planId),
  );

  app.post(
    '/api/client/subscription/change-plan',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'Change plan',
        tags: ['client'],
        ...apiDoc({ errors: [402, 404, 409, 429, 502, 503] }),
        body: ChangePlanBody,
        response: { 200: ChangePlanResponse },
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      await enforceCheckoutCap(app.deps, reply, client.id);
      return changePlan(ctx, client, request.body.planId, request.body.prorationDate);
    },
  );

  app.post(
    '/api/client/subscription/confirm-change',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'Confirm a plan change the bank authenticated',
        tags: ['client'],
        ...apiDoc({ errors: [402, 404, 409, 502, 503] }),
        body: ConfirmPlanChangeBody,
        response: { 200: ChangePlanResponse },
      },
    },
    async (request) => confirmPlanChange(ctx, requireClient(request), request.body.planId),
  );

  app.post(
    '/api/client/subscription/resume',
    {
      config: { permission: 'billing' },
      schema: {
        summary: 'Undo a cancellation',
        tags: ['client'],
        ...apiDoc({ errors: [402, 404, 409, 502, 503] }),
        response: { 200: ResumeSubscriptionResponse },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const row = await findSubscription(db, client.id);
      if (!row || isEnded(row, now())) throw notFound(BILLING_MESSAGES.noSubscription);
      await resumeSubscription(ctx, row);
      return { success: true as const, subscription: await subscriptionOf(ctx, client) };
    },
  );
}
