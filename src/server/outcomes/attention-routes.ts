/**
 * "Needs attention" (issue 13): the open list with its count (the header's badge), and marking a
 * call handled (who and when, kept). The admin has the same for a client.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { MESSAGES } from '../../contract/admin';
import { IdParam } from '../../contract/common';
import { AttentionList, AttentionQuery, HandledResponse } from '../../contract/outcomes';
import { requireAdmin, requireClient } from '../auth/guards';
import { attentionReasonsOf, toCall } from '../calls/read/call-queries';
import { findClient } from '../clients/clients-repository';
import type { Database } from '../db/schema';
import { notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/route-schemas';

const ClientIdParam = z.object({ clientId: z.string().trim().min(1).max(100) });

function openAttention(db: Kysely<Database>, clientId: string) {
  return db
    .selectFrom('calls')
    .where('client_id', '=', clientId)
    .where('attention_reasons', 'is not', null)
    .where('handled_at', 'is', null)
    .where('is_proxy', '=', 0)
    .where('verified', '=', 1);
}

export async function attentionList(db: Kysely<Database>, clientId: string, limit: number) {
  const [count, rows] = await Promise.all([
    openAttention(db, clientId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    openAttention(db, clientId)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
  ]);
  return {
    total: Number(count.n),
    calls: rows.map((row) => ({ ...toCall(row), attentionReasons: attentionReasonsOf(row) })),
  };
}

/** Marks a call handled; the first mark is kept. Null when the client has no such call. */
export async function markHandled(
  db: Kysely<Database>,
  clientId: string,
  callId: string,
  by: string,
  at: number,
) {
  await db
    .updateTable('calls')
    .set({ handled_at: at, handled_by: by })
    .where('id', '=', callId)
    .where('client_id', '=', clientId)
    .where('handled_at', 'is', null)
    .execute();
  const row = await db
    .selectFrom('calls')
    .select(['handled_at', 'handled_by', 'verified', 'is_proxy'])
    .where('id', '=', callId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (row?.verified !== 1 || row.is_proxy !== 0 || row.handled_at === null) return null;
  return {
    success: true as const,
    handledAt: new Date(Number(row.handled_at)).toISOString(),
    handledBy: row.handled_by ?? by,
  };
}

export default async function attentionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const clientOr404 = async (clientId: string) => {
    const client = await findClient(db, clientId);
    if (!client) throw notFound(MESSAGES.clientNotFound);
    return client;
  };
  const handledOr404 = async (clientId: string, callId: string, by: string) => {
    const result = await markHandled(db, clientId, callId, by, now());
    if (!result) throw notFound('Call not found');
    return result;
  };

  app.get(
    '/api/client/attention',
    { schema: { querystring: AttentionQuery, response: { 200: AttentionList } } },
    async (request) => attentionList(db, requireClient(request).id, request.query.limit),
  );
  app.post(
    '/api/client/calls/:id/handled',
    { schema: { params: IdParam, response: { 200: HandledResponse } } },
    async (request) => {
      const client = requireClient(request);
      return handledOr404(client.id, request.params.id, client.email);
    },
  );

  app.get(
    '/api/admin/client-attention/:clientId',
    { schema: { params: ClientIdParam, querystring: AttentionQuery, response: { 200: AttentionList } } },
    async (request) => {
      requireAdmin(request);
      return attentionList(db, (await clientOr404(request.params.clientId)).id, request.query.limit);
    },
  );
  app.post(
    '/api/admin/client-calls/:clientId/:id/handled',
    { schema: { params: ClientIdParam.merge(IdParam), response: { 200: HandledResponse } } },
    async (request) => {
      const admin = requireAdmin(request);
      const client = await clientOr404(request.params.clientId);
      return handledOr404(client.id, request.params.id, `${admin.name} (admin)`);
    },
  );
}
