/**
 * The agency's side of a client's team, admin-only like everything under /api/admin/:
 * the client's users, resend an invitation, and send a user a single-use link to choose a new
 * password (the invitation mechanism: the /accept-invite page serves it). A reset ends the user's
 * sessions at once but leaves the current password working until the link is used, so a link sent
 * to a mistyped or unread address does not lock an Owner out. Every write is a line of the agency's
 * audit log and of the client's activity log (so the client sees what the agency did). Another
 * client's user id is a 404, like an unknown one.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { ClientUser, TEAM_MESSAGES } from '../../contract/teams';
import { recordActivity, recordAudit } from '../activity/record';
import { requireAdmin } from '../auth/guards';
import { loadBrand } from '../brand/brand-store';
import { invitationTarget } from '../clients/address-identity';
import { namedClient } from '../clients/named-client';
import { endUserSessions, ensureAccountLogin, findUser, listUsers } from '../clients/users-repository';
import type { ClientRow, ClientUserRow } from '../db/schema';
import { enforceCreationCap } from '../http/creation-caps';
import { conflict, notFound } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { toClientUser } from './client-user-view';
import { sendUserLink } from './invitation-email';

const DAY_MS = 24 * 60 * 60 * 1000;
const ClientParam = z.object({ id: z.string().trim().min(1).max(100) });
const ClientUserParam = ClientParam.extend({ userId: z.string().trim().min(1).max(100) });

export const ADMIN_TEAM_MESSAGES = {
  addressElsewhere:
    'This address is another client’s login or a person of another client’s team, so the invitation cannot be accepted; it is not sent',
  resetNeedsActive:
    'Only an active user can be sent a new password link; an invited user needs the invitation again',
} as const;

export default async function adminUsersRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now, config } = app.deps;

  const clientOr404 = (id: string): Promise<ClientRow> => namedClient(db, id);

  async function userOr404(client: ClientRow, userId: string): Promise<ClientUserRow> {
    const user = await findUser(db, client.id, userId);
    if (!user) throw notFound(TEAM_MESSAGES.userNotFound);
    return user;
  }

  // Links sent by the agency count in the client's invitation cap: one budget per client's mailbox.
  async function capLinks(reply: FastifyReply, clientId: string) {
    await enforceCreationCap(app.deps, reply, {
      key: `invitation:${clientId}`,
      max: config.creationCaps.invitationsPerDay,
      windowMs: DAY_MS,
      what: 'invitations',
    });
  }

  app.get(
    '/api/admin/clients/:id/users',
    {
      schema: {
        summary: 'A client’s users: role, status, last sign-in, two-factor',
        tags: ['admin'],
        params: ClientParam,
        response: { 200: z.array(ClientUser) },
      },
    },
    async (request) => {
      const client = await clientOr404(request.params.id);
      // A client whose login was made before teams, or by the agency, and never signed in has no
      // user row yet: its Owner is made now, as the first sign-in would, so the agency can help it.
      await ensureAccountLogin(db, client, now());
      return (await listUsers(db, client.id)).map(toClientUser);
    },
  );

  app.post(
    '/api/admin/clients/:id/users/:userId/resend-invite',
    {
      schema: {
        summary: 'Send a client user’s invitation again (the previous link stops working)',
        tags: ['admin'],
        ...apiDoc({ errors: [409, 429] }),
        params: ClientUserParam,
        response: { 200: ClientUser },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const client = await clientOr404(request.params.id);
      const target = await userOr404(client, request.params.userId);
      if (target.status !== 'invited') throw conflict(TEAM_MESSAGES.notInvited);
      await capLinks(reply, client.id);
      // The agency may know whose the address is; the client's Owner is never told (users-routes).
      if (!(await invitationTarget(db, client, target.email)).deliverable)
        throw conflict(ADMIN_TEAM_MESSAGES.addressElsewhere);
      // The agency invites under its brand's name, read before the transaction.
      const agencyName = (await loadBrand(app.deps)).settings.name;
      const updated = await db.transaction().execute(async (trx) => {
        await sendUserLink(app.deps, trx, client, target, { kind: 'invitation', inviter: agencyName });
        const detail = { targetId: target.id, email: target.email, byAgency: admin.name || admin.username };
        await recordAudit(
          trx,
          {
            adminId: admin.id,
            action: 'client.user_resend_invite',
            clientId: client.id,
            detail: { targetId: target.id },
          },
          now(),
        );
        await recordActivity(
          trx,
          { clientId: client.id, userId: null, action: 'invite_resent', detail },
          now(),
        );
        // The user was just read in this transaction, so findUser finds it
        return (await findUser(trx, client.id, target.id)) as ClientUserRow;
      });
      return toClientUser(updated);
    },
  );

  app.post(
    '/api/admin/clients/:id/users/:userId/reset-password',
    {
      schema: {
        summary:
          'E-mail an active client user a single-use link to choose a new password; ends their sessions',
        tags: ['admin'],
        ...apiDoc({ errors: [409, 429] }),
        params: ClientUserParam,
        response: { 200: z.object({ success: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const client = await clientOr404(request.params.id);
      const target = await userOr404(client, request.params.userId);
      if (target.status !== 'active') throw conflict(ADMIN_TEAM_MESSAGES.resetNeedsActive);
      await capLinks(reply, client.id);
      await db.transaction().execute(async (trx) => {
        await sendUserLink(app.deps, trx, client, target, { kind: 'password_reset' });
        // Whoever is signed in as this user now (perhaps the reason for the reset) is signed out.
        await endUserSessions(trx, target);
        await recordAudit(
          trx,
          {
            adminId: admin.id,
            action: 'client.user_reset_password',
            clientId: client.id,
            detail: { targetId: target.id },
          },
          now(),
        );
        await recordActivity(
          trx,
          {
            clientId: client.id,
            userId: null,
            action: 'password_change',
            detail: {
              targetId: target.id,
              email: target.email,
              byAgency: admin.name || admin.username,
              linkSent: true,
            },
          },
          now(),
        );
      });
      return { success: true as const };
    },
  );
}
