/**
 * POST /api/webhooks/stripe (DESIGN §8): a Stripe event, verified with the endpoint's signing
 * secret over the raw body and handled like every payment provider's (payment-webhooks.ts).
 */
import type { FastifyInstance } from 'fastify';
import { keepRawBody, rawBodyOf } from '../http/raw-body';
import { apiDoc, received } from '../http/route-docs';
import type { BillingPluginOptions } from './billing-context';
import { receivePaymentWebhook } from './payment-webhooks';

/** What Stripe posts, for the API description: the route reads it raw. */
const STRIPE_EVENT_BODY = {
  description: 'A Stripe event, read raw: `Stripe-Signature` covers its bytes.',
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['id', 'type', 'data'],
        properties: {
          id: { type: 'string' },
          type: { type: 'string', example: 'invoice.paid' },
          data: { type: 'object', properties: { object: { type: 'object' } } },
        },
        additionalProperties: true,
      },
    },
  },
};

export default async function stripeWebhookRoutes(
  app: FastifyInstance,
  { ctx }: BillingPluginOptions,
): Promise<void> {
  keepRawBody(app);
  app.post(
    '/api/webhooks/stripe',
    {
      schema: {
        summary: 'Receive a Stripe event',
        tags: ['public'],
        ...apiDoc({
          errors: [400, 503],
          responses: received('Handled, or already handled before (`duplicate`).'),
          rawBody: STRIPE_EVENT_BODY,
        }),
      },
    },
    async (request) => receivePaymentWebhook(ctx, 'stripe', rawBodyOf(request.body), request.headers),
  );
}
