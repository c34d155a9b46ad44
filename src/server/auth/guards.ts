/**
 * The named authorization checks. Every /api/client/* handler calls requireClient first and
 * takes the client only from the session; every /api/admin/* handler calls requireAdmin.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors';
import type { AdminRow, ClientRow } from '../db/schema';
import { sessionCookie } from './sessions';

export async function currentClient(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<ClientRow | null> {
  const { sessions, db } = app.deps;
  const clientId = await sessions.resolve('client', sessionCookie(request, 'client'));
  if (!clientId) return null;
  const client = await db.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirst();
  // A deactivated or not-yet-onboarded client has no access, whatever its cookie says.
  if (client?.is_active !== 1 || client.onboarding_status !== 'active') return null;
  return client;
}

export async function currentAdmin(app: FastifyInstance, request: FastifyRequest): Promise<AdminRow | null> {
  const { sessions, db } = app.deps;
  const adminId = await sessions.resolve('admin', sessionCookie(request, 'admin'));
  if (!adminId) return null;
  return (await db.selectFrom('admins').selectAll().where('id', '=', adminId).executeTakeFirst()) ?? null;
}

export async function requireClient(app: FastifyInstance, request: FastifyRequest): Promise<ClientRow> {
  const client = await currentClient(app, request);
  if (!client) throw unauthorized();
  return client;
}

/** 401 without any session; 403 for a logged-in client reaching an admin path. */
export async function requireAdmin(app: FastifyInstance, request: FastifyRequest): Promise<AdminRow> {
  const admin = await currentAdmin(app, request);
  if (admin) return admin;
  if (await currentClient(app, request)) throw forbidden('Admin access required');
  throw unauthorized();
}
