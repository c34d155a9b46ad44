/**
 * Outcomes (issue 13): the client's list (GET/PUT), a preview of an unsaved list, the summary of
 * a window and its points over time; the admin has the same under /api/admin/client-outcomes/
 * {clientId}. Saving starts re-classifying the client's calls in the background; GET shows how
 * far it got.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { MESSAGES } from '../../contract/admin';
import { ChartQuery, StatsQuery } from '../../contract/calls';
import {
  OTHER_OUTCOME,
  OutcomePoints,
  OutcomePreview,
  OutcomeSummary,
  OutcomesBody,
  OutcomesState,
  OutcomesUpdateBody,
  fillOutcomes,
} from '../../contract/outcomes';
import { recordAudit } from '../audit/audit-log';
import { requireAdmin, requireClient } from '../auth/guards';
import { requestedWindow } from '../time/date-windows';
import { findClient, timeZoneOf } from '../clients/clients-repository';
import type { Database } from '../db/schema';
import { notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/route-schemas';
import { type ClassificationGuard, createClassificationGuard } from './classification-guard';
import { outcomeSetOf, saveOutcomes } from './outcomes-repository';
import { outcomesOverTime } from './over-time';
import { limitPreviews, previewOutcomes } from './preview';
import { reclassificationOf } from './reclassify';
import { outcomeSummary } from './summary';

const ClientIdParam = z.object({ clientId: z.string().trim().min(1).max(100) });

/** The reads the client, the admin and the demo share, each for its own client id. */
export function outcomeReads(db: Kysely<Database>, guard: ClassificationGuard, now: () => number) {
  return {
    async summary(clientId: string, query: z.output<typeof StatsQuery>) {
      await guard.ensure(clientId);
      const window = requestedWindow(query, now(), await timeZoneOf(db, clientId));
      return outcomeSummary(db, clientId, window, query.pathway);
    },
    async overTime(clientId: string, query: z.output<typeof ChartQuery>) {
      await guard.ensure(clientId);
      const [set, timezone] = await Promise.all([outcomeSetOf(db, clientId), timeZoneOf(db, clientId)]);
      const points = await outcomesOverTime(db, { id: clientId, timezone }, query, now());
      // Names no longer in the list (sums not rebuilt yet after a change) count as Other, as in the summary.
      const known = new Set(set.outcomes.map((o) => o.name));
      return points.map(({ date, counts }) => {
        const folded: Record<string, number> = {};
        for (const [name, n] of Object.entries(counts)) {
          const key = known.has(name) ? name : OTHER_OUTCOME;
          folded[key] = (folded[key] ?? 0) + n;
        }
        return { date, counts: folded };
      });
    },
  };
}

export default async function outcomeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const guard = createClassificationGuard(db, now, app.log);
  const reads = outcomeReads(db, guard, now);

  const stateOf = async (clientId: string) => {
    await guard.ensure(clientId);
    const [{ outcomes }, reclassification] = await Promise.all([
      outcomeSetOf(db, clientId),
      reclassificationOf(db, clientId, now()),
    ]);
    return { outcomes, reclassification };
  };
  // Bodies are patches (issue 33): a list left out stays, and an outcome's settings left out keep
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

  app.get('/api/client/outcomes', { schema: { response: { 200: OutcomesState } } }, async (request) =>
    stateOf(requireClient(request).id),
  );
  app.put(
    '/api/client/outcomes',
    { schema: { body: OutcomesUpdateBody, response: { 200: OutcomesState } } },
    async (request) => save(requireClient(request).id, request.body),
  );
  app.post(
    '/api/client/outcomes/preview',
    { schema: { body: OutcomesBody, response: { 200: OutcomePreview } } },
    async (request, reply) => preview(requireClient(request).id, request.body, reply),
  );
  app.get(
    '/api/client/outcomes/summary',
    { schema: { querystring: StatsQuery, response: { 200: OutcomeSummary } } },
    async (request) => reads.summary(requireClient(request).id, request.query),
  );
  app.get(
    '/api/client/outcomes-over-time',
    { schema: { querystring: ChartQuery, response: { 200: OutcomePoints } } },
    async (request) => reads.overTime(requireClient(request).id, request.query),
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
  app.get(
    '/api/admin/client-outcomes/:clientId/summary',
    { schema: { params: ClientIdParam, querystring: StatsQuery, response: { 200: OutcomeSummary } } },
    async (request) => {
      requireAdmin(request);
      return reads.summary(await clientOr404(request.params.clientId), request.query);
    },
  );
  app.get(
    '/api/admin/client-outcomes/:clientId/over-time',
    { schema: { params: ClientIdParam, querystring: ChartQuery, response: { 200: OutcomePoints } } },
    async (request) => {
      requireAdmin(request);
      return reads.overTime(await clientOr404(request.params.clientId), request.query);
    },
  );
}
