/**
 * Change password and update API key (DESIGN §6 [4]). A new password ends every other session of
 * the client; a new API key is saved only after the voice provider accepted it.
 */
import type { FastifyInstance } from 'fastify';
import {
  ACCOUNT_MESSAGES,
  ApiKeyBody,
  type ApiKeyResponse,
  ChangePasswordBody,
} from '../../contract/account';
import { requireClient } from '../auth/guards';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { sessionCookie } from '../auth/sessions';
import { apiKeyChange } from '../clients/api-key-change';
import { updateClient } from '../clients/clients-repository';
import { badGateway, badRequest, parseInput } from '../errors';
import { isVoiceProviderError } from '../providers/voice/errors';

export default async function securityRoutes(app: FastifyInstance): Promise<void> {
  const { db, sessions, voice, secrets, now } = app.deps;

  app.post('/api/client/change-password', async (request) => {
    const client = requireClient(request);
    const body = parseInput(ChangePasswordBody, request.body);
    const currentOk = client.password_hash
      ? await verifyPassword(body.currentPassword, client.password_hash)
      : false;
    if (!currentOk) {
      throw badRequest(ACCOUNT_MESSAGES.currentPasswordWrong, {
        currentPassword: ACCOUNT_MESSAGES.currentPasswordWrong,
      });
    }
    if (body.newPassword === body.currentPassword) {
      throw badRequest(ACCOUNT_MESSAGES.newPasswordSame, { newPassword: ACCOUNT_MESSAGES.newPasswordSame });
    }
    await updateClient(db, client.id, {
      password_hash: await hashPassword(body.newPassword),
      updated_at: now(),
    });
    // Whoever else knew the old password is logged out; this browser stays in.
    await sessions.destroyAllFor('client', client.id, sessionCookie(request, 'client'));
    return { success: true as const };
  });

  app.put('/api/client/api-key', async (request): Promise<ApiKeyResponse> => {
    const client = requireClient(request);
    const { blandApiKey } = parseInput(ApiKeyBody, request.body);
    let status: 'valid' | 'invalid';
    try {
      status = await voice.checkKey(blandApiKey);
    } catch (error) {
      if (isVoiceProviderError(error)) throw badGateway(ACCOUNT_MESSAGES.apiKeyUnchecked);
      throw error;
    }
    if (status !== 'valid') {
      throw badRequest(ACCOUNT_MESSAGES.apiKeyInvalid, { blandApiKey: ACCOUNT_MESSAGES.apiKeyInvalid });
    }
    await updateClient(db, client.id, {
      ...apiKeyChange(secrets, client, blandApiKey, 'valid'),
      updated_at: now(),
    });
    return { success: true, apiKeyStatus: 'valid' };
  });
}
