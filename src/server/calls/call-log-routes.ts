/** The client's call log and analytics (SPEC §7 "Client calls and data"). */
import type { FastifyInstance } from 'fastify';
import { CallsQuery } from '../../contract/calls';
import { DateRangeQuery, IdParam } from '../../contract/common';
import { requireClient } from '../auth/guards';
import { notFound, parseInput } from '../errors';
import { getCallsOverTime, getClientStats, listCalls } from './call-queries';
import { createCallsRepository } from './calls-repository';

export default async function callLogRoutes(app: FastifyInstance): Promise<void> {
  const { db, now } = app.deps;
  const calls = createCallsRepository(db);

  app.get('/api/client/calls', async (request) => {
    const client = await requireClient(app, request);
    return listCalls(db, client.id, parseInput(CallsQuery, request.query, 'query'));
  });

  app.get('/api/client/stats', async (request) => {
    const client = await requireClient(app, request);
    const { dateRange } = parseInput(DateRangeQuery, request.query, 'query');
    return getClientStats(db, client.id, dateRange, now());
  });

  app.get('/api/client/calls-over-time', async (request) => {
    const client = await requireClient(app, request);
    const { dateRange } = parseInput(DateRangeQuery, request.query, 'query');
    return getCallsOverTime(db, client, dateRange, now());
  });

  app.delete('/api/client/calls/:id', async (request) => {
    const client = await requireClient(app, request);
    const { id } = parseInput(IdParam, request.params, 'call id');
    // Another client's call id is answered exactly like a missing one.
    if (!(await calls.deleteCall(client.id, id))) throw notFound('Call not found');
    return { success: true };
  });
}
