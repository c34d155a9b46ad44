/**
 * PUT /api/client/account: the settings account form (SPEC §5, §7), read as a patch,
 * and the account's time zone. The e-mail stays unique.
 */
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_MESSAGES, AccountForm, AccountUpdateResponse } from '../../contract/account';
import { canSeeWebhookUrl, toSessionUser } from '../access/permissions';
import { recordChange } from '../activity/record';
import { requireClient, requireClientUser } from '../auth/guards';
import { loginAddressConflict } from '../clients/address-identity';
import { announceTimeZoneChanged } from '../clients/client-changes';
import { sentOnly, textOrNull } from '../clients/client-patch';
import { toClientSession } from '../clients/client-view';
import { findByEmail, findClient, updateClient } from '../clients/clients-repository';
import { isUniqueViolation } from '../clients/db-errors';
import { conflict, notFound } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';

/** The names of the form's fields the patch sent (what changed, without the values). */
const sentFields = (form: object) =>
  Object.entries(form)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);

export default async function profileRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now, clientChanges } = app.deps;

  app.put(
    '/api/client/account',
    {
      config: { permission: 'account' },
      schema: {
        summary: 'Update the account’s profile',
        tags: ['client'],
        ...apiDoc({ errors: [404, 409] }),
        body: AccountForm,
        response: { 200: AccountUpdateResponse },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const form = request.body;
      // Any holder counts, wizard drafts included: a client must never take over an address an admin is onboarding.
      // So must a person of any team (one identity per address); the answer names neither.
      if (
        form.email !== undefined &&
        form.email !== client.email &&
        ((await findByEmail(db, form.email, client.id)) ||
          (await loginAddressConflict(db, form.email, client.id)))
      ) {
        throw conflict(ACCOUNT_MESSAGES.emailTaken);
      }
      try {
        // A patch: what the body leaves out keeps its stored value.
        // The activity line is written with the change.
        await db.transaction().execute(async (trx) => {
          await updateClient(
            trx,
            client.id,
            sentOnly({
              first_name: form.firstName,
              last_name: form.lastName,
              email: form.email,
              company_name: textOrNull(form.companyName),
              phone_number: textOrNull(form.phoneNumber),
              job_title: textOrNull(form.jobTitle),
              timezone: form.timezone,
              updated_at: now(),
            }),
          );
          // Local days move with the time zone: what is kept by day follows in the same transaction.
          if (form.timezone !== undefined && form.timezone !== client.timezone)
            await announceTimeZoneChanged(trx, clientChanges, client.id, form.timezone);
          await recordChange(
            trx,
            requireClientUser(request),
            'settings_change',
            { what: 'profile', fields: sentFields(form) },
            now(),
          );
        });
      } catch (error) {
        // Two requests racing for one address: the unique index decides.
        if (isUniqueViolation(error)) throw conflict(ACCOUNT_MESSAGES.emailTaken);
        throw error;
      }
      const updated = await findClient(db, client.id);
      if (!updated) throw notFound();
      const user = requireClientUser(request);
      // The account's own login takes the client's address with it (syncAccountLogin), and the
      // person signed in may be that login: the answer names their address as it now is.
      const isAccountLogin = user.email.toLowerCase() === client.email.toLowerCase();
      return {
        success: true as const,
        client: {
          ...toClientSession(updated, app.deps, canSeeWebhookUrl(user)),
          user: { ...toSessionUser(user), ...(isAccountLogin ? { email: updated.email } : {}) },
        },
      };
    },
  );
}
