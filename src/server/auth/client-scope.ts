/**
 * Whose settings a request is about, as `CallsView` (calls/read/calls-view-routes.ts) is for calls.
 * A per-client settings endpoint (outcomes, quality thresholds, privacy, erasure) is written once
 * and mounted for each scope of `clientScopes`: the client's own session (/api/client/…) and an
 * admin naming the client in the path (/api/admin/…/:clientId). The demo has no settings.
 *
 * What differs between the two lives here and nowhere else: the endpoint's path, how the client is
 * found (the session's, or the one the admin names: "Client not found" when there is none), who
 * asked, and where what they did is kept (a line of the client's activity log under its user, or
 * of the agency's audit log under the admin, with the admin's reads of callers' data). Which
 * permission a client user needs is the route's `config.permission`, checked by the guard for
 * the client's mount (auth/guards.ts); the admin's mount is guarded by its prefix.
 *
 * A client's id comes from its session only: the client's mount takes no client id at all, and
 * the admin's is reached by admin sessions only.
 */
import type { FastifyRequest } from 'fastify';
import { ClientIdParam } from '../../contract/common';
import {
  type ActivityAction,
  type AuditAction,
  recordActivity,
  recordAudit,
  recordClientRead,
} from '../activity/record';
import { namedClient } from '../clients/named-client';
import type { AppDeps } from '../context';
import type { ClientRow } from '../db/schema';
import { type MountDoc, mountDoc, type RouteDocExtras } from '../http/route-docs';
import { requireAdmin, requireClient, requireClientUser } from './guards';

/** Who a settings request comes from: the client's own user, or an agency administrator. */
export type Audience = 'client' | 'admin';

/** One endpoint's path for each audience; the admin's names the client as `:clientId`. */
export interface ScopedPaths {
  client: string;
  admin: string;
}

/** Who asked, as what they did is recorded: the client's user or the admin, and how a receipt names them. */
export interface Asker {
  audience: Audience;
  id: string;
  label: string;
}

/** What a request did, as each audience's log keeps it. */
export interface ScopedLine {
  /** The client's activity log, under the user who did it. */
  client: { action: ActivityAction; detail: Record<string, unknown> };
  /** The agency's audit log, under the admin, naming the client. */
  admin: { action: AuditAction; detail: Record<string, unknown> };
}

/** One way of finding the client a settings request is for, and what differs for it. */
export interface ClientScope {
  audience: Audience;
  /** This audience's path of an endpoint. */
  path(paths: ScopedPaths): string;
  /** This audience's path of an endpoint with its client filled in: a link in an answer. */
  link(paths: ScopedPaths, client: Pick<ClientRow, 'id'>): string;
  /** The path's parameters naming the client (the admin's `clientId`); none for the client's own. */
  params?: typeof ClientIdParam;
  /** The client the request is for, loaded once; a 404 when an admin names none. */
  clientOf(request: FastifyRequest): Promise<ClientRow>;
  /** Who asked. */
  askerOf(request: FastifyRequest): Asker;
  /** Keeps what the asker did to the client in the asker's log. */
  record(asker: Asker, client: Pick<ClientRow, 'id'>, line: ScopedLine): Promise<void>;
  /** An admin's read of callers' data (the calls read audit, folded); nothing for the client's own. */
  readCalls(asker: Asker, client: Pick<ClientRow, 'id'>): Promise<void>;
  /** This mount's API description: its audience's tag and summary, and what both mounts share. */
  doc(docs: Record<Audience, MountDoc>, shared?: RouteDocExtras): ReturnType<typeof mountDoc>;
}

type ScopeDeps = Pick<AppDeps, 'db' | 'now'>;

/** The signed-in client's own settings: the client the guard loaded from the session. */
export function ownClientScope({ db, now }: ScopeDeps): ClientScope {
  return {
    audience: 'client',
    path: (paths) => paths.client,
    link: (paths) => paths.client,
    clientOf: async (request) => requireClient(request),
    askerOf(request) {
      const user = requireClientUser(request);
      return { audience: 'client', id: user.id, label: `${user.name} <${user.email}>` };
    },
    record: (asker, client, { client: line }) =>
      recordActivity(db, { clientId: client.id, userId: asker.id, ...line }, now()),
    readCalls: async () => {},
    doc: (docs, shared) => mountDoc('client', docs.client, shared),
  };
}

/** An admin's view of one client's settings: the client named in the path. */
export function adminClientScope({ db, now }: ScopeDeps): ClientScope {
  return {
    audience: 'admin',
    path: (paths) => paths.admin,
    link: (paths, client) => paths.admin.replace(':clientId', client.id),
    params: ClientIdParam,
    async clientOf(request) {
      requireAdmin(request);
      return namedClient(db, ClientIdParam.parse(request.params).clientId);
    },
    askerOf(request) {
      const admin = requireAdmin(request);
      return { audience: 'admin', id: admin.id, label: `Agency: ${admin.name}` };
    },
    record: (asker, client, { admin: line }) =>
      recordAudit(db, { adminId: asker.id, clientId: client.id, ...line }, now()),
    readCalls: (asker, client) =>
      recordClientRead(db, { adminId: asker.id, clientId: client.id, action: 'client.read_calls' }, now()),
    doc: (docs, shared) => mountDoc('admin', docs.admin, shared),
  };
}

/** Every mount of a per-client settings endpoint, in the order they are registered. */
export function clientScopes(deps: ScopeDeps): readonly ClientScope[] {
  return [ownClientScope(deps), adminClientScope(deps)];
}
