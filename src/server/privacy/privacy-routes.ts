/**
 * The privacy settings: GET/PUT /api/client/privacy for Owners (permission `privacy`), written
 * once and mounted for an admin naming the client too (clients/client-scope.ts) under
 * /api/admin/client-privacy/{clientId}; the agency's defaults at /api/admin/privacy-defaults.
 *
 * `hideNumbersUntilShown` masks callers' numbers for every user (access/number-masking.ts) until one
 * call's number is shown; it is a column of the client, written through clients/. Redaction,
 * national-ID countries and retention are privacy-settings.ts's. Turning a category on asks for
 * the stored calls to be redacted again; a retention change is applied at once (and by the privacy
 * job each minute). Each change is a line of the client's activity log, or of the audit log for
 * an admin.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  PrivacyDefaults,
  PrivacyDefaultsUpdate,
  PrivacySettings,
  PrivacyUpdate,
  type Retention,
  type RetentionField,
} from '../../contract/privacy';
import { recordAudit } from '../activity/record';
import { clientScopes } from '../auth/client-scope';
import { requireAdmin } from '../auth/guards';
import { findClient, listClientIds, updateClient } from '../clients/clients-repository';
import type { AppDeps } from '../context';
import type { ClientRow } from '../db/schema';
import { badRequest } from '../http/errors';
import type { ZodTypeProvider } from '../http/route-schemas';
import { privacyWorkSettled, wakePrivacyWork } from './privacy-job';
import {
  effectivePrivacy,
  forgetPrivacy,
  loadPrivacy,
  loadPrivacyDefaults,
  loadPrivacyMany,
  type StoredClientPrivacy,
  saveOwnPrivacy,
  savePrivacyDefaults,
  turnedOn,
} from './privacy-settings';
import { reRedactionOf } from './re-redaction';

const PRIVACY = { config: { permission: 'privacy' as const } };

type Update = z.output<typeof PrivacyUpdate>;

/** A client may only shorten the agency's retention: a longer (or "keep") value is refused, naming the field. */
function checkRetention(wanted: Partial<Retention>, agency: Retention): void {
  // Object.entries is [string, …][]; `wanted` holds only Retention's own fields
  for (const [field, days] of Object.entries(wanted) as [RetentionField, number | null][]) {
    const limit = agency[field];
    if (limit === null) continue;
    if (days === null || days > limit) {
      const message = `The agency keeps this for at most ${limit} days: choose ${limit} or fewer`;
      throw badRequest(`retention.${field}: ${message}`, { [`retention.${field}`]: message });
    }
  }
}

