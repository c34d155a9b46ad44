/**
 * The second step of signing in. A right password of someone with two-factor sign-in
 * on answers `{twoFactorRequired: true}` and opens no session: it leaves a pending sign-in (five
 * minutes; the browser holds a random token in an httpOnly cookie, the database its sha256), and
 * POST /api/client/login/2fa or /api/admin/login/2fa with a code completes it, answering as the
 * login does. Codes count in the login's attempt limits, on the same account key as its
 * passwords, and the password step does not forgive earlier failures (only a right code does), so
 * alternating passwords and codes cannot reset the count.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AdminSession, ClientLoginResponse } from '../../contract/auth';
import { TWO_FACTOR_MESSAGES, TwoFactorCodeBody } from '../../contract/two-factor';
import { canSeeWebhookUrl } from '../access/permissions';
import { recordActivity } from '../activity/record';
import { toClientSession } from '../clients/client-view';
import { findSignInUser, markSignedIn } from '../clients/users-repository';
import type { TwoFactorSubjectKind } from '../db/schema';
import { unauthorized } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { createAttemptLimits } from './attempt-limits';
import { canSignIn } from './client-sign-in';
import { checkSecondFactor } from './two-factor';
import { CHALLENGE_COOKIES, challengeCookieOptions } from './two-factor-challenge';
import { mustChangePasswordFlag } from './two-factor-requirement';
import { deleteChallenge, findChallenge, twoFactorStateOf } from './two-factor-store';

/** How authRoutes opens sessions, so that both steps open them the same way. */
export interface SessionStarters {
  startClientSession(
    request: FastifyRequest,
    reply: FastifyReply,
    clientId: string,
    userId: string,
  ): Promise<void>;
  startAdminSession(request: FastifyRequest, reply: FastifyReply, adminId: string): Promise<void>;
}

/** Registers the two second-step routes on authRoutes' instance. */
export function registerTwoFactorLogin(fastify: FastifyInstance, starters: SessionStarters): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const attempts = createAttemptLimits(app.deps);
  const PUBLIC = { access: 'public' as const };

  /** The live pending sign-in of this kind, or 401 asking for the password again. */
  async function pendingSubject(request: FastifyRequest, kind: TwoFactorSubjectKind) {
    const subject = await findChallenge(db, kind, request.cookies[CHALLENGE_COOKIES[kind]], now());
    if (!subject) throw unauthorized(TWO_FACTOR_MESSAGES.challengeExpired);
    return subject;
  }

  function endChallenge(request: FastifyRequest, reply: FastifyReply, kind: TwoFactorSubjectKind) {
    reply.clearCookie(CHALLENGE_COOKIES[kind], challengeCookieOptions(app.deps));
    return deleteChallenge(db, request.cookies[CHALLENGE_COOKIES[kind]]);
  }

  app.post(
    '/api/client/login/2fa',
    {
      config: PUBLIC,
      schema: {
        summary: 'Complete a sign-in that answered twoFactorRequired, with a TOTP or recovery code',
        tags: ['client'],
        ...apiDoc({ errors: [401, 429] }),
        body: TwoFactorCodeBody,
        response: { 200: ClientLoginResponse },
      },
    },
    async (request, reply) => {
      const subject = await pendingSubject(request, 'client_user');
      const row = await db
        .selectFrom('client_users')
        .select('email')
        .where('id', '=', subject.id)
        .executeTakeFirst();
      const signIn = row ? await findSignInUser(db, row.email) : undefined;
      // Deactivated (or its client) while the code was awaited: as gone as an expired sign-in.
      if (!signIn || !canSignIn(signIn)) {
        await endChallenge(request, reply, 'client_user');
        throw unauthorized(TWO_FACTOR_MESSAGES.challengeExpired);
      }
      const { client, user } = signIn;
      const attempt = await attempts.begin(request, reply, 'client', user.email);
      const state = await twoFactorStateOf(db, subject);
      const used = state ? await checkSecondFactor(app.deps, db, subject, state, request.body.code) : null;
      if (!used) {
        await recordActivity(
          db,
          {
            clientId: client.id,
            userId: user.id,
            action: 'sign_in_failed',
            detail: { email: user.email, step: 'two_factor' },
          },
          now(),
        );
        throw unauthorized(TWO_FACTOR_MESSAGES.invalidCode);
      }
      await endChallenge(request, reply, 'client_user');
      await starters.startClientSession(request, reply, client.id, user.id);
      await markSignedIn(db, user.id, now());
      if (used === 'recovery')
        await recordActivity(
          db,
          { clientId: client.id, userId: user.id, action: 'recovery_code_used' },
          now(),
        );
      await recordActivity(db, { clientId: client.id, userId: user.id, action: 'sign_in' }, now());
      await attempt.succeeded();
      return {
        success: true as const,
        client: toClientSession(client, app.deps, canSeeWebhookUrl(user)),
        ...mustChangePasswordFlag(user),
      };
    },
  );

  app.post(
    '/api/admin/login/2fa',
    {
      config: PUBLIC,
      schema: {
        summary: 'Complete an admin sign-in that answered twoFactorRequired, with a TOTP or recovery code',
        tags: ['admin'],
        ...apiDoc({ errors: [401, 429] }),
        body: TwoFactorCodeBody,
        response: { 200: AdminSession },
      },
    },
    async (request, reply) => {
      const subject = await pendingSubject(request, 'admin');
      const admin = await db.selectFrom('admins').selectAll().where('id', '=', subject.id).executeTakeFirst();
      if (!admin?.is_active) {
        await endChallenge(request, reply, 'admin');
        throw unauthorized(TWO_FACTOR_MESSAGES.challengeExpired);
      }
      const attempt = await attempts.begin(request, reply, 'admin', admin.username);
      const state = await twoFactorStateOf(db, subject);
      const used = state ? await checkSecondFactor(app.deps, db, subject, state, request.body.code) : null;
      if (!used) throw unauthorized(TWO_FACTOR_MESSAGES.invalidCode);
      await endChallenge(request, reply, 'admin');
      await db.updateTable('admins').set({ last_login_at: now() }).where('id', '=', admin.id).execute();
      await starters.startAdminSession(request, reply, admin.id);
      await attempt.succeeded();
      return { id: admin.id, username: admin.username, name: admin.name };
    },
  );
}
