/**
 * Change password and update API key (DESIGN §6 [4]). A user's new password ends every other session
 * of that user; a new API key is saved only after the voice provider accepted it.
 */

import type { FastifyInstance } from 'fastify';
import { ACCOUNT_MESSAGES, ApiKeyBody, ApiKeyResponse, ChangePasswordBody } from '../../contract/account';
import { SuccessBody } from '../../contract/common';
import { recordChange } from '../activity/record';
import { createAttemptLimits } from '../auth/attempt-limits';
import { requireClient, requireClientUser } from '../auth/guards';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { sessionCookie } from '../auth/sessions';
import { apiKeyChange, KEY_CHECKS_PER_WINDOW } from '../clients/api-key-change';
import { updateClient } from '../clients/clients-repository';
import { endUserSessions, setUserPassword, updateUser } from '../clients/users-repository';
import { sha256Hex } from '../crypto/secrets';
import { enforceCreationCap } from '../http/creation-caps';
import { badGateway, badRequest, forbidden } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { isVoiceProviderError } from '../providers/voice/errors';
import { voiceOf } from '../providers/voice/registry';

export default async function securityRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, voices, secrets, now } = app.deps;
  const attempts = createAttemptLimits(app.deps);

  app.post(
    '/api/client/change-password',
    {
      config: { permission: 'signed_in' },
      schema: {
        summary: 'Change the password',
        tags: ['client'],
        ...apiDoc({ errors: [429] }),
        body: ChangePasswordBody,
        response: { 200: SuccessBody },
      },
    },
    async (request, reply) => {
      const user = requireClientUser(request);
      const body = request.body;
      // A stolen session must not become a way to guess the password without limit.
      const attempt = await attempts.begin(request, reply, 'password', user.id);
      const currentOk = user.password_hash
        ? await verifyPassword(body.currentPassword, user.password_hash)
        : false;
      if (!currentOk) {
        throw badRequest(ACCOUNT_MESSAGES.currentPasswordWrong, {
          currentPassword: ACCOUNT_MESSAGES.currentPasswordWrong,
        });
      }
      await attempt.succeeded();
      if (body.newPassword === body.currentPassword) {
        throw badRequest(ACCOUNT_MESSAGES.newPasswordSame, { newPassword: ACCOUNT_MESSAGES.newPasswordSame });
      }
      const passwordHash = await hashPassword(body.newPassword);
      // Whoever else knew the old password is logged out; this browser stays in.
      const current = sessionCookie(request, 'client');
      await db.transaction().execute(async (trx) => {
        await setUserPassword(trx, user, passwordHash, now());
        // Their own password now: the rest of the app answers again.
        if (user.must_change_password === 1)
          await updateUser(trx, user.client_id, user.id, { must_change_password: 0, updated_at: now() });
        await endUserSessions(trx, user, current ? sha256Hex(current) : undefined);
        await recordChange(trx, requireClientUser(request), 'password_change', { email: user.email }, now());
      });
      return { success: true as const };
    },
  );

  app.put(
    '/api/client/api-key',
    {
      config: { permission: 'keys' },
      schema: {
        summary: 'Replace the voice platform API key',
        tags: ['client'],
        ...apiDoc({ errors: [403, 429, 502] }),
        body: ApiKeyBody,
        response: { 200: ApiKeyResponse },
      },
    },
    async (request, reply): Promise<ApiKeyResponse> => {
      const client = requireClient(request);
      // The key is the agency's contract with its supplier unless the agency hands it over.
      if (client.client_manages_api_key !== 1) throw forbidden(ACCOUNT_MESSAGES.apiKeyManagedByAgency);
      const { blandApiKey } = request.body;
      // Each check asks the provider whether a key is good: not a free oracle for guessing keys.
      await enforceCreationCap(app.deps, reply, {
        key: `api-key-check:${client.id}`,
        max: KEY_CHECKS_PER_WINDOW,
        windowMs: 15 * 60 * 1000,
        what: 'API key checks',
      });
      let status: 'valid' | 'invalid';
      try {
        status = await voiceOf(voices, client).checkKey(blandApiKey);
      } catch (error) {
        if (isVoiceProviderError(error)) throw badGateway(ACCOUNT_MESSAGES.apiKeyUnchecked);
        throw error;
      }
      if (status !== 'valid') {
        throw badRequest(ACCOUNT_MESSAGES.apiKeyInvalid, { blandApiKey: ACCOUNT_MESSAGES.apiKeyInvalid });
      }
      await db.transaction().execute(async (trx) => {
        await updateClient(trx, client.id, {
          ...apiKeyChange(secrets, client, blandApiKey, 'valid'),
          updated_at: now(),
        });
        await recordChange(trx, requireClientUser(request), 'key_change', { what: 'voice API key' }, now());
      });
      return { success: true as const, apiKeyStatus: 'valid' as const };
    },
  );
}
