/**
 * POST /api/client/calls/sync: the logged-in client's pull from the voice provider, and
 * GET /api/client/calls/sync/runs/{runId}: a sync to follow while it runs in the background. The
 * admin's "Sync now" (Support Tools) is the same endpoint mounted for a client named in the path:
 * POST /api/admin/clients/{id}/sync and GET /api/admin/clients/{id}/sync/runs/{runId}.
 *
 * The POST answers the sync result (200) when the sync ends within SYNC_ANSWER_WAIT (well under
 * the server's idle-socket timeout); a longer one carries on in the background and the POST
 * answers 202 with the run to follow. A sync already running answers 409 at once with who
 * started it and when. This plugin also recovers from a crash at start (runs marked
 * interrupted, dead locks freed) and stops its syncs when the server closes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SyncBusy, SyncProgress, SyncResult, SyncRunParam } from '../../../contract/calls';
import { recordAudit } from '../../activity/record';
import { requireAdmin, requireClient } from '../../auth/guards';
import { namedClient } from '../../clients/named-client';
import type { AppDeps } from '../../context';
import type { ClientRow } from '../../db/schema';
import { notFound } from '../../http/errors';
import { apiDoc } from '../../http/route-docs';
import type { ZodTypeProvider } from '../../http/route-schemas';
import { platformNameFor, voiceOf } from '../../providers/voice/registry';
import {
  describeSync,
  type RunningSync,
  recoverSyncsAtStart,
  runningSync,
  SyncBusyError,
  type SyncStarter,
  startClientSync,
  stopSyncs,
} from './sync';
import { findSyncRun, toSyncProgress } from './sync-runs';

/** How long the POST waits for the result: a quarter of the idle-socket timeout, at most 20 s. */
export const syncAnswerWaitMs = (connectionTimeoutMs: number) => Math.min(20_000, connectionTimeoutMs / 4);

/** Whose sync a request asks for: the signed-in client's, or the client an admin names. */
interface SyncTarget {
  client: ClientRow;
  startedBy: SyncStarter;
  /** Runs once the sync has succeeded (the admin's audit row: a failed sync changed nothing). */
  onSuccess?: (result: SyncResult) => Promise<void>;
}

const AdminClientParam = z.object({ id: z.string().trim().min(1).max(100) });

export default async function syncRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  app.addHook('onReady', async () => {
    const { interrupted } = await recoverSyncsAtStart(deps);
    if (interrupted > 0)
      app.log.warn({ interrupted }, 'syncs left running by a stopped server marked interrupted');
  });
  app.addHook('onClose', async () => stopSyncs(deps));

  const clientOr404 = (id: string): Promise<ClientRow> => namedClient(deps.db, id);
  const clientTarget = async (request: FastifyRequest): Promise<SyncTarget> => ({
    client: await clientOr404(requireClient(request).id),
    startedBy: 'client',
  });
  const adminTarget = async (request: FastifyRequest, clientId: string): Promise<SyncTarget> => {
    const admin = requireAdmin(request);
    const client = await clientOr404(clientId);
    return {
      client,
      startedBy: `admin:${admin.id}`,
      onSuccess: (result) =>
        recordAudit(
          deps.db,
          {
            adminId: admin.id,
            action: 'client.sync',
            clientId: client.id,
            detail: { created: result.created, updated: result.updated },
          },
          deps.now(),
        ),
    };
  };

  const start = { response: { 200: SyncResult, 202: SyncProgress, 409: SyncBusy } };
  app.post(
    '/api/client/calls/sync',
    {
      config: { permission: 'calls.manage' },
      schema: {
        summary: 'Fetch the latest calls from the voice platform',
        tags: ['client'],
        ...apiDoc({ errors: [502] }),
        ...start,
      },
    },
    async (request, reply) => startAndAnswer(deps, reply, await clientTarget(request)),
  );
  app.post(
    '/api/admin/clients/:id/sync',
    {
      schema: {
        summary: 'Fetch the latest calls for one client',
        tags: ['admin'],
        ...apiDoc({ errors: [409, 502] }),
        params: AdminClientParam,
        ...start,
      },
    },
    async (request, reply) => startAndAnswer(deps, reply, await adminTarget(request, request.params.id)),
  );

  const follow = { response: { 200: SyncProgress } };
  app.get(
    '/api/client/calls/sync/runs/:runId',
    {
      config: { permission: 'calls.manage' },
      schema: {
        summary: 'Follow a sync running in the background',
        tags: ['client'],
        params: SyncRunParam,
        ...follow,
      },
    },
    async (request) => {
      const { client } = await clientTarget(request);
      return progressOf(deps, client, request.params.runId, platformNameFor(deps.voices, client));
    },
  );
  app.get(
    '/api/admin/clients/:id/sync/runs/:runId',
    {
      schema: {
        summary: 'Follow a client’s sync running in the background',
        tags: ['admin'],
        params: AdminClientParam.merge(SyncRunParam),
        ...follow,
      },
    },
    async (request) => {
      const { client } = await adminTarget(request, request.params.id);
      return progressOf(deps, client, request.params.runId, voiceOf(deps.voices, client).name);
    },
  );
}

/** Starts the target's sync and answers its result, 202 with the run to follow, or 409 busy. */
async function startAndAnswer(deps: AppDeps, reply: FastifyReply, target: SyncTarget) {
  let sync: RunningSync;
  try {
    sync = await startClientSync(deps, target.client.id, target.startedBy);
  } catch (error) {
    if (!(error instanceof SyncBusyError)) throw error;
    const holder = error.holder;
    return reply.code(409).send({
      message: error.message,
      runId: holder?.runId ?? null,
      startedBy: holder?.startedBy ?? null,
      startedAt: holder?.startedAt ?? null,
    });
  }
  const { onSuccess } = target;
  if (onSuccess)
    sync.done.then(onSuccess).catch(() => {
      // A failed sync is recorded in its run; the audit row is for syncs that changed something.
    });
  // The wait is called off once the sync ends first (an aborted wait answers null too).
  const stopWaiting = new AbortController();
  const waited = sleep(syncAnswerWaitMs(deps.config.http.connectionTimeoutMs), null, {
    signal: stopWaiting.signal,
  }).catch(() => null);
  try {
    const result = await Promise.race([sync.done, waited]);
    if (result) return result;
  } finally {
    stopWaiting.abort();
  }
  return reply.code(202).send(
    toSyncProgress(
      {
        id: sync.runId,
        status: 'running',
        started_at: sync.startedAt,
        created: sync.tally.created,
        updated: sync.tally.updated,
        unfetched: 0,
        retried: null,
        error: null,
      },
      () => '',
      sync.tally,
    ),
  );
}

/** A run of this client as the browser follows it; another client's run is not found. */
async function progressOf(deps: AppDeps, client: ClientRow, runId: string, provider: string) {
  const run = await findSyncRun(deps.db, client.id, runId);
  if (!run) throw notFound('No such sync');
  const live = run.status === 'running' ? runningSync(deps, run.id)?.tally : undefined;
  return toSyncProgress(run, (c, u, n) => describeSync(provider, c, u, n), live);
}
