/** The client's call log and analytics (SPEC §7 "Client calls and data"). */
import type { FastifyInstance } from 'fastify';
import {
  CallDetail,
  CallsPage,
  CallsQuery,
  ChartQuery,
  ClientStats,
  DailyPoints,
  StatsQuery,
} from '../../../contract/calls';
import { IdParam, SuccessBody } from '../../../contract/common';
import { requireClient } from '../../auth/guards';
import { notFound } from '../../http/errors';
import type { ZodTypeProvider } from '../../http/route-schemas';
import { listCalls } from './call-log';
import { chartFor, statsFor, toCallDetail } from './call-queries';
import { createCallsRepository } from '../write/calls-repository';

export default async function callLogRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const calls = createCallsRepository(db);

  app.get(
    '/api/client/calls',
    { schema: { querystring: CallsQuery, response: { 200: CallsPage } } },
    async (request) => listCalls(db, requireClient(request).id, request.query),
  );

  app.get(
    '/api/client/stats',
    { schema: { querystring: StatsQuery, response: { 200: ClientStats } } },
    async (request) => statsFor(db, requireClient(request).id, request.query, now()),
  );

  app.get(
    '/api/client/calls-over-time',
    { schema: { querystring: ChartQuery, response: { 200: DailyPoints } } },
    async (request) => chartFor(db, requireClient(request), request.query, now()),
  );

  app.get(
    '/api/client/calls/:id',
    { schema: { params: IdParam, response: { 200: CallDetail } } },
    async (request) => {
      // Another client's call id is answered exactly like a missing one.
      const call = toCallDetail(await calls.findCall(requireClient(request).id, request.params.id));
      if (!call) throw notFound('Call not found');
      return call;
    },
  );

  app.delete(
    '/api/client/calls/:id',
    { schema: { params: IdParam, response: { 200: SuccessBody } } },
    async (request) => {
      // Another client's call id is answered exactly like a missing one.
      if (!(await calls.deleteCall(requireClient(request).id, request.params.id))) {
        throw notFound('Call not found');
      }
      return { success: true as const };
    },
  );
}
