/**
 * POST /api/client/calls/sync: the logged-in client's pull from the voice provider, and
 * GET /api/client/calls/sync/runs/{runId}: a sync to follow while it runs in the background.
 *
 * The POST answers the sync result (200) when the sync ends within SYNC_ANSWER_WAIT (well under
 * the server's idle-socket timeout); a longer one carries on in the background and the POST
 * answers 202 with the run to follow. A sync already running answers 409 at once with who
 * started it and when. This plugin also recovers from a crash at start (runs marked
 * interrupted, dead locks freed) and stops its syncs when the server closes.
 */
import type { FastifyInstance } from 'fastify';
import { SyncBusy, SyncProgress, SyncResult, SyncRunParam } from '../../contract/calls';
import { requireClient } from '../auth/guards';
import { findClient } from '../clients/clients-repository';
import { notFound } from '../errors';
import { voiceOf } from '../providers/voice/registry';
import type { ZodTypeProvider } from '../route-schemas';
import {
  type RunningSync,
  SyncBusyError,
  describeSync,
  recoverSyncsAtStart,
  runningSync,
  startClientSync,
  stopSyncs,
} from './sync';
import { findSyncRun, toSyncProgress } from './sync-runs';

/** How long the POST waits for the result: a quarter of the idle-socket timeout, at most 20 s. */
export const syncAnswerWaitMs = (connectionTimeoutMs: number) => Math.min(20_000, connectionTimeoutMs / 4);

export default async function syncRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.addHook('onReady', async () => {
    const { interrupted } = await recoverSyncsAtStart(app.deps);
    if (interrupted > 0)
      app.log.warn({ interrupted }, 'syncs left running by a stopped server marked interrupted');
  });
  app.addHook('onClose', async () => stopSyncs(app.deps));

  app.post(
    '/api/client/calls/sync',
    { schema: { response: { 200: SyncResult, 202: SyncProgress, 409: SyncBusy } } },
    async (request, reply) => {
      const clientId = requireClient(request).id;
      let sync: RunningSync;
      try {
        sync = await startClientSync(app.deps, clientId);
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
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<null>((resolve) => {
        timer = setTimeout(resolve, syncAnswerWaitMs(app.deps.config.http.connectionTimeoutMs), null);
      });
      try {
        const result = await Promise.race([sync.done, waited]);
        if (result) return result;
      } finally {
        clearTimeout(timer);
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
    },
  );

  app.get(
    '/api/client/calls/sync/runs/:runId',
    { schema: { params: SyncRunParam, response: { 200: SyncProgress } } },
    async (request) => {
      const client = await findClient(app.deps.db, requireClient(request).id);
      if (!client) throw notFound('Client not found');
      const run = await findSyncRun(app.deps.db, client.id, request.params.runId);
      if (!run) throw notFound('No such sync');
      const provider = voiceOf(app.deps.voices, client).name;
      const live = run.status === 'running' ? runningSync(app.deps, run.id)?.tally : undefined;
      return toSyncProgress(run, (c, u, n) => describeSync(provider, c, u, n), live);
    },
  );
}
