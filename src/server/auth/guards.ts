/**
 * Authorization by prefix: one onRequest hook guards every route under /api/client/ and
 * /api/admin/, so a route added there cannot forget its check. The loaded client or admin rides on
 * the request and handlers take it from there (requireClient/requireAdmin), never from input and
 * never by reading the row again. Routes that must answer without a session (login, logout,
 * session probes) say `config: { access: 'public' }`; a route outside those prefixes that needs a
 * signed-in client (the demo's seed) says `config: { access: 'client' }`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AdminRow, ClientRow } from '../db/schema';
import { forbidden, unauthorized } from '../http/errors';
import { sessionCookie } from './sessions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Overrides the access the path's prefix implies ('public': no session needed). */
    access?: Access;
  }
  interface FastifyInstance {
    /** Every route with the access the guard gives it, in registration order (tests, docs). */
    routeTable: RouteAccess[];
  }
  interface FastifyRequest {
    /** Set by the guard on /api/client/* routes: the signed-in, active client. */
    client: ClientRow | null;
    /** Set by the guard on /api/admin/* routes. */
    admin: AdminRow | null;
  }
}

export const CLIENT_PREFIX = '/api/client/';
export const ADMIN_PREFIX = '/api/admin/';

export type Access = 'public' | 'client' | 'admin';

export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
}

function accessOf(route: string, configured: Access | undefined): Access {
  if (configured) return configured;
  if (route.startsWith(CLIENT_PREFIX)) return 'client';
  if (route.startsWith(ADMIN_PREFIX)) return 'admin';
  return 'public';
}

/** Call before any route is added: the route table is collected as routes register. */
export function registerGuards(app: FastifyInstance): void {
  app.decorateRequest('client', null);
  app.decorateRequest('admin', null);
  const routeTable: RouteAccess[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const access = accessOf(route.url, route.config?.access);
    for (const method of methods) if (method !== 'HEAD') routeTable.push({ method, url: route.url, access });
  });
  app.addHook('onRequest', async (request) => {
    // The matched route's pattern, not the raw URL: an unknown path reaches the 404 handler.
    const route = request.routeOptions.url;
    if (!route) return;
    const access = accessOf(route, request.routeOptions.config.access);
    if (access === 'client') {
      request.client = await currentClient(app, request);
      if (!request.client) throw unauthorized();
    } else if (access === 'admin') {
      request.admin = await currentAdmin(app, request);
      if (request.admin) return;
      // 401 without any session; 403 for a signed-in client reaching an admin path.
      if (await currentClient(app, request)) throw forbidden('Admin access required');
      throw unauthorized();
    }
  });
}

export async function currentClient(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<ClientRow | null> {
  const client = await app.deps.sessions.resolve('client', sessionCookie(request, 'client'));
  // A deactivated or not-yet-onboarded client has no access, whatever its cookie says.
  if (client?.is_active !== 1 || client.onboarding_status !== 'active') return null;
  return client;
}

export async function currentAdmin(app: FastifyInstance, request: FastifyRequest): Promise<AdminRow | null> {
  const admin = await app.deps.sessions.resolve('admin', sessionCookie(request, 'admin'));
  // A deactivated admin's sessions are ended when it happens; this holds against a race with it.
  return admin && admin.is_active === 1 ? admin : null;
}

/** The client the guard loaded for this /api/client/* request. */
export function requireClient(request: FastifyRequest): ClientRow {
  if (!request.client) throw unauthorized();
  return request.client;
}

/** The admin the guard loaded for this /api/admin/* request. */
export function requireAdmin(request: FastifyRequest): AdminRow {
  if (!request.admin) throw unauthorized();
  return request.admin;
}
