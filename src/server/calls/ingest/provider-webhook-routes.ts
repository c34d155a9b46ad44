/**
 * POST /api/webhooks/voice/{token}: the provider's post-call webhook (DESIGN §7). Validates the
 * whole body before writing anything, merges the call by provider call id, and answers fast.
 * Live events and follow-ups are acknowledged and recorded, never turned into calls.
 */

import type { FastifyInstance } from 'fastify';
import { WebhookAnswer, WebhookTokenParam } from '../../../contract/calls';
import { clientExists, findClientsByWebhookTokenHashes } from '../../clients/clients-repository';
import { webhookTokenHash } from '../../clients/webhook-token';
import type { ClientRow } from '../../db/schema';
import { badRequest, notFound, tooManyRequests, unauthorized } from '../../http/errors';
import { createGroupCommit } from '../../http/group-commit';
import type { DeliveryResult as DeliveryMetric } from '../../http/metrics';
import { keepRawBody, rawBodyOf } from '../../http/raw-body';
import { apiDoc } from '../../http/route-docs';
import type { ZodTypeProvider } from '../../http/route-schemas';
import { voiceOf } from '../../providers/voice/registry';
import { createDeliveryProcessor, type DeliveryResult } from './webhook-delivery';
import { createWebhookRateLimit } from './webhook-rate-limit';

const nullableString = { type: 'string', nullable: true };
/** What a voice platform posts, for the API description: the route reads it raw. */
const VOICE_WEBHOOK_BODY = {
  description:
    'What the client’s voice platform posts, read as the client’s platform sends it. The body is ' +
    'read raw (its signature covers the bytes): Bland signs with `X-Webhook-Signature`, Vapi with ' +
    '`X-Vapi-Secret`, a Bearer token or `x-vapi-signature`, Retell with `X-Retell-Signature`.',
  required: true,
  content: {
    'application/json': {
      schema: {
        anyOf: [
          {
            title: 'Bland call or event',
            type: 'object',
            description:
              'A finished call (`call_id` with its fields) or a live event (`call_id`, `message`, `category`).',
            required: ['call_id'],
            properties: {
              call_id: { type: 'string' },
              to: nullableString,
              from: nullableString,
              call_length: { type: 'number', nullable: true, description: 'Minutes' },
              created_at: nullableString,
              completed: { type: 'boolean', nullable: true },
              status: nullableString,
              recording_url: nullableString,
              price: { type: 'number', nullable: true },
              transcripts: { type: 'array', nullable: true, items: { type: 'object' } },
              summary: nullableString,
              message: { ...nullableString, description: 'A live event’s text' },
              category: nullableString,
            },
            additionalProperties: true,
          },
          {
            title: 'Vapi server message',
            type: 'object',
            description:
              'An `end-of-call-report` is stored as a call; any other message type is acknowledged.',
            required: ['message'],
            properties: {
              message: {
                type: 'object',
                required: ['type'],
                properties: {
                  type: { type: 'string', example: 'end-of-call-report' },
                  call: {
                    type: 'object',
                    properties: { id: { type: 'string' }, type: { type: 'string' } },
                    additionalProperties: true,
                  },
                  endedReason: { type: 'string' },
                  cost: { type: 'number' },
                },
                additionalProperties: true,
              },
            },
            additionalProperties: true,
          },
          {
            title: 'Retell event',
            type: 'object',
            description:
              '`call_ended` and `call_analyzed` are stored as a call; other events are acknowledged.',
            required: ['event', 'call'],
            properties: {
              event: { type: 'string', example: 'call_ended' },
              call: {
                type: 'object',
                required: ['call_id'],
                properties: {
                  call_id: { type: 'string' },
                  call_status: { type: 'string' },
                  start_timestamp: { type: 'number' },
                  end_timestamp: { type: 'number' },
                  disconnection_reason: { type: 'string' },
                },
                additionalProperties: true,
              },
            },
            additionalProperties: true,
          },
        ],
      },
    },
  },
};

export default async function providerWebhookRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const processDelivery = createDeliveryProcessor(deps, app.log);

  // Per webhook URL, shared by every instance (WEBHOOK_DELIVERIES_PER_MINUTE).
  const rateLimit = createWebhookRateLimit(deps, (error) =>
    app.log.warn({ err: error }, 'webhook rate counter'),
  );
  app.addHook('onClose', () => rateLimit.close());

  // The token lookups of deliveries that arrive together are one query (a query per delivery was
  // a measured cost of ingestion). Nothing is cached: each delivery's lookup is a read
  // that starts after the delivery arrived, so a rotated or deleted token is refused at once, on
  // every instance. Deliveries arriving while a read is in flight form the next read.
  const lookups = createGroupCommit<string, ClientRow | undefined>(
    async (tokens) => {
      // Only the tokens' hashes are stored (clients/webhook-token.ts).
      const hashes = tokens.map(webhookTokenHash);
      const rows = await findClientsByWebhookTokenHashes(deps.db, [...new Set(hashes)]);
      const byHash = new Map(rows.map((r) => [r.webhook_token_hash, r]));
      return hashes.map((h) => byHash.get(h));
    },
    { concurrency: deps.dialect === 'postgres' ? 2 : 1 },
  );

  // The signature covers the exact bytes received, so keep them and parse the JSON ourselves.
  keepRawBody(app);

  // The body is read raw (the signature covers its bytes) and validated by the provider's parser.
  const schema = { params: WebhookTokenParam, response: { 200: WebhookAnswer } };
  app.post(
    '/api/webhooks/voice/:token',
    {
      schema: {
        summary: 'Receive a call or event from the client’s voice platform (Bland, Vapi or Retell)',
        tags: ['public'],
        security: [{}, { webhookBearer: [] }],
        ...apiDoc({ errors: [401, 429], rawBody: VOICE_WEBHOOK_BODY }),
        ...schema,
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      // Looked up first: made-up URLs must not each leave a counter row behind.
      const client = await lookups.submit(token);
      if (!client) throw notFound('Unknown webhook URL');
      // Counted by platform and what became of it (GET /metrics).
      const count = (metric: DeliveryMetric) =>
        deps.metrics.delivery(voiceOf(deps.voices, client).id, metric);

      let result: DeliveryResult;
      try {
        result = await processDelivery({
          client,
          body: rawBodyOf(request.body),
          headers: request.headers,
          // Counted once it is known whether the delivery is believed, in that budget.
          admit: (budget) => rateLimit.allow(client.id, budget),
        });
      } catch (error) {
        // The client was deleted while its delivery waited to be written.
        if (!(await clientExists(deps.db, client.id))) throw notFound('Unknown webhook URL');
        throw error;
      }
      if (result.kind === 'limited') {
        count('rate_limited');
        reply.header('retry-after', '60');
        throw tooManyRequests('Too many webhook deliveries; slow down');
      }
      count(
        result.kind !== 'call'
          ? result.kind
          : result.outcome === 'duplicate' || result.outcome === 'unconfirmed'
            ? result.outcome
            : 'accepted',
      );
      if (result.kind === 'refused')
        throw result.status === 401 ? unauthorized(result.message) : badRequest(result.message);
      if (result.kind === 'event') return reply.code(200).send({ received: true, kind: 'event' });
      return reply.code(200).send({
        received: true,
        kind: 'call',
        callId: result.callId,
        ...(result.unverified ? { verified: false } : {}),
      });
    },
  );
}
