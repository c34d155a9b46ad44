/**
 * Two-factor sign-in's settings, written once and mounted twice: for the signed-in
 * client user under /api/client/2fa and for the signed-in admin under /api/admin/2fa. GET tells
 * whether it is on and required; setup gives a secret to scan; enable confirms it with a code and
 * answers the ten recovery codes, once; disable takes a code (TOTP or recovery). Codes typed here
 * are limited like the current password is (a stolen session must not guess them freely). Turning
 * it on ends the person's other sessions. The requirement: an Owner's for the client's users, any
 * admin's for every admin.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { SuccessBody } from '../../contract/common';
import {
  TWO_FACTOR_MESSAGES,
  TwoFactorCodeBody,
  TwoFactorRecoveryCodes,
  TwoFactorRequirementBody,
  TwoFactorSetup,
  TwoFactorStatus,
} from '../../contract/two-factor';
import { type ActivityAction, type AuditAction, recordActivity, recordAudit } from '../activity/record';
import { updateClient } from '../clients/clients-repository';
import { sha256Hex } from '../crypto/secrets';
import type { Database } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import { type ApiTag, apiDoc, type ExtraError, mountDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { createAttemptLimits } from './attempt-limits';
import { requireAdmin, requireClient, requireClientUser } from './guards';
import { endOtherAdminSessions, sessionCookie } from './sessions';
import { checkSecondFactor, confirmSetup, enableTwoFactor, startSetup } from './two-factor';
import {
  adminsRequireTwoFactor,
  disableTwoFactor,
  setAdminsRequireTwoFactor,
  type TwoFactorSubject,
  twoFactorStateOf,
} from './two-factor-store';
import { deleteOtherUserSessions } from './user-sessions';

/** The person the request is about, as one mount sees them. */
interface Person {
  subject: TwoFactorSubject;
  /** The account name the authenticator app shows. */
  label: string;
  /** Whether they must use it (then they cannot turn it off). */
  required(): Promise<boolean>;
  /** Writes the line a change leaves (the client's activity log; the audit log for an admin's own). */
  record(db: Kysely<Database>, action: ActivityAction, detail?: Record<string, unknown>): Promise<void>;
  /**
   * Ends every session of theirs but this request's: one opened before the second factor was on
   * (a stolen cookie among them) must not outlive it. Answers how many ended.
   */
  endOtherSessions(db: Kysely<Database>): Promise<number>;
}

/** The audit line of an admin's change to their own second factor (none for a code spent). */
const ADMIN_AUDIT: Partial<Record<ActivityAction, AuditAction>> = {
  two_factor_enabled: 'admin.two_factor_enabled',
  two_factor_disabled: 'admin.two_factor_disabled',
};

interface TwoFactorMount {
  prefix: '/api/client/2fa' | '/api/admin/2fa';
  /** The API description's tag, and the summary of GET on the prefix. */
  tag: Extract<ApiTag, 'client' | 'admin'>;
  statusSummary: string;
  config: FastifyContextConfig;
  person(request: FastifyRequest): Person;
}

