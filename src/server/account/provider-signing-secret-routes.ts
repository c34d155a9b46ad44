/**
 * PUT /api/client/webhook-signing-secret: the client sets, replaces or removes the signing secret
 * its voice provider signs webhook deliveries with. Write-only: only whether one is set is answered.
 */
import type { FastifyInstance } from 'fastify';
import { WebhookSecretBody, WebhookSecretResponse } from '../../contract/account';
import { requireClient } from '../auth/guards';
import { updateClient } from '../clients/clients-repository';
import type { ZodTypeProvider } from '../http/route-schemas';
import { recordChange } from '../teams/record-change';

export default async function providerSigningSecretRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, secrets, now } = app.deps;

  app.put(
    '/api/client/webhook-signing-secret',
    {
      config: { permission: 'keys' },
      schema: { body: WebhookSecretBody, response: { 200: WebhookSecretResponse } },
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
        await recordChange(trx, request, 'key_change', { what: 'webhook signing secret', change }, now());
      });
      return { hasWebhookSigningSecret: !!secret };
    },
  );
}
