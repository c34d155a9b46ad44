/**
 * The credentials of the provider's deliveries IN, for those whose role includes `keys`:
 * PUT /api/client/webhook-signing-secret sets, replaces or removes the signing secret the voice
 * provider signs deliveries with (write-only: only whether one is set is answered);
 * POST /api/client/rotate-webhook replaces the webhook URL (a leaked one, or one a removed person
 * may still hold), which the platform must then be given.
 */
import type { FastifyInstance } from 'fastify';
import { WebhookSecretBody, WebhookSecretResponse } from '../../contract/account';
import { RotatedWebhook } from '../../contract/admin';
import { recordChange } from '../activity/record';
import { requireClient, requireClientUser } from '../auth/guards';
import { rotateWebhookToken, updateClient } from '../clients/clients-repository';
import { webhookUrlFor } from '../clients/webhook-token';
import type { ZodTypeProvider } from '../http/route-schemas';

export default async function providerSigningSecretRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, secrets, now, config } = app.deps;

  app.put(
    '/api/client/webhook-signing-secret',
    {
      config: { permission: 'keys' },
      schema: {
        summary: 'Set or remove the voice webhook signing secret',
        tags: ['client'],
        body: WebhookSecretBody,
        response: { 200: WebhookSecretResponse },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const { secret } = request.body;
      const change = secret ? 'set' : 'removed';
      await db.transaction().execute(async (trx) => {
        await updateClient(trx, client.id, {
          webhook_secret_enc: secret ? secrets.encrypt(secret) : null,
          updated_at: now(),
        });
        await recordChange(
          trx,
          requireClientUser(request),
          'key_change',
          { what: 'webhook signing secret', change },
          now(),
        );
      });
      return { hasWebhookSigningSecret: !!secret };
    },
  );

  // The old URL stops working at once; the new one is answered (and shown by the session again).
  app.post(
    '/api/client/rotate-webhook',
    {
      config: { permission: 'keys' },
      schema: {
        summary: 'Replace the voice webhook URL (the old one stops working)',
        tags: ['client'],
        response: { 200: RotatedWebhook },
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      const token = await db.transaction().execute(async (trx) => {
        const rotated = await rotateWebhookToken(trx, secrets, client.id, now());
        await recordChange(
          trx,
          requireClientUser(request),
          'key_change',
          { what: 'webhook URL', change: 'rotated' },
          now(),
        );
        return rotated;
      });
      reply.header('cache-control', 'no-store');
      return { webhookUrl: webhookUrlFor(config.publicUrl, token) };
    },
  );
}
