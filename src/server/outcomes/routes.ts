/**
 * Outcomes: the client's list (GET/PUT) and a preview of an unsaved list; the admin has
 * the same under /api/admin/client-outcomes/{clientId}. Saving starts re-classifying the client's
 * calls in the background; GET shows how far it got. The summary of a window and its points over
 * time are calls views' reads (outcome-reads.ts, mounted by calls/read/calls-view-routes.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { MESSAGES } from '../../contract/admin';
import {
  OutcomePreview,
  OutcomesBody,
  OutcomesState,
  OutcomesUpdateBody,
  fillOutcomes,
} from '../../contract/outcomes';
import { recordAudit } from '../audit/audit-log';
import { requireAdmin, requireClient } from '../auth/guards';
import { findClient } from '../clients/clients-repository';
import { notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/route-schemas';
import { recordChange } from '../teams/record-change';
import { classificationGuardOf } from './classification-guard';
import { outcomeSetOf, saveOutcomes } from './outcomes-repository';
import { limitPreviews, previewOutcomes } from './preview';
import { reclassificationOf } from './reclassify';

const ClientIdParam = z.object({ clientId: z.string().trim().min(1).max(100) });

export default async function outcomeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const guard = classificationGuardOf(app.deps, app.log);

  const stateOf = async (clientId: string) => {
    await guard.ensure(clientId);
    const [{ outcomes }, reclassification] = await Promise.all([
      outcomeSetOf(db, clientId),
      reclassificationOf(db, clientId, now()),
    ]);
    return { outcomes, reclassification };
  };
  // Bodies are patches: a list left out stays, and an outcome's settings left out keep
  // those of the stored outcome of its name.
  const filled = async (clientId: string, sent: z.output<typeof OutcomesBody>['outcomes']) =>
    fillOutcomes(sent, (await outcomeSetOf(db, clientId)).outcomes);
  const save = async (clientId: string, body: z.output<typeof OutcomesUpdateBody>) => {
    if (body.outcomes === undefined) return stateOf(clientId);
    await saveOutcomes(db, clientId, await filled(clientId, body.outcomes), now());
    guard.restart(clientId);
    return stateOf(clientId);
  };
  const preview = async (clientId: string, body: z.output<typeof OutcomesBody>, reply: FastifyReply) => {
    await limitPreviews(app.deps, reply, clientId);
    return previewOutcomes(db, clientId, await filled(clientId, body.outcomes), now());
  };
  const clientOr404 = async (clientId: string) => {
    const client = await findClient(db, clientId);
    if (!client) throw notFound(MESSAGES.clientNotFound);
    return client.id;
  };

  app.get(
    '/api/client/outcomes',
    { config: { permission: 'calls.read' }, schema: { response: { 200: OutcomesState } } },
    async (request) => stateOf(requireClient(request).id),
  );
  app.put(
    '/api/client/outcomes',
    {
      config: { permission: 'outcomes' },
      schema: { body: OutcomesUpdateBody, response: { 200: OutcomesState } },
    },
    async (request) => {
      const state = await save(requireClient(request).id, request.body);
      await recordChange(db, request, 'settings_change', { what: 'outcomes' }, now());
      return state;
    },
  );
  app.post(
    '/api/client/outcomes/preview',
    { config: { permission: 'outcomes' }, schema: { body: OutcomesBody, response: { 200: OutcomePreview } } },
    async (request, reply) => preview(requireClient(request).id, request.body, reply),
  );

  app.get(
    '/api/admin/client-outcomes/:clientId',
    { schema: { params: ClientIdParam, response: { 200: OutcomesState } } },
    async (request) => {
      requireAdmin(request);
      return stateOf(await clientOr404(request.params.clientId));
    },
  );
  app.put(
    '/api/admin/client-outcomes/:clientId',
    { schema: { params: ClientIdParam, body: OutcomesUpdateBody, response: { 200: OutcomesState } } },
    async (request) => {
      const admin = requireAdmin(request);
      const clientId = await clientOr404(request.params.clientId);
      const state = await save(clientId, request.body);
      await recordAudit(
        db,
        {
          adminId: admin.id,
          action: 'client.outcomes',
          clientId,
          detail: { outcomes: state.outcomes.length },
        },
        now(),
      );
      return state;
    },
  );
  app.post(
    '/api/admin/client-outcomes/:clientId/preview',
    { schema: { params: ClientIdParam, body: OutcomesBody, response: { 200: OutcomePreview } } },
    async (request, reply) => {
      requireAdmin(request);
      return preview(await clientOr404(request.params.clientId), request.body, reply);
    },
  );
}
