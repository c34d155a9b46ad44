/**
 * The client's team: list, invite, change, remove, re-invite its people, and accept an
 * invitation. Only a holder of `users` (Owners) reaches the management routes; a user grants only
 * what they hold; the last active Owner cannot be removed, demoted or deactivated (checked in the
 * transaction, under a lock of the Owners' rows on PostgreSQL); a user deactivated or removed is
 * signed out everywhere at once. Invitations are single-use links e-mailed through the outbox,
 * valid 7 days, the token kept only as its sha256. Each change is a line of the client's activity.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ClientLoginResponse } from '../../contract/auth';
import {
  AcceptInvitationBody,
  ClientUser,
  INVITATION_TTL_MS,
  InvitationLookup,
  InvitationLookupBody,
  InviteUserBody,
  TEAM_MESSAGES,
  UpdateUserBody,
  UserIdParam,
} from '../../contract/teams';
import { TwoFactorRequired } from '../../contract/two-factor';
import { canSeeWebhookUrl, grantsOf, type SessionUserRow, ungrantable } from '../access/permissions';
import { recordActivity } from '../activity/record';
import { canSignIn, signInClientUser } from '../auth/client-sign-in';
import { requireClient, requireClientUser } from '../auth/guards';
import { hashPassword } from '../auth/passwords';
import { beginTwoFactorSignIn } from '../auth/two-factor-challenge';
import { invitationTarget, isAddressTakenForInvitation } from '../clients/address-identity';
import { toClientSession } from '../clients/client-view';
import { findClient } from '../clients/clients-repository';
import { isUniqueViolation } from '../clients/db-errors';
import {
  deleteUser,
  endUserSessions,
  findUser,
  findUserByInviteHash,
  insertInvitedUser,
  listUsers,
  lockActiveOwners,
  markSignedIn,
  setUserPassword,
  updateUser,
} from '../clients/users-repository';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { ClientRow, ClientUserRow, Database } from '../db/schema';
import { enforceCreationCap } from '../http/creation-caps';
import { badRequest, conflict, forbidden, HttpError, notFound, unauthorized } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import adminUsersRoutes from './admin-users-routes';
import { toClientUser } from './client-user-view';
import { sendUserLink } from './invitation-email';

const DAY_MS = 24 * 60 * 60 * 1000;
const USERS = { config: { permission: 'users' as const } };

export default async function usersRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now, config } = app.deps;
  // The agency's side of the same team (under /api/admin/), mounted with it.
  await app.register(adminUsersRoutes);

  /** What the actor may not give: 403 naming it. */
  function checkGrant(actor: SessionUserRow, role: ClientUserRow['role'], extras: readonly string[]) {
    // The body schema admits only Permission names as extras
    const missing = ungrantable(actor, role, extras as never);
    if (missing.length > 0) throw forbidden(TEAM_MESSAGES.cannotGrant(missing.join(', ')));
  }

  async function capInvitations(reply: FastifyReply, clientId: string) {
    await enforceCreationCap(app.deps, reply, {
      key: `invitation:${clientId}`,
      max: config.creationCaps.invitationsPerDay,
      windowMs: DAY_MS,
      what: 'invitations',
    });
  }

  /**
   * A new token for the user, its e-mail queued in the same transaction; for an address another
   * client holds, a token nobody is sent (the invitation looks sent, and could never be accepted).
   */
  const sendInvitation = async (
    trx: Kysely<Database>,
    client: ClientRow,
    user: ClientUserRow,
    inviter: string,
    deliverable: boolean,
  ) => {
    if (deliverable) return sendUserLink(app.deps, trx, client, user, { kind: 'invitation', inviter });
    await updateUser(trx, client.id, user.id, {
      invite_token_hash: sha256Hex(randomToken(32)),
      invite_expires_at: now() + INVITATION_TTL_MS,
      updated_at: now(),
    });
  };

  async function userOr404(clientId: string, id: string): Promise<ClientUserRow> {
    const user = await findUser(db, clientId, id);
    if (!user) throw notFound(TEAM_MESSAGES.userNotFound);
    return user;
  }

  app.get(
    '/api/client/users',
    {
      ...USERS,
      schema: {
        summary: 'The people of the account, with their roles',
        tags: ['client'],
        response: { 200: z.array(ClientUser) },
      },
    },
    async (request) => (await listUsers(db, requireClient(request).id)).map(toClientUser),
  );

  app.post(
    '/api/client/users',
    {
      ...USERS,
      schema: {
        summary: 'Invite a person (e-mails the invitation)',
        tags: ['client'],
        ...apiDoc({ errors: [409, 429] }),
        body: InviteUserBody,
        response: { 201: ClientUser },
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      const actor = requireClientUser(request);
      const { email, name, role, permissions = [] } = request.body;
      checkGrant(actor, role, permissions);
      // Counted before anything is looked up: a refusal spends the budget as a sent invitation does.
      await capInvitations(reply, client.id);
      const target = await invitationTarget(db, client, email);
      // Only this client's own people are named: another client's address is answered like a free one.
      if (target.ownRow) throw conflict(TEAM_MESSAGES.emailTaken);
      let created: ClientUserRow;
      try {
        created = await db.transaction().execute(async (trx) => {
          const id = await insertInvitedUser(
            trx,
            {
              clientId: client.id,
              email,
              name: name || '',
              role,
              permissions,
              // Replaced at once by sendInvitation; never a usable token.
              inviteTokenHash: sha256Hex(randomToken(32)),
              inviteExpiresAt: now(),
              invitedBy: actor.id,
              isAccountLogin: target.accountLogin,
            },
            now(),
          );
          // Inserted just above in this transaction, so findUser finds it
          const user = (await findUser(trx, client.id, id)) as ClientUserRow;
          await sendInvitation(trx, client, user, actor.name, target.deliverable);
          await recordActivity(
            trx,
            {
              clientId: client.id,
              userId: actor.id,
              action: 'invite',
              detail: { targetId: id, email, role, permissions },
            },
            now(),
          );
          // Inserted just above in this transaction, so findUser finds it
          return (await findUser(trx, client.id, id)) as ClientUserRow;
        });
      } catch (error) {
        // Two invitations of one address at once: the unique index decides.
        if (isUniqueViolation(error)) throw conflict(TEAM_MESSAGES.emailTaken);
        throw error;
      }
      return reply.code(201).send(toClientUser(created));
    },
  );

  app.patch(
    '/api/client/users/:id',
    {
      ...USERS,
      schema: {
        summary: 'Change a person’s role, extra permissions or access (a patch)',
        tags: ['client'],
        ...apiDoc({ errors: [409] }),
        params: UserIdParam,
        body: UpdateUserBody,
        response: { 200: ClientUser },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const actor = requireClientUser(request);
      const target = await userOr404(client.id, request.params.id);
      const { role = target.role, permissions = grantsOf(target), active } = request.body;
      checkGrant(actor, role, permissions);
      if (active !== undefined && target.status === 'invited')
        throw conflict('An invited user is activated by accepting the invitation; remove it to revoke it');
      const status =
        active === undefined || target.status === 'invited'
          ? target.status
          : active
            ? 'active'
            : 'deactivated';
      const updated = await db.transaction().execute(async (trx) => {
        const owners = await lockActiveOwners(trx, client.id);
        const staysOwner = role === 'owner' && status === 'active';
        if (owners.includes(target.id) && !staysOwner && owners.length < 2)
          throw conflict(TEAM_MESSAGES.lastOwner);
        // Locking oneself out is never what was meant: another Owner does it.
        if (active === false && target.id === actor.id)
          throw conflict(TEAM_MESSAGES.notYourself('deactivate'));
        await updateUser(trx, client.id, target.id, {
          role,
          permissions: JSON.stringify(permissions),
          status,
          updated_at: now(),
        });
        if (status === 'deactivated' && target.status !== 'deactivated') await endUserSessions(trx, target);
        const roleChanged =
          role !== target.role || JSON.stringify(permissions) !== JSON.stringify(grantsOf(target));
        if (roleChanged)
          await recordActivity(
            trx,
            {
              clientId: client.id,
              userId: actor.id,
              action: 'role_change',
              detail: {
                targetId: target.id,
                email: target.email,
                from: { role: target.role, permissions: grantsOf(target) },
                to: { role, permissions },
              },
            },
            now(),
          );
        if (status !== target.status)
          await recordActivity(
            trx,
            {
              clientId: client.id,
              userId: actor.id,
              action: status === 'active' ? 'user_activated' : 'user_deactivated',
              detail: { targetId: target.id, email: target.email },
            },
            now(),
          );
        // The user was just read in this transaction, so findUser finds it
        return (await findUser(trx, client.id, target.id)) as ClientUserRow;
      });
      return toClientUser(updated);
    },
  );

  app.delete(
    '/api/client/users/:id',
    {
      ...USERS,
      schema: {
        summary: 'Remove a person, or revoke an invitation',
        tags: ['client'],
        ...apiDoc({ errors: [409] }),
        params: UserIdParam,
        response: { 200: z.object({ success: z.literal(true) }) },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const actor = requireClientUser(request);
      const target = await userOr404(client.id, request.params.id);
      await db.transaction().execute(async (trx) => {
        const owners = await lockActiveOwners(trx, client.id);
        if (owners.includes(target.id) && owners.length < 2) throw conflict(TEAM_MESSAGES.lastOwner);
        if (target.id === actor.id) throw conflict(TEAM_MESSAGES.notYourself('remove'));
        await endUserSessions(trx, target);
        await deleteUser(trx, client.id, target.id);
        await recordActivity(
          trx,
          {
            clientId: client.id,
            userId: actor.id,
            // Removing someone who never accepted revokes the invitation.
            action: target.status === 'invited' ? 'invite_revoked' : 'user_removed',
            detail: { targetId: target.id, email: target.email, name: target.name, role: target.role },
          },
          now(),
        );
      });
      return { success: true as const };
    },
  );

  app.post(
    '/api/client/users/:id/resend-invite',
    {
      ...USERS,
      schema: {
        summary: 'Send the invitation again (the previous link stops working)',
        tags: ['client'],
        ...apiDoc({ errors: [409, 429] }),
        params: UserIdParam,
        response: { 200: ClientUser },
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      const actor = requireClientUser(request);
      const target = await userOr404(client.id, request.params.id);
      if (target.status !== 'invited') throw conflict(TEAM_MESSAGES.notInvited);
      await capInvitations(reply, client.id);
      const { deliverable } = await invitationTarget(db, client, target.email);
      const updated = await db.transaction().execute(async (trx) => {
        await sendInvitation(trx, client, target, actor.name, deliverable);
        await recordActivity(
          trx,
          {
            clientId: client.id,
            userId: actor.id,
            action: 'invite_resent',
            detail: { targetId: target.id, email: target.email },
          },
          now(),
        );
        // The user was just read in this transaction, so findUser finds it
        return (await findUser(trx, client.id, target.id)) as ClientUserRow;
      });
      return toClientUser(updated);
    },
  );

  app.post(
    '/api/client/invitations/lookup',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Whose invitation (or password-reset link) a token is: the company’s name, before accepting',
        tags: ['client'],
        ...apiDoc({ errors: [401, 410] }),
        body: InvitationLookupBody,
        response: { 200: InvitationLookup },
      },
    },
    async (request) => {
      // The same checks, in the same order and words, as accepting: a dead link reads the same.
      const invited = await findUserByInviteHash(db, sha256Hex(request.body.token));
      const isReset = invited?.status === 'active';
      if (!invited || (invited.status !== 'invited' && !isReset))
        throw badRequest(TEAM_MESSAGES.invitationInvalid);
      if ((invited.invite_expires_at ?? 0) <= now())
        throw new HttpError(410, TEAM_MESSAGES.invitationExpired);
      const client = await findClient(db, invited.client_id);
      return { companyName: client?.company_name ?? null, reset: isReset };
    },
  );

  app.post(
    '/api/client/invitations/accept',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Accept an invitation: set name and password, and sign in (sets the client session cookie)',
        tags: ['client'],
        ...apiDoc({ errors: [401, 409, 410] }),
        body: AcceptInvitationBody,
        response: { 200: ClientLoginResponse.or(TwoFactorRequired) },
      },
    },
    async (request, reply) => {
      const { token, name, password } = request.body;
      const tokenHash = sha256Hex(token);
      const invited = await findUserByInviteHash(db, tokenHash);
      // An active user with a link holds a password reset the agency sent (admin-users-routes.ts).
      const isReset = invited?.status === 'active';
      if (!invited || (invited.status !== 'invited' && !isReset))
        throw badRequest(TEAM_MESSAGES.invitationInvalid);
      if ((invited.invite_expires_at ?? 0) <= now())
        throw new HttpError(410, TEAM_MESSAGES.invitationExpired);
      if (!isReset && !name) throw badRequest('Enter your name', { name: 'Enter your name' });
      // The address became someone's own account since the invitation (the agency gave it to a
      // client, or its person joined another team): nobody lands in this team with it.
      if (!isReset && (await isAddressTakenForInvitation(db, invited)))
        throw conflict(TEAM_MESSAGES.addressHasAccount);
      const passwordHash = await hashPassword(password);
      const accepted = await db
        .transaction()
        .execute(async (trx) => {
          // Single use: only the request that clears this token's hash accepts.
          const result = await trx
            .updateTable('client_users')
            .set({
              ...(name ? { name } : {}),
              status: 'active',
              // The person chose this password: nothing left for them to change.
              must_change_password: 0,
              invite_token_hash: null,
              invite_expires_at: null,
              updated_at: now(),
            })
            .where('id', '=', invited.id)
            .where('invite_token_hash', '=', tokenHash)
            .where('status', '=', invited.status)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) !== 1) return false;
          // Also the client's own password when this is its account login.
          await setUserPassword(trx, invited, passwordHash, now());
          await recordActivity(
            trx,
            {
              clientId: invited.client_id,
              userId: invited.id,
              action: isReset ? 'password_change' : 'invite_accepted',
              detail: isReset ? { email: invited.email, via: 'reset_link' } : { email: invited.email },
            },
            now(),
          );
          return true;
        })
        .catch((error: unknown) => {
          // Two people accepting one address for two teams at once: the index on the address decides.
          if (isUniqueViolation(error)) throw conflict(TEAM_MESSAGES.addressHasAccount);
          throw error;
        });
      if (!accepted) throw badRequest(TEAM_MESSAGES.invitationInvalid);
      const client = await findClient(db, invited.client_id);
      // Accepted, but an account the agency switched off signs nobody in.
      if (!client || !canSignIn({ client, user: { status: 'active' } }))
        throw unauthorized(TEAM_MESSAGES.accountInactive);
      // A reset link is not a second factor: with two-factor sign-in on, the code still follows.
      if (invited.two_factor_enabled_at != null)
        return beginTwoFactorSignIn(app.deps, reply, { kind: 'client_user', id: invited.id });
      await signInClientUser(app.deps, request, reply, client.id, invited.id);
      await markSignedIn(db, invited.id, now());
      await recordActivity(db, { clientId: client.id, userId: invited.id, action: 'sign_in' }, now());
      return { success: true as const, client: toClientSession(client, app.deps, canSeeWebhookUrl(invited)) };
    },
  );
}
