/**
 * POST /api/webhooks/voice/{token}: the provider's post-call webhook (DESIGN §7). Validates the
 * whole body before writing anything, merges the call by provider call id, and answers fast.
 * Live events and follow-ups are acknowledged and recorded, never turned into calls.
 */
import { createHmac, randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { safeEqual } from '../crypto/secrets';
import { badRequest, notFound, parseInput, unauthorized } from '../errors';
import { keepRawBody, rawBodyOf } from '../raw-body';
import { classifyWebhookBody } from '../providers/voice/bland-payload';
import { backfillPathwayName, cachedPathwayNames } from './pathways';
import { createWebhookIngest } from './webhook-ingest';

const TokenParam = z.object({
  token: z
    .string()
    .min(16)
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/),
});
/** Per webhook URL; generous, since one client's busy hour must never be turned away. */
const DELIVERIES_PER_MINUTE = 6000;

export default async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  const ingest = createWebhookIngest(deps);
  const clientExists = async (id: string) =>
    !!(await deps.db.selectFrom('clients').select('id').where('id', '=', id).executeTakeFirst());

  await app.register(rateLimit, { global: false });

  // The signature covers the exact bytes received, so keep them and parse the JSON ourselves.
  keepRawBody(app);

  app.post(
    '/api/webhooks/voice/:token',
    {
      config: {
        rateLimit: {
          max: DELIVERIES_PER_MINUTE,
          timeWindow: '1 minute',
          keyGenerator: (request) => (request.params as { token?: string }).token ?? request.ip,
          errorResponseBuilder: () => ({
            statusCode: 429,
            message: 'Too many webhook deliveries; slow down',
          }),
        },
      },
    },
    async (request, reply) => {
      const { token } = parseInput(TokenParam, request.params, 'webhook URL');
      const client = await deps.db
        .selectFrom('clients')
        .selectAll()
        .where('webhook_token', '=', token)
        .executeTakeFirst();
      if (!client) throw notFound('Unknown webhook URL');

      const raw = rawBodyOf(request.body);
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        if (client.webhook_secret_enc) throw unauthorized('Invalid webhook signature');
        throw badRequest('Request body is not valid JSON');
      }
      if (client.webhook_secret_enc) {
        const secret = deps.secrets.decrypt(client.webhook_secret_enc);
        // Bland names the header X-Webhook-Signature; some of its senders use X-Bland-Signature.
        const header = request.headers['x-webhook-signature'] ?? request.headers['x-bland-signature'];
        const given = String(header ?? '')
          .trim()
          .toLowerCase();
        const signs = (bytes: Buffer | string) =>
          safeEqual(given, createHmac('sha256', secret).update(bytes).digest('hex'));
        // The bytes received; Bland's own verification sample signs the compact JSON of the body,
        // the same bytes when it sends compact JSON. Either needs the secret.
        if (!given || !(signs(raw) || signs(JSON.stringify(json)))) {
          throw unauthorized('Invalid webhook signature');
        }
      }
      const body = classifyWebhookBody(json, deps.now());
      if (body.kind === 'invalid') throw badRequest(body.message);

      const receivedAt = deps.now();
      if (body.kind === 'event') {
        await deps.db
          .insertInto('webhook_deliveries')
          .values({
            id: randomUUID(),
            client_id: client.id,
            received_at: receivedAt,
            kind: 'event',
            provider_call_id: body.callId,
            outcome: 'acknowledged',
          })
          .execute();
        return reply.code(200).send({ received: true, kind: 'event' });
      }

      // Keep what Bland actually sent (not the validated subset) for re-processing later.
      const { call } = body;
      const names = call.pathwayId
        ? await cachedPathwayNames(deps, client.id, [call.pathwayId])
        : new Map<string, string>();
      const pathway = call.pathwayId ? (names.get(call.pathwayId) ?? call.pathwayId) : '';
      try {
        await ingest.submit({ client, call: { ...call, pathway, source: 'webhook', raw: json }, receivedAt });
      } catch (error) {
        // The client was deleted while its delivery waited to be written.
        if (!(await clientExists(client.id))) throw notFound('Unknown webhook URL');
        throw error;
      }
      if (call.pathwayId && !names.has(call.pathwayId)) {
        // Resolve the pathway's name after answering; the provider must not wait on us.
        const pathwayId = call.pathwayId;
        setImmediate(() => {
          backfillPathwayName(deps, client, pathwayId).catch((error) =>
            request.log.warn({ err: error }, 'pathway name lookup failed'),
          );
        });
      }
      return reply.code(200).send({ received: true, kind: 'call', callId: call.providerCallId });
    },
  );
}
