/**
 * POST /api/webhooks/voice/{token}: the provider's post-call webhook (DESIGN §7). Validates the
 * whole body before writing anything, merges the call by provider call id, and answers fast.
 * Live events and follow-ups are acknowledged and recorded, never turned into calls.
 */
import { randomUUID } from 'node:crypto';
import type { ZodTypeProvider } from '../route-schemas';
import type { FastifyInstance } from 'fastify';
import { WebhookAnswer, WebhookTokenParam } from '../../contract/calls';
import { badRequest, notFound, tooManyRequests, unauthorized } from '../errors';
import { keepRawBody, rawBodyOf } from '../raw-body';
import { backfillPathwayName, cachedPathwayNames } from './pathways';
import { createWebhookConfirmer } from './webhook-confirmation';
import { createWebhookIngest } from './webhook-ingest';
import { createWebhookRateLimit } from './webhook-rate-limit';
import { clientExists, findClientByWebhookToken } from '../clients/clients-repository';

export default async function webhookRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const ingest = createWebhookIngest(deps);
  const confirmer = createWebhookConfirmer(deps);

  // Per webhook URL, shared by every instance (WEBHOOK_DELIVERIES_PER_MINUTE).
  const rateLimit = createWebhookRateLimit(deps, (error) =>
    app.log.warn({ err: error }, 'webhook rate counter'),
  );
  app.addHook('onClose', () => rateLimit.close());

  // The signature covers the exact bytes received, so keep them and parse the JSON ourselves.
  keepRawBody(app);

  // The body is read raw (the signature covers its bytes) and validated by the provider's parser.
  const schema = { params: WebhookTokenParam, response: { 200: WebhookAnswer } };
  app.post('/api/webhooks/voice/:token', { schema }, async (request, reply) => {
    const { token } = request.params;
    // Looked up first: made-up URLs must not each leave a counter row behind.
    const client = await findClientByWebhookToken(deps.db, token);
    if (!client) throw notFound('Unknown webhook URL');
    if (!(await rateLimit.allow(client.id))) {
      reply.header('retry-after', '60');
      throw tooManyRequests('Too many webhook deliveries; slow down');
    }

    const secret = client.webhook_secret_enc ? deps.secrets.decrypt(client.webhook_secret_enc) : null;
    const body = deps.voice.parseWebhook(rawBodyOf(request.body), request.headers, secret, deps.now());
    if (body.kind === 'unauthorized') throw unauthorized(body.message);
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

    const { call, raw, unverified } = await confirmer.confirm(client, body.call, body.raw);
    const names = call.pathwayId
      ? await cachedPathwayNames(deps, client.id, [call.pathwayId])
      : new Map<string, string>();
    const pathway = call.pathwayId ? (names.get(call.pathwayId) ?? call.pathwayId) : '';
    try {
      await ingest.submit({
        client,
        call: { ...call, pathway, source: 'webhook', raw, unverified },
        receivedAt,
      });
    } catch (error) {
      // The client was deleted while its delivery waited to be written.
      if (!(await clientExists(deps.db, client.id))) throw notFound('Unknown webhook URL');
      throw error;
    }
    // An unconfirmed delivery's pathway is only a claim: no request is made with the client's key
    // for it (a flood of made-up pathway ids would each cost one); the settling sync names it.
    if (call.pathwayId && !unverified && !names.has(call.pathwayId)) {
      // Resolve the pathway's name after answering; the provider must not wait on us.
      const pathwayId = call.pathwayId;
      setImmediate(() => {
        backfillPathwayName(deps, client, pathwayId).catch((error) =>
          request.log.warn({ err: error }, 'pathway name lookup failed'),
        );
      });
    }
    return reply.code(200).send({
      received: true,
      kind: 'call',
      callId: call.providerCallId,
      ...(unverified ? { verified: false } : {}),
    });
  });
}
