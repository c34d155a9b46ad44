/**
 * Authorization by prefix: one onRequest hook guards every route under /api/client/ and
 * /api/admin/, so a route added there cannot forget its check. The loaded client or admin rides on
 * the request and handlers take it from there (requireClient/requireAdmin), never from input and
 * never by reading the row again. Routes that must answer without a session (login, logout,
 * session probes) say `config: { access: 'public' }`; a route outside those prefixes that needs a
 * signed-in client (the demo's seed) says `config: { access: 'client' }`, and one that serves a
 * client's user or any admin (the recording download) `config: { access: 'client_or_admin' }`.
 * Every signed-in request passes the two-factor and new-password requirements here too
 * (two-factor-requirement.ts), so no route that reads data is reached by a session that must first
 * set it up or choose its own password.
 *
 * A client session signs in one of the client's users; every route it reaches says the
 * permission it needs (`config: { permission }`, access/permissions.ts), checked here too, so the
 * check is as impossible to forget as the session's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TEAM_MESSAGES } from '../../contract/teams';
import { hasPermission, type RoutePermission, type SessionUserRow } from '../access/permissions';
import type { AdminRow, ClientRow } from '../db/schema';
import { forbidden, unauthorized } from '../http/errors';
import { sessionCookie } from './sessions';
import {
  adminMustSetUp,
  clientMustChangePassword,
  clientMustSetUp,
  enforceAdminTwoFactor,
  enforceClientPasswordChange,
  enforceClientTwoFactor,
} from './two-factor-requirement';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Overrides the access the path's prefix implies ('public': no session needed). */
    access?: Access;
    /** What a client user needs to reach the route (access/permissions.ts); required on client routes. */
    permission?: RoutePermission;
  }
  interface FastifyInstance {
    /** Every route with the access the guard gives it, in registration order (tests, docs). */
    routeTable: RouteAccess[];
  }
  interface FastifyRequest {
    /** Set by the guard on /api/client/* routes: the signed-in, active client. */
    client: ClientRow | null;
    /** Set with `client`: the client's user this session signs in. */
    clientUser: SessionUserRow | null;
    /** Set by the guard on /api/admin/* routes. */
    admin: AdminRow | null;
  }
}

export const CLIENT_PREFIX = '/api/client/';
export const ADMIN_PREFIX = '/api/admin/';

/** 'client_or_admin': a client's user (checked as 'client'), else an admin (checked as 'admin'). */
export type Access = 'public' | 'client' | 'admin' | 'client_or_admin';

export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
  /** What a client user needs (client routes); undefined when the route declares nothing. */
  permission?: RoutePermission;
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
  app.decorateRequest('clientUser', null);
  app.decorateRequest('admin', null);
  const routeTable: RouteAccess[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const access = accessOf(route.url, route.config?.access);
    const permission = route.config?.permission;
    for (const method of methods)
      if (method !== 'HEAD') routeTable.push({ method, url: route.url, access, permission });
  });
  app.addHook('onRequest', async (request) => {
    // The matched route's pattern, not the raw URL: an unknown path reaches the 404 handler.
    const route = request.routeOptions.url;
    if (!route) return;
    const access = accessOf(route, request.routeOptions.config.access);
    if (access === 'client') {
      const signedIn = await currentClientAndUser(app, request);
      if (!signedIn) throw unauthorized();
      await admitClient(app, request, signedIn);
    } else if (access === 'admin') {
      request.admin = await currentAdmin(app, request);
      if (request.admin) return enforceAdminTwoFactor(app, request, request.admin);
      // 401 without any session; 403 for a signed-in client reaching an admin path.
      if (await currentClient(app, request)) throw forbidden('Admin access required');
      throw unauthorized();
    } else if (access === 'client_or_admin') {
      const signedIn = await currentClientAndUser(app, request);
      if (signedIn) return admitClient(app, request, signedIn);
      request.admin = await currentAdmin(app, request);
      if (!request.admin) throw unauthorized();
      await enforceAdminTwoFactor(app, request, request.admin);
    }
  });
}

/** A client's user on a client route: the route's permission, then the two-factor requirement. */
async function admitClient(
  app: FastifyInstance,
  request: FastifyRequest,
  signedIn: { client: ClientRow; user: SessionUserRow },
): Promise<void> {
  request.client = signedIn.client;
  request.clientUser = signedIn.user;
  // Fails closed: a route that declares no permission is nobody's.
  const permission = request.routeOptions.config.permission;
  if (!permission) throw forbidden('This route declares no permission');
  if (!hasPermission(signedIn.user, permission)) throw forbidden(TEAM_MESSAGES.missingPermission(permission));
  if (enforceClientPasswordChange(request, signedIn.user)) return;
  await enforceClientTwoFactor(app, request, signedIn.client, signedIn.user.id);
}

/**
 * Whether an open stream's session still reaches it: a live client user who still needs no
 * set-up of two-factor sign-in (a requirement turned on meanwhile ends the stream). Asked at each
 * heartbeat, with the client the stream was opened for.
 */
export async function clientStillAllowed(
  app: FastifyInstance,
  request: FastifyRequest,
  clientId: string,
): Promise<{ client: ClientRow; user: SessionUserRow } | null> {
  const signedIn = await currentClientAndUser(app, request);
  if (signedIn?.client.id !== clientId) return null;
  if (clientMustChangePassword(signedIn.user)) return null;
  if (await clientMustSetUp(app, signedIn.client, signedIn.user.id)) return null;
  return signedIn;
}

/** The same for an admin's stream. */
export async function adminStillAllowed(
  app: FastifyInstance,
  request: FastifyRequest,
  adminId: string,
): Promise<boolean> {
  const admin = await currentAdmin(app, request);
  return admin?.id === adminId && !(await adminMustSetUp(app, admin));
}

export async function currentClientAndUser(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<{ client: ClientRow; user: SessionUserRow } | null> {
  const found = await app.deps.sessions.resolveClient(sessionCookie(request, 'client'));
  if (!found) return null;
  const { client, user } = found;
  // A deactivated or not-yet-onboarded client has no access, whatever its cookie says.
  if (client.is_active !== 1 || client.onboarding_status !== 'active') return null;
  // A user's sessions end when it is deactivated or removed; this holds against a race with it.
  if (user.status !== 'active' || user.client_id !== client.id) return null;
  return found;
}

export async function currentClient(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<ClientRow | null> {
  return (await currentClientAndUser(app, request))?.client ?? null;
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

/** The client's user the guard loaded for this client request. */
export function requireClientUser(request: FastifyRequest): SessionUserRow {
  if (!request.clientUser) throw unauthorized();
  return request.clientUser;
}

/** The admin the guard loaded for this /api/admin/* request. */
export function requireAdmin(request: FastifyRequest): AdminRow {
  if (!request.admin) throw unauthorized();
  return request.admin;
}
