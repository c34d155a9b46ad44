/**
 * A client's quality thresholds: GET and PUT, each written once and mounted for the client and for
 * an admin naming the client (clients/client-scope.ts) under /api/admin/client-quality/{clientId}.
 * Saving re-classifies the client's calls, as saving outcomes does (the thresholds are classified
 * with them: outcomes-repository.ts).
 */
import type { FastifyInstance } from 'fastify';
import {
  DEFAULT_QUALITY_THRESHOLDS,
  QualityThresholdsState,
  QualityThresholdsUpdate,
} from '../../contract/quality';
import { clientScopes } from '../auth/client-scope';
import type { ZodTypeProvider } from '../http/route-schemas';
import { classificationGuardOf } from '../outcomes/classification-guard';
import { outcomeSetOf, saveQualityThresholds } from '../outcomes/outcomes-repository';
import { backfillProgress } from './backfill-progress';

export default async function qualityRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const guard = classificationGuardOf(app.deps, app.log);

  const stateOf = async (clientId: string): Promise<QualityThresholdsState> => {
    const [{ thresholds }, measuring] = await Promise.all([
      outcomeSetOf(db, clientId),
      backfillProgress(db, clientId),
    ]);
    return { thresholds, defaults: DEFAULT_QUALITY_THRESHOLDS, measuring };
  };
  const save = async (clientId: string, patch: QualityThresholdsUpdate) => {
    const { thresholds } = await outcomeSetOf(db, clientId);
    await saveQualityThresholds(db, clientId, { ...thresholds, ...patch }, now());
    await guard.restart(clientId);
    return stateOf(clientId);
  };

  const paths = {
    client: '/api/client/quality/thresholds',
    admin: '/api/admin/client-quality/:clientId/thresholds',
  };
  for (const scope of clientScopes(app.deps)) {
    const params = scope.params ? { params: scope.params } : {};
    app.get(
      scope.path(paths),
      {
        config: { permission: 'calls.read' },
        schema: {
          ...scope.doc({
            client: { summary: 'What puts a call in Needs attention for its quality' },
            admin: { summary: 'A client’s quality thresholds' },
          }),
          ...params,
          response: { 200: QualityThresholdsState },
        },
      },
      async (request) => stateOf((await scope.clientOf(request)).id),
    );
    app.put(
      scope.path(paths),
      {
        config: { permission: 'outcomes' },
        schema: {
          ...scope.doc({
            client: { summary: 'Save the quality thresholds (re-classifies the calls)' },
            admin: { summary: 'Save a client’s quality thresholds' },
          }),
          ...params,
          body: QualityThresholdsUpdate,
          response: { 200: QualityThresholdsState },
        },
      },
      async (request) => {
        const asker = scope.askerOf(request);
        const client = await scope.clientOf(request);
        const state = await save(client.id, request.body);
        await scope.record(asker, client, {
          client: { action: 'settings_change', detail: { what: 'quality thresholds' } },
          admin: { action: 'client.quality_thresholds', detail: state.thresholds },
        });
        return state;
      },
    );
  }
}
