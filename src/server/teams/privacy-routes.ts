/**
 * The client's privacy settings (issue 36; issue 38 adds more): GET/PUT /api/client/privacy,
 * Owners only (permission `privacy`). `hideNumbersUntilShown` masks callers' numbers for every user
 * (teams/number-masking.ts) until one call's number is shown (POST /api/client/calls/{id}/unmask).
 * The setting is a column of the client, written through clients/ like every other; a change is a
 * line of the client's activity log.
 */
import type { FastifyInstance } from 'fastify';
import { PrivacySettings, PrivacyUpdate } from '../../contract/privacy';
import { requireClient, requireClientUser } from '../auth/guards';
import { updateClient } from '../clients/clients-repository';
import type { ClientRow } from '../db/schema';
import type { ZodTypeProvider } from '../http/route-schemas';
import { recordActivity } from './activity';

const PRIVACY = { config: { permission: 'privacy' as const } };

export function privacySettingsOf(client: Pick<ClientRow, 'hide_numbers_until_shown'>): PrivacySettings {
  return { hideNumbersUntilShown: client.hide_numbers_until_shown === 1 };
}

export default async function privacyRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;

  app.get(
    '/api/client/privacy',
    { ...PRIVACY, schema: { response: { 200: PrivacySettings } } },
    async (request) => privacySettingsOf(requireClient(request)),
  );

  app.put(
    '/api/client/privacy',
    { ...PRIVACY, schema: { body: PrivacyUpdate, response: { 200: PrivacySettings } } },
    async (request) => {
      const client = requireClient(request);
      const before = privacySettingsOf(client);
      const after = { ...before, ...request.body };
      if (after.hideNumbersUntilShown === before.hideNumbersUntilShown) return after;
      await db.transaction().execute(async (trx) => {
        await updateClient(trx, client.id, {
          hide_numbers_until_shown: after.hideNumbersUntilShown ? 1 : 0,
          updated_at: now(),
        });
        await recordActivity(
          trx,
          {
            clientId: client.id,
            userId: requireClientUser(request).id,
            action: 'settings_change',
            detail: { settings: 'privacy', before, after },
          },
          now(),
        );
      });
      return after;
    },
  );
}