export default async function twoFactorRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const attempts = createAttemptLimits(app.deps);

  const clientMount: TwoFactorMount = {
    prefix: '/api/client/2fa',
    tag: 'client',
    statusSummary: 'Whether two-factor sign-in is on for me, and required',
    config: { permission: 'signed_in' },
    person(request) {
      const client = requireClient(request);
      const user = requireClientUser(request);
      return {
        subject: { kind: 'client_user', id: user.id },
        label: user.email,
        required: async () => client.require_two_factor === 1,
        record: (trx, action, detail) =>
          recordActivity(trx, { clientId: client.id, userId: user.id, action, detail }, now()),
        endOtherSessions: (trx) =>
          deleteOtherUserSessions(trx, user, sha256Hex(sessionCookie(request, 'client') ?? '')),
      };
    },
  };
  const adminMount: TwoFactorMount = {
    prefix: '/api/admin/2fa',
    tag: 'admin',
    statusSummary: 'Whether two-factor sign-in is on for this admin, and required',
    config: {},
    person(request) {
      const admin = requireAdmin(request);
      return {
        subject: { kind: 'admin', id: admin.id },
        label: admin.username,
        required: () => adminsRequireTwoFactor(db),
        record: async (trx, action, detail) => {
          const audited = ADMIN_AUDIT[action];
          if (audited) await recordAudit(trx, { adminId: admin.id, action: audited, detail }, now());
        },
        endOtherSessions: (trx) =>
          endOtherAdminSessions(trx, admin.id, sha256Hex(sessionCookie(request, 'admin') ?? '')),
      };
    },
  };

  for (const mount of [clientMount, adminMount]) {
    const { prefix, config } = mount;
    const doc = (summary: string, errors?: ExtraError[]) => mountDoc(mount.tag, { summary, errors });

    app.get(
      prefix,
      { config, schema: { ...doc(mount.statusSummary), response: { 200: TwoFactorStatus } } },
      async (request) => {
        const person = mount.person(request);
        const state = await twoFactorStateOf(db, person.subject);
        return { enabled: state?.enabledAt != null, required: await person.required() };
      },
    );

    app.post(
      `${prefix}/setup`,
      {
        config,
        schema: {
          ...doc('Start setting up two-factor sign-in (a secret to scan)', [409]),
          response: { 200: TwoFactorSetup },
        },
      },
      async (request) => {
        const person = mount.person(request);
        const state = await twoFactorStateOf(db, person.subject);
        if (state?.enabledAt != null) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
        return startSetup(app.deps, db, person.subject, person.label);
      },
    );

    app.post(
      `${prefix}/enable`,
      {
        config,
        schema: {
          ...doc('Turn two-factor sign-in on with a code; answers the ten recovery codes, once', [409, 429]),
          body: TwoFactorCodeBody,
          response: { 200: TwoFactorRecoveryCodes },
        },
      },
      async (request, reply) => {
        const person = mount.person(request);
        const state = await twoFactorStateOf(db, person.subject);
        if (state?.enabledAt != null) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
        if (!state?.pendingEnc) throw conflict(TWO_FACTOR_MESSAGES.setupFirst);
        const attempt = await attempts.begin(request, reply, 'password', `2fa:${person.subject.id}`);
        const confirmed = await confirmSetup(app.deps, state, request.body.code);
        if (!confirmed) throw wrongCode();
        await attempt.succeeded();
        await db.transaction().execute(async (trx) => {
          await enableTwoFactor(trx, person.subject, confirmed.change, now());
          const sessionsEnded = await person.endOtherSessions(trx);
          await person.record(trx, 'two_factor_enabled', sessionsEnded > 0 ? { sessionsEnded } : undefined);
        });
        return { recoveryCodes: confirmed.recoveryCodes };
      },
    );

    app.post(
      `${prefix}/disable`,
      {
        config,
        schema: {
          ...doc('Turn two-factor sign-in off with a TOTP or recovery code', [409, 429]),
          body: TwoFactorCodeBody,
          response: { 200: SuccessBody },
        },
      },
      async (request, reply) => {
        const person = mount.person(request);
        const state = await twoFactorStateOf(db, person.subject);
        if (!state || state.enabledAt == null) throw conflict(TWO_FACTOR_MESSAGES.notOn);
        if (await person.required()) throw conflict(TWO_FACTOR_MESSAGES.requiredCannotDisable);
        const attempt = await attempts.begin(request, reply, 'password', `2fa:${person.subject.id}`);
        const used = await checkSecondFactor(app.deps, db, person.subject, state, request.body.code);
        if (!used) throw wrongCode();
        await attempt.succeeded();
        await db.transaction().execute(async (trx) => {
          await disableTwoFactor(trx, person.subject);
          if (used === 'recovery') await person.record(trx, 'recovery_code_used');
          await person.record(trx, 'two_factor_disabled', {
            with: used === 'recovery' ? 'recovery code' : 'authenticator code',
          });
        });
        return { success: true as const };
      },
    );
  }

  app.put(
    '/api/client/2fa/requirement',
    {
      config: { permission: 'users' },
      schema: {
        summary: 'Require two-factor sign-in of every user of the account (Owners)',
        tags: ['client'],
        ...apiDoc({ errors: [409] }),
        body: TwoFactorRequirementBody,
        response: { 200: TwoFactorRequirementBody },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const user = requireClientUser(request);
      const { required } = request.body;
      // Requiring it without having it would lock the Owner out of everything but the set-up.
      if (required) await mustHaveItOn({ kind: 'client_user', id: user.id });
      await db.transaction().execute(async (trx) => {
        await updateClient(trx, client.id, { require_two_factor: required ? 1 : 0, updated_at: now() });
        await recordActivity(
          trx,
          {
            clientId: client.id,
            userId: user.id,
            action: 'settings_change',
            detail: { setting: 'require_two_factor', required },
          },
          now(),
        );
      });
      return { required };
    },
  );

  app.put(
    '/api/admin/2fa/requirement',
    {
      schema: {
        summary: 'Require two-factor sign-in of every admin',
        tags: ['admin'],
        ...apiDoc({ errors: [409] }),
        body: TwoFactorRequirementBody,
        response: { 200: TwoFactorRequirementBody },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const { required } = request.body;
      if (required) await mustHaveItOn({ kind: 'admin', id: admin.id });
      await db.transaction().execute(async (trx) => {
        await setAdminsRequireTwoFactor(trx, required);
        await recordAudit(
          trx,
          { adminId: admin.id, action: 'admins.require_two_factor', detail: { required } },
          now(),
        );
      });
      return { required };
    },
  );

  async function mustHaveItOn(subject: TwoFactorSubject): Promise<void> {
    const state = await twoFactorStateOf(db, subject);
    if (state?.enabledAt == null) throw conflict(TWO_FACTOR_MESSAGES.enableYourselfFirst);
  }
}

function wrongCode() {
  return badRequest(TWO_FACTOR_MESSAGES.invalidCode, { code: TWO_FACTOR_MESSAGES.invalidCode });
}
