/**
 * The agency's admins, managed from the console: list, create (a temporary password
 * shown once), deactivate and reactivate, reset a password. Each change is audited. An admin
 * cannot deactivate itself, and the last active admin stays, so the console never locks itself out.
 * The CLI (`npm run cli -- admin …`) keeps working beside it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AdminAccount, AdminCredentials, CreateAdminBody } from '../../contract/agency';
import { isoTime } from '../../contract/common';
import { recordAudit } from '../activity/record';
import { requireAdmin } from '../auth/guards';
import { generateTemporaryPassword, hashPassword } from '../auth/passwords';
import { sessionCookie } from '../auth/sessions';
import { isPostgres } from '../db/dialect';
import type { AdminRow, Database } from '../db/schema';
import { conflict, notFound, unauthorized } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { createAdmin } from '../seed';

const LAST_ADMIN_MESSAGE = 'At least one active admin must remain';

/**
 * The ids of the active admins, locked in id order on PostgreSQL so that two deactivations wait
 * for each other and the second sees the first's change (READ COMMITTED re-checks locked rows).
 */
async function lockActiveAdmins(trx: Kysely<Database>): Promise<string[]> {
  const select = trx.selectFrom('admins').select('id').where('is_active', '=', 1).orderBy('id');
  const rows = await (isPostgres(trx) ? select.forUpdate() : select).execute();
  return rows.map((r) => r.id);
}

const AdminParam = z.object({ adminId: z.string().trim().min(1).max(100) });

function toAccount(row: AdminRow, you: string): AdminAccount {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    isActive: row.is_active === 1,
    createdAt: isoTime(row.created_at) ?? '',
    lastLoginAt: isoTime(row.last_login_at),
    isYou: row.id === you,
  };
}

export default async function adminsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now, sessions } = app.deps;

  async function adminOr404(id: string): Promise<AdminRow> {
    const row = await db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Admin not found');
    return row;
  }

  app.get(
    '/api/admin/admins',
    { schema: { summary: 'The agency’s admins', tags: ['admin'], response: { 200: z.array(AdminAccount) } } },
    async (request) => {
      const you = requireAdmin(request).id;
      const rows = await db.selectFrom('admins').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map((r) => toAccount(r, you));
    },
  );

  app.post(
    '/api/admin/admins',
    {
      schema: {
        summary: 'Add an admin (answers a temporary password)',
        tags: ['admin'],
        ...apiDoc({ errors: [409] }),
        body: CreateAdminBody,
        response: { 201: AdminCredentials },
      },
    },
    async (request, reply) => {
      const you = requireAdmin(request);
      const { username, name } = request.body;
      const temporaryPassword = generateTemporaryPassword();
      const passwordHash = await hashPassword(temporaryPassword);
      const created = await db.transaction().execute(async (trx) => {
        const taken = await trx
          .selectFrom('admins')
          .select('id')
          .where('username', '=', username)
          .executeTakeFirst();
        if (taken) throw conflict(`An admin named "${username}" already exists`);
        const id = await createAdmin(trx, { username, name, passwordHash }, now);
        await recordAudit(
          trx,
          { adminId: you.id, action: 'admin.create', detail: { adminId: id, username } },
          now(),
        );
        return trx.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      });
      reply.header('cache-control', 'no-store');
      return reply.code(201).send({ admin: toAccount(created, you.id), temporaryPassword });
    },
  );

  /**
   * Switches an admin on or off (audited when it changes); off also signs it out everywhere.
   * Deactivation re-reads, inside the transaction and under row locks on PostgreSQL (SQLite runs
   * one transaction at a time), that the one asking is still active and that another active admin
   * remains: two admins switching each other off at the same moment must leave one of them.
   */
  async function setActive(request: FastifyRequest, adminId: string, active: boolean) {
    const you = requireAdmin(request);
    const target = await adminOr404(adminId);
    if (!active && target.id === you.id) throw conflict('You cannot deactivate yourself; ask another admin');
    const updated = await db.transaction().execute(async (trx) => {
      const activeIds = await lockActiveAdmins(trx);
      if (!activeIds.includes(you.id)) throw unauthorized();
      const isActive = activeIds.includes(target.id);
      if (!active && isActive && activeIds.length < 2) throw conflict(LAST_ADMIN_MESSAGE);
      if (isActive !== active) {
        await trx
          .updateTable('admins')
          .set({ is_active: active ? 1 : 0 })
          .where('id', '=', target.id)
          .execute();
        if (!active)
          await trx
            .deleteFrom('sessions')
            .where('kind', '=', 'admin')
            .where('subject_id', '=', target.id)
            .execute();
        await recordAudit(
          trx,
          {
            adminId: you.id,
            action: active ? 'admin.activate' : 'admin.deactivate',
            detail: { adminId: target.id, username: target.username },
          },
          now(),
        );
      }
      return trx.selectFrom('admins').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow();
    });
    return toAccount(updated, you.id);
  }

  const toggle = (summary: string) => ({
    schema: {
      summary,
      tags: ['admin'],
      ...apiDoc({ errors: [409] }),
      params: AdminParam,
      response: { 200: AdminAccount },
    },
  });
  app.post('/api/admin/admins/:adminId/deactivate', toggle('Deactivate an admin'), (request) =>
    setActive(request, request.params.adminId, false),
  );
  app.post('/api/admin/admins/:adminId/activate', toggle('Activate an admin'), (request) =>
    setActive(request, request.params.adminId, true),
  );

  app.post(
    '/api/admin/admins/:adminId/reset-password',
    {
      schema: {
        summary: 'Give an admin a new temporary password',
        tags: ['admin'],
        params: AdminParam,
        response: { 200: AdminCredentials },
      },
    },
    async (request, reply) => {
      const you = requireAdmin(request);
      const target = await adminOr404(request.params.adminId);
      const temporaryPassword = generateTemporaryPassword();
      const passwordHash = await hashPassword(temporaryPassword);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('admins')
          .set({ password_hash: passwordHash })
          .where('id', '=', target.id)
          .execute();
        await recordAudit(
          trx,
          {
            adminId: you.id,
            action: 'admin.reset_password',
            detail: { adminId: target.id, username: target.username },
          },
          now(),
        );
      });
      // Whoever held the old password is signed out (an admin resetting its own keeps this session).
      await sessions.destroyAllFor(
        'admin',
        target.id,
        target.id === you.id ? sessionCookie(request, 'admin') : undefined,
      );
      reply.header('cache-control', 'no-store');
      return { admin: toAccount(target, you.id), temporaryPassword };
    },
  );
}
