/**
 * A client's quality thresholds: GET and PUT for the client, the same for an admin
 * under /api/admin/client-quality/{clientId}. Saving re-classifies the client's calls, as saving
 * outcomes does (the thresholds are classified with them: outcomes-repository.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MESSAGES } from '../../contract/admin';
import {
  DEFAULT_QUALITY_THRESHOLDS,
  QualityThresholdsState,
  QualityThresholdsUpdate,
} from '../../contract/quality';
import { recordAudit } from '../audit/audit-log';
import { requireAdmin, requireClient } from '../auth/guards';
import { findClient } from '../clients/clients-repository';
import { notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/route-schemas';
import { classificationGuardOf } from '../outcomes/classification-guard';
import { outcomeSetOf, saveQualityThresholds } from '../outcomes/outcomes-repository';
import { recordChange } from '../teams/record-change';
import { backfillProgress } from './backfill';

const ClientIdParam = z.object({ clientId: z.string().trim().min(1).max(100) });

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
    guard.restart(clientId);
    return stateOf(clientId);
  };
  const clientOr404 = async (clientId: string) => {
    const client = await findClient(db, clientId);
    if (!client) throw notFound(MESSAGES.clientNotFound);
    return client.id;
  };

  app.get(
    '/api/client/quality/thresholds',
    { config: { permission: 'calls.read' }, schema: { response: { 200: QualityThresholdsState } } },
    async (request) => stateOf(requireClient(request).id),
  );
  app.put(
    '/api/client/quality/thresholds',
    {
      config: { permission: 'outcomes' },
      schema: { body: QualityThresholdsUpdate, response: { 200: QualityThresholdsState } },
    },
    async (request) => {
      const state = await save(requireClient(request).id, request.body);
      await recordChange(db, request, 'settings_change', { what: 'quality thresholds' }, now());
      return state;
    },
  );

  app.get(
    '/api/admin/client-quality/:clientId/thresholds',
    { schema: { params: ClientIdParam, response: { 200: QualityThresholdsState } } },
    async (request) => {
      requireAdmin(request);
      return stateOf(await clientOr404(request.params.clientId));
    },
  );
  app.put(
    '/api/admin/client-quality/:clientId/thresholds',
    {
      schema: {
        params: ClientIdParam,
        body: QualityThresholdsUpdate,
        response: { 200: QualityThresholdsState },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const clientId = await clientOr404(request.params.clientId);
      const state = await save(clientId, request.body);
      await recordAudit(
        db,
        { adminId: admin.id, action: 'client.quality_thresholds', clientId, detail: state.thresholds },
        now(),
      );
      return state;
    },
  );
}
