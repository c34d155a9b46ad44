/**
 * Everything about signing in, registered by the app as one plugin: login, logout and session
 * endpoints for clients and admins (below; SPEC §7, DESIGN §6 [1] [8] [9] [13]), two-factor
 * settings (two-factor-routes.ts) and each user's sessions (sessions-routes.ts).
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AdminLoginBody,
  AdminSession,
  ClientLoginBody,
  ClientLoginResponse,
  INVALID_ADMIN_LOGIN,
  INVALID_CLIENT_LOGIN,
} from '../../contract/auth';
import { ClientSessionWithUser } from '../../contract/teams';
import { TwoFactorRequired } from '../../contract/two-factor';
import { canSeeWebhookUrl, toSessionUser } from '../access/permissions';
import { recordActivity } from '../activity/record';
import { toClientSession } from '../clients/client-view';
import { findActiveClientByEmail } from '../clients/clients-repository';
import {
  ensureAccountLogin,
  findSignInUser,
  markSignedIn,
  setUserPassword,
} from '../clients/users-repository';
import type { SessionKind } from '../db/schema';
import { unauthorized } from '../http/errors';
import { ADMIN_SESSION, apiDoc, CLIENT_SESSION, ok, redirect } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { createAttemptLimits } from './attempt-limits';
import { canSignIn, signInClientUser } from './client-sign-in';
import { currentAdmin, currentClientAndUser } from './guards';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './passwords';
import { clearSessionCookie, deviceOf, sessionCookie, setSessionCookie } from './sessions';
import sessionsRoutes from './sessions-routes';
import { beginTwoFactorSignIn } from './two-factor-challenge';
import { registerTwoFactorLogin } from './two-factor-login-routes';
import { mustChangePasswordFlag } from './two-factor-requirement';
import twoFactorRoutes from './two-factor-routes';

const SIGNED_OUT = ok('Signed out (also when there was no session).', {
  type: 'object',
  required: ['success'],
  properties: { success: { type: 'boolean', enum: [true] } },
});

export default async function authRoutes(app: FastifyInstance): Promise<void> {
  await app.register(signInRoutes);
  await app.register(twoFactorRoutes);
  await app.register(sessionsRoutes);
}

async function signInRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, sessions, config, now } = app.deps;
  const cookieOpts = { secure: config.publicUrl.startsWith('https://') };

  const attempts = createAttemptLimits(app.deps);

  async function startSession(
    request: FastifyRequest,
    reply: import('fastify').FastifyReply,
    kind: SessionKind,
    id: string,
  ) {
    // Rotate: whatever session id the browser had before login is discarded.
    await sessions.destroy(sessionCookie(request, kind));
    setSessionCookie(reply, kind, await sessions.create(kind, id, undefined, deviceOf(request)), cookieOpts);
  }
  const startClientSession = (
    request: FastifyRequest,
    reply: FastifyReply,
    clientId: string,
    userId: string,
  ) => signInClientUser(app.deps, request, reply, clientId, userId);

  /**
   * The user of this e-mail with its client. A client that has no users yet (created before teams,
   * or outside sign-up) gets its own login as its first Owner now.
   */
  async function findClientSignIn(email: string) {
    const found = await findSignInUser(db, email);
    if (found) return found;
    const client = await findActiveClientByEmail(db, email);
    if (!client?.password_hash) return undefined;
    await ensureAccountLogin(db, client, now());
    return findSignInUser(db, email);
  }

  // Signing in and out, and the session probes, answer without a session (auth/guards.ts).
  const PUBLIC = { config: { access: 'public' as const } };
  const signOut = (summary: string) => ({
    ...PUBLIC,
    schema: { summary, tags: ['auth'], ...apiDoc({ responses: SIGNED_OUT }) },
  });

  app.post(
    '/api/client/login',
    {
      ...PUBLIC,
      schema: {
        summary: 'Sign a client in (sets the client session cookie)',
        tags: ['auth'],
        ...apiDoc({ errors: [401, 429] }),
        body: ClientLoginBody,
        response: { 200: ClientLoginResponse.or(TwoFactorRequired) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const email = body.email.toLowerCase();
      const attempt = await attempts.begin(request, reply, 'client', email);
      const signIn = await findClientSignIn(email);
      const hash = signIn?.user.password_hash ?? (await decoyHash());
      const passwordOk = await verifyPassword(body.password, hash);
      if (!signIn?.user.password_hash || !passwordOk || !canSignIn(signIn)) {
        // Only a person of a client is recorded; an unknown e-mail belongs to nobody's log.
        if (signIn)
          await recordActivity(
            db,
            {
              clientId: signIn.client.id,
              userId: signIn.user.id,
              action: 'sign_in_failed',
              detail: { email },
            },
            now(),
          );
        throw unauthorized(INVALID_CLIENT_LOGIN);
      }
      const { client, user } = signIn;
      if (needsRehash(signIn.user.password_hash)) {
        await setUserPassword(db, user, await hashPassword(body.password), now());
      }
      // Two-factor sign-in on: no session yet, and no failures forgiven until the code is right.
      if (user.two_factor_enabled_at != null)
        return beginTwoFactorSignIn(app.deps, reply, { kind: 'client_user', id: user.id });
      await startClientSession(request, reply, client.id, user.id);
      await markSignedIn(db, user.id, now());
      await recordActivity(db, { clientId: client.id, userId: user.id, action: 'sign_in' }, now());
      // After the session cookie: the device cookie marks this browser as the owner's from now on.
      await attempt.succeeded();
      return {
        success: true as const,
        client: toClientSession(client, app.deps, canSeeWebhookUrl(user)),
        ...mustChangePasswordFlag(user),
      };
    },
  );

  app.post('/api/client/logout', signOut('Sign the client out'), async (request, reply) => {
    await sessions.destroy(sessionCookie(request, 'client'));
    clearSessionCookie(reply, 'client', cookieOpts);
    return { success: true };
  });

  app.get(
    '/api/client/session',
    {
      ...PUBLIC,
      schema: {
        summary: 'The signed-in client',
        tags: ['auth'],
        security: CLIENT_SESSION,
        ...apiDoc({ errors: [401] }),
        response: { 200: ClientSessionWithUser },
      },
    },
    async (request) => {
      const signedIn = await currentClientAndUser(app, request);
      if (!signedIn) throw unauthorized();
      const { client, user } = signedIn;
      return {
        ...toClientSession(client, app.deps, canSeeWebhookUrl(user)),
        user: toSessionUser(user),
        ...mustChangePasswordFlag(user),
      };
    },
  );

  app.post(
    '/api/admin/login',
    {
      ...PUBLIC,
      schema: {
        summary: 'Sign an admin in (sets the admin session cookie)',
        tags: ['auth'],
        ...apiDoc({ errors: [401, 429] }),
        body: AdminLoginBody,
        response: { 200: AdminSession.or(TwoFactorRequired) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const username = body.username.toLowerCase();
      const attempt = await attempts.begin(request, reply, 'admin', username);
      const admin = await db
        .selectFrom('admins')
        .selectAll()
        .where('username', '=', username)
        .executeTakeFirst();
      const passwordOk = await verifyPassword(body.password, admin?.password_hash ?? (await decoyHash()));
      // A deactivated admin gets the same answer as a wrong password: nothing to learn from it.
      if (!admin || !passwordOk || admin.is_active !== 1) throw unauthorized(INVALID_ADMIN_LOGIN);
      const rehashed = needsRehash(admin.password_hash)
        ? { password_hash: await hashPassword(body.password) }
        : {};
      await db
        .updateTable('admins')
        .set({ last_login_at: now(), ...rehashed })
        .where('id', '=', admin.id)
        .execute();
      if (admin.two_factor_enabled_at != null)
        return beginTwoFactorSignIn(app.deps, reply, { kind: 'admin', id: admin.id });
      await startSession(request, reply, 'admin', admin.id);
      await attempt.succeeded();
      return toAdminSession(admin);
    },
  );

  app.post('/api/admin/logout', signOut('Sign the admin out'), async (request, reply) => {
    await sessions.destroy(sessionCookie(request, 'admin'));
    clearSessionCookie(reply, 'admin', cookieOpts);
    return { success: true };
  });

  app.get(
    '/api/admin/session',
    {
      ...PUBLIC,
      schema: {
        summary: 'The signed-in admin',
        tags: ['auth'],
        security: ADMIN_SESSION,
        ...apiDoc({ errors: [401] }),
        response: { 200: AdminSession },
      },
    },
    async (request) => {
      const admin = await currentAdmin(app, request);
      if (!admin) throw unauthorized();
      return toAdminSession(admin);
    },
  );

  registerTwoFactorLogin(app, {
    startClientSession,
    startAdminSession: (request, reply, adminId) => startSession(request, reply, 'admin', adminId),
  });

  // The browser's unauthorized path sends people here (SPEC §8); the login page is the answer.
  app.get(
    '/api/login',
    {
      schema: {
        summary: 'Send the browser to the sign-in page',
        tags: ['auth'],
        ...apiDoc({ responses: redirect(302, 'To the client sign-in page') }),
      },
    },
    async (_request, reply) => reply.redirect('/client-login'),
  );
}

function toAdminSession(admin: { id: string; username: string; name: string }): AdminSession {
  return { id: admin.id, username: admin.username, name: admin.name };
}
