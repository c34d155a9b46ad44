/**
 * Client management for admins (SPEC §7 "Admin"): list, stats, configuration, credentials,
 * deletion. The /api/admin guard (auth/guards.ts) runs before every handler; every change writes an audit row in the same
 * transaction. The API key is stored encrypted and only ever answered masked.
 */

import type { FastifyInstance } from 'fastify';
import { WebhookSecretBody, WebhookSecretResponse } from '../../contract/account';
import {
  AdminClientList,
  AdminStats,
  type ApiKeyCheck,
  ClientConfig,
  ClientConfigUpdateResponse,
  CredentialsResponse,
  EditClientForm,
  isMaskedApiKey,
  MESSAGES,
  RotatedWebhook,
} from '../../contract/admin';
import { IdParam, SuccessBody } from '../../contract/common';
import { recordActivity, recordAudit } from '../activity/record';
import { requireAdmin } from '../auth/guards';
import { generateTemporaryPassword, hashPassword } from '../auth/passwords';
import { loginAddressConflict } from '../clients/address-identity';
import { toAdminClient, toAdminListItem } from '../clients/admin-client-view';
import { apiKeyChange, KEY_CHECKS_PER_WINDOW } from '../clients/api-key-change';
import { announceTimeZoneChanged } from '../clients/client-changes';
import { ifSent, sentOnly, textOrNull } from '../clients/client-patch';
import {
  deleteClientCascade,
  findByEmail,
  getAdminStats,
  listClientsWithTotals,
  rotateWebhookToken,
  updateClient,
} from '../clients/clients-repository';
import { isUniqueViolation } from '../clients/db-errors';
import { namedClient } from '../clients/named-client';
import {
  endUserSessions,
  findAccountLogin,
  insertAccountLogin,
  listUsers,
  requireAccountLoginPasswordChange,
  updateUser,
} from '../clients/users-repository';
import { webhookUrlFor } from '../clients/webhook-token';
import type { ApiKeyStatus, ClientRow, ClientUpdate } from '../db/schema';
import { enforceCreationCap } from '../http/creation-caps';
import { conflict } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { isVoiceProviderError } from '../providers/voice/errors';
import { voiceOf } from '../providers/voice/registry';