export default async function privacyRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps: AppDeps = app.deps;
  const { db, now } = deps;
  const wake = (clientId: string | null) =>
    wakePrivacyWork(deps, clientId, (error) => app.log.warn({ err: error }, 'privacy work failed'));
  app.addHook('onClose', async () => privacyWorkSettled(deps));

  async function settingsOf(
    client: Pick<ClientRow, 'id' | 'hide_numbers_until_shown'>,
  ): Promise<PrivacySettings> {
    const [privacy, reRedaction] = await Promise.all([
      loadPrivacy(db, client.id),
      reRedactionOf(db, client.id),
    ]);
    return {
      hideNumbersUntilShown: client.hide_numbers_until_shown === 1,
      redaction: privacy.redaction,
      // Stored codes came through the same schema the settings type is drawn from
      nationalIdCountries: privacy.nationalIdCountries as PrivacySettings['nationalIdCountries'],
      retention: privacy.retention,
      agencyRetention: privacy.agencyRetention,
      keepCallerNumber: privacy.keepCallerNumber,
      reRedaction,
    };
  }

  /**
   * Applies a patch; answers the changed settings before and after, for the activity or audit
   * line (null: nothing changed).
   */
  async function update(
    client: ClientRow,
    body: Update,
  ): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> } | null> {
    const before = await loadPrivacy(db, client.id);
    if (body.retention) checkRetention(body.retention, before.agencyRetention);
    const was: Record<string, unknown> = {};
    const now_: Record<string, unknown> = {};
    const hide = body.hideNumbersUntilShown;
    const hidden = client.hide_numbers_until_shown === 1;
    if (hide !== undefined && hide !== hidden) {
      await updateClient(db, client.id, { hide_numbers_until_shown: hide ? 1 : 0, updated_at: now() });
      was.hideNumbersUntilShown = hidden;
      now_.hideNumbersUntilShown = hide;
    }
    const own: StoredClientPrivacy = { ...before.own };
    if (body.redaction) own.redaction = { ...before.redaction, ...body.redaction };
    if (body.nationalIdCountries) own.nationalIdCountries = body.nationalIdCountries;
    if (body.retention) own.retention = { ...(before.own.retention ?? before.retention), ...body.retention };
    if (body.keepCallerNumber !== undefined) own.keepCallerNumber = body.keepCallerNumber;
    if (JSON.stringify(own) !== JSON.stringify(before.own)) {
      const after = effectivePrivacy(await loadPrivacyDefaults(db), own);
      await saveOwnPrivacy(db, client.id, own, now(), turnedOn(before, after));
      forgetPrivacy(db);
      for (const key of ['redaction', 'nationalIdCountries', 'retention', 'keepCallerNumber'] as const)
        if (body[key] !== undefined && JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
          was[key] = before[key];
          now_[key] = after[key];
        }
      wake(client.id);
    }
    return Object.keys(now_).length > 0 ? { before: was, after: now_ } : null;
  }

  for (const scope of clientScopes(deps)) {
    const params = scope.params ? { params: scope.params } : {};
    const paths = { client: '/api/client/privacy', admin: '/api/admin/client-privacy/:clientId' };
    app.get(
      scope.path(paths),
      {
        ...PRIVACY,
        schema: {
          ...scope.doc({
            client: { summary: 'The account’s privacy settings' },
            admin: { summary: 'A client’s privacy settings' },
          }),
          ...params,
          response: { 200: PrivacySettings },
        },
      },
      async (request) => settingsOf(await scope.clientOf(request)),
    );

    app.put(
      scope.path(paths),
      {
        ...PRIVACY,
        schema: {
          ...scope.doc({
            client: { summary: 'Change the account’s privacy settings' },
            admin: { summary: 'Change a client’s privacy settings' },
          }),
          ...params,
          body: PrivacyUpdate,
          response: { 200: PrivacySettings },
        },
      },
      async (request) => {
        const asker = scope.askerOf(request);
        const client = await scope.clientOf(request);
        const changed = await update(client, request.body);
        if (changed)
          await scope.record(asker, client, {
            client: { action: 'settings_change', detail: { settings: 'privacy', ...changed } },
            admin: { action: 'client.privacy', detail: changed },
          });
        return settingsOf((await findClient(db, client.id)) ?? client);
      },
    );
  }

  app.get(
    '/api/admin/privacy-defaults',
    {
      schema: {
        summary: 'The agency’s privacy defaults',
        tags: ['admin'],
        response: { 200: PrivacyDefaults },
      },
    },
    async (request) => {
      requireAdmin(request);
      return loadPrivacyDefaults(db);
    },
  );

  app.put(
    '/api/admin/privacy-defaults',
    {
      schema: {
        summary: 'Change the agency’s privacy defaults',
        tags: ['admin'],
        body: PrivacyDefaultsUpdate,
        response: { 200: PrivacyDefaults },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const before = await loadPrivacyDefaults(db);
      const after: PrivacyDefaults = {
        redaction: { ...before.redaction, ...request.body.redaction },
        nationalIdCountries: request.body.nationalIdCountries ?? before.nationalIdCountries,
        retention: { ...before.retention, ...request.body.retention },
      };
      await savePrivacyDefaults(db, after);
      forgetPrivacy(db);
      await recordAudit(db, { adminId: admin.id, action: 'privacy.defaults', detail: after }, now());
      // Clients following the defaults whose categories grew are redacted again; retention
      // applies to every client at the privacy job's next turn (started now).
      await requestReRedactionForFollowers(deps, before, after);
      wake(null);
      return after;
    },
  );
}

/** Clients that follow the agency's categories (saved none of their own) when a category was turned on. */
async function requestReRedactionForFollowers(
  deps: AppDeps,
  before: PrivacyDefaults,
  after: PrivacyDefaults,
) {
  // Object.keys is string[]; the keys are the redaction object's own
  const grew = (Object.keys(after.redaction) as (keyof PrivacyDefaults['redaction'])[]).some(
    (c) => after.redaction[c] && !before.redaction[c],
  );
  if (!grew) return;
  const privacy = await loadPrivacyMany(deps.db, await listClientIds(deps.db));
  const now = deps.now();
  for (const [id, { own }] of privacy) if (!own.redaction) await saveOwnPrivacy(deps.db, id, own, now, true);
}
