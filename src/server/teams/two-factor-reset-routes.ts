/**
 * The agency turning off a client user's two-factor sign-in, for someone who lost
 * their phone and their recovery codes: the secret and the recovery codes go, the user's sessions
 * end, and it leaves a line in the client's activity log (naming the admin) and in the agency's
 * audit log. Another client's user id is a 404, like an unknown one. The admin client view's
 * button (H4's) calls it.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SuccessBody } from '../../contract/common';
import { TEAM_MESSAGES } from '../../contract/teams';
import { recordActivity, recordAudit } from '../activity/record';
import { requireAdmin } from '../auth/guards';
import { disableTwoFactor } from '../auth/two-factor-store';
import { namedClient } from '../clients/named-client';
import { endUserSessions, findUser } from '../clients/users-repository';
import { notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/route-schemas';

const ClientUserParam = z.object({
  id: z.string().trim().min(1).max(100),
  userId: z.string().trim().min(1).max(100),
});

export default async function twoFactorResetRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;

  app.post(
    '/api/admin/clients/:id/users/:userId/reset-2fa',
    {
      schema: {
        summary: 'Turn off a client user’s two-factor sign-in (ends their sessions)',
        tags: ['admin'],
        params: ClientUserParam,
        response: { 200: SuccessBody },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const client = await namedClient(db, request.params.id);
      const user = await findUser(db, client.id, request.params.userId);
      if (!user) throw notFound(TEAM_MESSAGES.userNotFound);
      await db.transaction().execute(async (trx) => {
        await disableTwoFactor(trx, { kind: 'client_user', id: user.id });
        await endUserSessions(trx, user);
        await recordActivity(
          trx,
          {
            clientId: client.id,
            userId: null,
            action: 'two_factor_reset',
            detail: { admin: admin.name, userId: user.id, name: user.name, email: user.email },
          },
          now(),
        );
        await recordAudit(
          trx,
          {
            adminId: admin.id,
            action: 'client.user_reset_two_factor',
            clientId: client.id,
            detail: { userId: user.id },
          },
          now(),
        );
      });
      return { success: true as const };
    },
  );
}