export default async function adminClientRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, secrets, voices, now, clientChanges } = app.deps;

  const clientOr404 = (id: string): Promise<ClientRow> => namedClient(db, id);

  app.get(
    '/api/admin/clients',
    {
      schema: {
        summary: 'Every client with its totals',
        tags: ['admin'],
        response: { 200: AdminClientList },
      },
    },
    async () => {
      const clients = await listClientsWithTotals(db);
      return clients.map(({ row, totals }) => toAdminListItem(row, totals, config.publicUrl, secrets));
    },
  );

  app.get(
    '/api/admin/stats',
    { schema: { summary: 'The agency’s totals', tags: ['admin'], response: { 200: AdminStats } } },
    async () => {
      return getAdminStats(db);
    },
  );

  app.get(
    '/api/admin/client-config/:id',
    {
      schema: {
        summary: 'A client’s configuration',
        tags: ['admin'],
        params: IdParam,
        response: { 200: ClientConfig },
      },
    },
    async (request) => {
      const { id } = request.params;
      return toAdminClient(await clientOr404(id), config.publicUrl, secrets);
    },
  );

  app.put(
    '/api/admin/client-config/:id',
    {
      schema: {
        summary: 'Update a client’s configuration',
        tags: ['admin'],
        ...apiDoc({ errors: [409, 429, 502] }),
        params: IdParam,
        body: EditClientForm,
        response: { 200: ClientConfigUpdateResponse },
      },
    },
    async (request, reply): Promise<ClientConfigUpdateResponse> => {
      const admin = requireAdmin(request);
      const { id } = request.params;
      const form = request.body;
      const current = await clientOr404(id);

      // The provider check happens before the transaction: no database locks held across the network.
      if (form.blandApiKey && !isMaskedApiKey(form.blandApiKey)) {
        // Each new key is checked with the provider: limited like the client's own key checks.
        await enforceCreationCap(app.deps, reply, {
          key: `api-key-check:admin:${admin.id}`,
          max: KEY_CHECKS_PER_WINDOW,
          windowMs: 15 * 60 * 1000,
          what: 'API key checks',
        });
      }
      // A new platform takes its own key: the one sent is checked there, a kept one is re-checked.
      const provider = form.provider ?? current.provider;
      const key = await decideApiKey(current, form.blandApiKey, provider);
      // A patch: what the body leaves out keeps its stored value.
      const changes: ClientUpdate = sentOnly({
        first_name: form.firstName,
        last_name: form.lastName,
        email: form.email,
        account_type: form.accountType,
        // Calls keep the rate they arrived with (calls.per_minute_rate_cents); this applies to later ones.
        per_minute_rate_cents: ifSent(form.perMinuteRate, (rate) => Math.round(rate * 100)),
        timezone: form.timezone,
        is_active: ifSent(form.isActive, (active) => (active ? 1 : 0)),
        show_platform_details: ifSent(form.showPlatformDetails, (on) => (on ? 1 : 0)),
        client_manages_api_key: ifSent(form.clientManagesApiKey, (on) => (on ? 1 : 0)),
        phone_number: textOrNull(form.phoneNumber),
        address: textOrNull(form.address),
        city: textOrNull(form.city),
        state: textOrNull(form.state),
        zip_code: textOrNull(form.zipCode),
        country: textOrNull(form.country),
        company_name: textOrNull(form.companyName),
        company_website: textOrNull(form.companyWebsite),
        industry: textOrNull(form.industry),
        company_size: textOrNull(form.companySize),
        job_title: textOrNull(form.jobTitle),
        client_identifier: textOrNull(form.clientIdentifier),
        organization_id: textOrNull(form.organizationId),
        notes: textOrNull(form.notes),
        ...(key.check === 'unchanged' ? {} : apiKeyChange(secrets, current, key.value, key.status)),
        ...signingSecretChange(form.webhookSigningSecret),
        provider,
        // Another platform's calls are pulled from the start again (the first sync's window).
        ...(provider === current.provider ? {} : { sync_watermark: null }),
        updated_at: now(),
      });
      // Object.keys is string[]; the keys are ClientUpdate's own, each a ClientRow column
      const changedFields = (Object.keys(changes) as (keyof ClientUpdate)[]).filter(
        (k) => k !== 'updated_at' && changes[k] !== current[k as keyof ClientRow],
      );

      try {
        await db.transaction().execute(async (trx) => {
          if (form.email !== undefined && form.email !== current.email) {
            const holder = await findByEmail(trx, form.email, id);
            if (holder?.onboarding_status === 'active') throw conflict(MESSAGES.emailTaken);
            const person = await loginAddressConflict(trx, form.email, id);
            if (person)
              throw conflict(person === 'own_user' ? MESSAGES.emailIsOwnUser : MESSAGES.emailIsOtherUser);
            // A wizard draft nobody finished does not own its e-mail.
            if (holder) await deleteClientCascade(trx, holder.id, clientChanges);
          }
          await updateClient(trx, id, changes);
          // A deactivated client is signed out everywhere; reactivating it must not revive old cookies.
          if (form.isActive === false && current.is_active === 1) {
            await trx
              .deleteFrom('sessions')
              .where('kind', '=', 'client')
              .where('subject_id', '=', id)
              .execute();
          }
          // Local days move with the time zone: what is kept by day follows in the same transaction.
          if (form.timezone !== undefined && form.timezone !== current.timezone)
            await announceTimeZoneChanged(trx, clientChanges, id, form.timezone);
          await recordAudit(
            trx,
            {
              adminId: admin.id,
              action: 'client.update',
              clientId: id,
              detail: { fields: changedFields, apiKey: key.check },
            },
            now(),
          );
          if (key.check !== 'unchanged')
            await recordKeyChange(trx, admin, id, {
              what: 'API key',
              change: key.value === null ? 'removed' : 'set',
            });
          if (form.webhookSigningSecret !== undefined)
            await recordKeyChange(trx, admin, id, {
              what: 'webhook signing secret',
              change: form.webhookSigningSecret ? 'set' : 'removed',
            });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(MESSAGES.emailTaken);
        throw error;
      }

      return {
        success: true,
        client: toAdminClient(await clientOr404(id), config.publicUrl, secrets),
        apiKeyCheck: key.check,
        message: apiKeyMessage(key.check),
      };
    },
  );

  /**
   * The client's activity line of a key or secret the agency changed, beside the audit row: the
   * Owner reads who replaced a credential of theirs, as for their own changes.
   */
  async function recordKeyChange(
    trx: typeof db,
    admin: { name: string; username: string },
    clientId: string,
    detail: { what: string; change: string },
  ): Promise<void> {
    await recordActivity(
      trx,
      {
        clientId,
        userId: null,
        action: 'key_change',
        detail: { ...detail, byAgency: admin.name || admin.username },
      },
      now(),
    );
  }

  /** Write-only: omitted keeps the stored secret, '' or null removes it, anything else replaces it. */
  function signingSecretChange(sent: string | null | undefined): Pick<ClientUpdate, 'webhook_secret_enc'> {
    if (sent === undefined) return {};
    return { webhook_secret_enc: sent ? secrets.encrypt(sent) : null };
  }

  /**
   * Omitted or masked: keep. Empty: remove. Otherwise a new key, checked with the provider; when
   * the provider does not answer, the key is saved and the status stays as it was.
   */
  async function decideApiKey(
    current: ClientRow,
    sent: string | null | undefined,
    provider: string,
  ): Promise<{ check: ApiKeyCheck; value: string | null; status: ApiKeyStatus }> {
    const voice = voiceOf(voices, { provider });
    const keep = { check: 'unchanged' as const, value: null, status: current.api_key_status };
    if (sent === undefined || (sent && isMaskedApiKey(sent))) return keep;
    if (!sent) return current.bland_api_key_enc ? { check: 'removed', value: null, status: 'missing' } : keep;
    try {
      const status = await voice.checkKey(sent);
      return { check: status, value: sent, status };
    } catch (error) {
      if (!isVoiceProviderError(error)) throw error;
      return { check: 'unavailable', value: sent, status: current.api_key_status };
    }
  }

  // The wizard's webhook step sets the secret on a draft, before the client is complete.
  app.put(
    '/api/admin/clients/:id/webhook-signing-secret',
    {
      schema: {
        summary: 'Set or remove a client’s voice webhook signing secret',
        tags: ['admin'],
        params: IdParam,
        body: WebhookSecretBody,
        response: { 200: WebhookSecretResponse },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const { id } = request.params;
      await clientOr404(id);
      const { secret } = request.body;
      await db.transaction().execute(async (trx) => {
        await updateClient(trx, id, {
          webhook_secret_enc: secret ? secrets.encrypt(secret) : null,
          updated_at: now(),
        });
        await recordAudit(
          trx,
          {
            adminId: admin.id,
            action: 'client.update',
            clientId: id,
            detail: { fields: ['webhook_secret_enc'] },
          },
          now(),
        );
        await recordKeyChange(trx, admin, id, {
          what: 'webhook signing secret',
          change: secret ? 'set' : 'removed',
        });
      });
      return { hasWebhookSigningSecret: !!secret };
    },
  );

  // A leaked webhook URL is replaced: the old token stops working at once.
  app.post(
    '/api/admin/clients/:id/rotate-webhook',
    {
      schema: {
        summary: 'Replace a client’s webhook URL',
        tags: ['admin'],
        params: IdParam,
        response: { 200: RotatedWebhook },
      },
    },
    async (request): Promise<{ webhookUrl: string }> => {
      const admin = requireAdmin(request);
      const { id } = request.params;
      await clientOr404(id);
      const token = await db.transaction().execute(async (trx) => {
        const rotated = await rotateWebhookToken(trx, secrets, id, now());
        await recordAudit(trx, { adminId: admin.id, action: 'client.rotate_webhook', clientId: id }, now());
        await recordKeyChange(trx, admin, id, { what: 'webhook URL', change: 'rotated' });
        return rotated;
      });
      return { webhookUrl: webhookUrlFor(config.publicUrl, token) };
    },
  );

  app.post(
    '/api/admin/clients/:id/generate-credentials',
    {
      schema: {
        summary: 'Give a client a new temporary password',
        tags: ['admin'],
        ...apiDoc({ errors: [409] }),
        params: IdParam,
        response: { 200: CredentialsResponse },
      },
    },
    async (request, reply): Promise<CredentialsResponse> => {
      const admin = requireAdmin(request);
      const { id } = request.params;
      const client = await clientOr404(id);
      if (client.onboarding_status !== 'active') {
        throw conflict(
          'Finish creating this client (webhook test and account creation) before generating credentials',
        );
      }
      // The password is the client's own login's: an Owner may have deactivated or removed it.
      const login = await findAccountLogin(db, id);
      if (login?.status === 'deactivated') throw conflict(MESSAGES.loginDeactivated);
      const hasUsers = !!(await listUsers(db, id)).length;
      // Removed: it is made again (the agency gives the client's address its login back), unless a
      // person holds the address now.
      const restore = !login && hasUsers;
      if (restore) {
        const person = await loginAddressConflict(db, client.email, id);
        if (person)
          throw conflict(person === 'own_user' ? MESSAGES.emailIsOwnUser : MESSAGES.emailIsOtherUser);
      }
      const temporaryPassword = generateTemporaryPassword();
      const passwordHash = await hashPassword(temporaryPassword);
      await db.transaction().execute(async (trx) => {
        // Made first, so that updateClient copies the password to it: of two requests at once, the
        // second finds the first's row and its password still ends on both.
        // A first login is made now too, not at its first sign-in: it must carry the rule below.
        if (restore || !hasUsers) await insertAccountLogin(trx, client, passwordHash, now());
        await updateClient(trx, id, { password_hash: passwordHash, updated_at: now() });
        // The agency knows this password: its person chooses their own before seeing any data.
        await requireAccountLoginPasswordChange(trx, id, now());
        // Re-invited and not accepted yet: these credentials are its sign-in; the link dies.
        if (login?.status === 'invited')
          await updateUser(trx, id, login.id, {
            status: 'active',
            invite_token_hash: null,
            invite_expires_at: null,
            updated_at: now(),
          });
        // Whoever held the old password is logged out everywhere; the client's other people are not
        // (the password is only the login's).
        if (login) await endUserSessions(trx, login);
        const restored = restore || login?.status === 'invited';
        await recordAudit(
          trx,
          {
            adminId: admin.id,
            action: 'client.credentials',
            clientId: id,
            ...(restored ? { detail: { restoredLogin: true } } : {}),
          },
          now(),
        );
        // The client's Owners see their login come back in their activity log.
        if (restored)
          await recordActivity(
            trx,
            {
              clientId: id,
              userId: null,
              action: 'user_activated',
              detail: { email: client.email, byAgency: admin.name || admin.username, restoredLogin: true },
            },
            now(),
          );
      });
      // Shown once; never cached by the browser or a proxy.
      reply.header('cache-control', 'no-store');
      return { email: client.email, temporaryPassword };
    },
  );

  app.delete(
    '/api/admin/clients/:id',
    {
      schema: {
        summary: 'Delete a client and its calls',
        tags: ['admin'],
        params: IdParam,
        response: { 200: SuccessBody },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const { id } = request.params;
      const client = await clientOr404(id);
      await db.transaction().execute(async (trx) => {
        await deleteClientCascade(trx, id, clientChanges);
        // The client row is gone, so the audit row keeps enough to say who it was.
        await recordAudit(
          trx,
          {
            adminId: admin.id,
            action: 'client.delete',
            clientId: id,
            detail: { email: client.email, companyName: client.company_name },
          },
          now(),
        );
      });
      return { success: true as const };
    },
  );
}

function apiKeyMessage(check: ApiKeyCheck): string {
  switch (check) {
    case 'valid':
      return 'The API key was verified with the voice provider.';
    case 'invalid':
      return 'The voice provider rejected the API key; the client stays without a working key until it is replaced.';
    case 'unavailable':
      return 'The API key was saved, but the voice provider did not answer the check; it will be checked at the next sync.';
    case 'removed':
      return 'The API key was removed.';
    default:
      return 'Client configuration updated';
  }
}
