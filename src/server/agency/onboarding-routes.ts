/**
 * The create-client wizard (SPEC §4): generate-webhook makes a pending client with an
 * unguessable webhook URL; webhook-status turns true once a valid provider call reached it
 * (webhook ingestion sets webhook_verified_at); finalize activates the client.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  CreateClientForm,
  DEFAULT_ACCOUNT_TYPE,
  DEFAULT_PER_MINUTE_RATE,
  DEFAULT_TIMEZONE,
  FinalizeResponse,
  MESSAGES,
  WebhookGenerated,
  WebhookStatus,
} from '../../contract/admin';
import { IdParam } from '../../contract/common';
import { recordAudit } from '../activity/record';
import { requireAdmin } from '../auth/guards';
import { loginAddressConflict } from '../clients/address-identity';
import {
  deleteClientCascade,
  findByEmail,
  insertClient,
  listStaleDrafts,
  updateClient,
} from '../clients/clients-repository';
import { isUniqueViolation } from '../clients/db-errors';
import { namedClient } from '../clients/named-client';
import { newWebhookToken, webhookUrlFor } from '../clients/webhook-token';
import { enforceCreationCap } from '../http/creation-caps';
import { conflict } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';

/** 32 random bytes: 256 bits, far beyond guessing (DESIGN §5 asks for ≥ 128). */
const DRAFT_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export default async function onboardingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, now, clientChanges } = app.deps;

  app.post(
    '/api/admin/generate-webhook',
    {
      schema: {
        summary: 'Start a new client: a draft with its webhook URL',
        tags: ['admin'],
        ...apiDoc({ errors: [409, 429] }),
        body: CreateClientForm,
        response: { 201: WebhookGenerated },
      },
    },
    async (request, reply): Promise<WebhookGenerated> => {
      const admin = requireAdmin(request);
      const form = request.body;
      // A scan once made 13,060 drafts; nobody onboards that many clients an hour.
      await enforceCreationCap(app.deps, reply, {
        key: `draft:${admin.id}`,
        max: config.creationCaps.draftsPerHour,
        windowMs: 60 * 60 * 1000,
        what: 'client drafts',
      });
      const id = randomUUID();
      const webhook = newWebhookToken(app.deps.secrets);
      const t = now();
      try {
        await db.transaction().execute(async (trx) => {
          const holder = await findByEmail(trx, form.email);
          if (holder?.onboarding_status === 'active') throw conflict(MESSAGES.emailTaken);
          // A person of another client's team holds the address; a pending invitation does not.
          if (await loginAddressConflict(trx, form.email)) throw conflict(MESSAGES.emailIsOtherUser);
          // A draft from a wizard that was closed before the end is replaced by this one.
          if (holder) await deleteClientCascade(trx, holder.id, clientChanges);
          // Drafts nobody finished within a week are abandoned: remove them with their test calls.
          const stale = await listStaleDrafts(trx, t - DRAFT_LIFETIME_MS);
          for (const draft of stale) await deleteClientCascade(trx, draft.id, clientChanges);
          await insertClient(trx, {
            id,
            provider: form.provider,
            first_name: form.firstName,
            last_name: form.lastName,
            email: form.email,
            company_name: form.companyName || null,
            phone_number: form.phoneNumber || null,
            job_title: form.jobTitle || null,
            company_website: form.companyWebsite || null,
            industry: form.industry || null,
            company_size: form.companySize || null,
            address: form.address || null,
            city: form.city || null,
            state: form.state || null,
            zip_code: form.zipCode || null,
            country: form.country || null,
            notes: form.notes || null,
            account_type: DEFAULT_ACCOUNT_TYPE,
            per_minute_rate_cents: Math.round(DEFAULT_PER_MINUTE_RATE * 100),
            timezone: form.timezone || DEFAULT_TIMEZONE,
            is_active: 1,
            api_key_status: 'missing',
            ...webhook.columns,
            onboarding_status: 'pending',
            // Without "notify now", digests wait for the client's first sign-in (users-repository.ts).
            notify_from: form.notifyNow ? t : null,
            created_at: t,
            updated_at: t,
          });
          await recordAudit(trx, { adminId: admin.id, action: 'client.create_draft', clientId: id }, t);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(MESSAGES.emailTaken);
        throw error;
      }
      reply.code(201);
      return { id, webhookUrl: webhookUrlFor(config.publicUrl, webhook.token) };
    },
  );

  app.get(
    '/api/admin/webhook-status/:id',
    {
      schema: {
        summary: 'Whether a draft client’s webhook has been called',
        tags: ['admin'],
        params: IdParam,
        response: { 200: WebhookStatus },
      },
    },
    async (request, reply): Promise<WebhookStatus> => {
      const { id } = request.params;
      const client = await namedClient(db, id);
      // Polled every 2 s: an intermediate cache must never answer an old "false".
      reply.header('cache-control', 'no-store');
      const verifiedAt =
        client.webhook_verified_at === null
          ? null
          : new Date(Number(client.webhook_verified_at)).toISOString();
      return { isTestSuccessful: verifiedAt !== null, verifiedAt };
    },
  );

  app.post(
    '/api/admin/finalize-client/:id',
    {
      schema: {
        summary: 'Finish creating a client',
        tags: ['admin'],
        ...apiDoc({ errors: [409] }),
        params: IdParam,
        response: { 200: FinalizeResponse },
      },
    },
    async (request): Promise<FinalizeResponse> => {
      const admin = requireAdmin(request);
      const { id } = request.params;
      const client = await namedClient(db, id);
      if (client.webhook_verified_at === null) throw conflict(MESSAGES.webhookNotVerified);
      // Finalizing twice (a double click, a retried request) is harmless.
      if (client.onboarding_status !== 'active') {
        await db.transaction().execute(async (trx) => {
          await updateClient(trx, id, { onboarding_status: 'active', updated_at: now() });
          await recordAudit(trx, { adminId: admin.id, action: 'client.finalize', clientId: id }, now());
        });
      }
      return { email: client.email };
    },
  );
}
