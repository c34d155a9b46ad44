/**
 * Support Tools, admin-only like everything under /api/admin/: a client's webhook
 * delivery log with Replay, its sync history and a test call placed through the provider with the
 * client's key. The admin's "Sync now" is the client's sync endpoint mounted again (calls/sync-routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  DeliveriesPage,
  DeliveriesQuery,
  Delivery,
  PageQuery,
  ReplayResult,
  SyncRunsPage,
  TestCallBody,
  TestCallResult,
} from '../../../contract/agency';
import { paginationOf } from '../../../contract/common';
import { recordAudit } from '../../activity/record';
import { requireAdmin } from '../../auth/guards';
import { namedClient } from '../../clients/named-client';
import { webhookUrlOf } from '../../clients/webhook-token';
import type { ClientRow } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../http/errors';
import { apiDoc } from '../../http/route-docs';
import type { ZodTypeProvider } from '../../http/route-schemas';
import { voiceOf } from '../../providers/voice/registry';
import { adminNames, describeStarter, toDelivery } from './support-views';
import { parseRetried } from './sync-runs';
import { createDeliveryProcessor } from './webhook-delivery';

const ClientParam = z.object({ id: z.string().trim().min(1).max(100) });
const DeliveryParam = ClientParam.extend({ deliveryId: z.string().trim().min(1).max(100) });

export default async function supportRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const { db, now } = deps;
  const processDelivery = createDeliveryProcessor(deps, app.log);

  const clientOr404 = (id: string): Promise<ClientRow> => namedClient(db, id);

  app.get(
    '/api/admin/clients/:id/deliveries',
    {
      schema: {
        summary: 'A client’s recent webhook deliveries',
        tags: ['admin'],
        params: ClientParam,
        querystring: DeliveriesQuery,
        response: { 200: DeliveriesPage },
      },
    },
    async (request) => {
      const client = await clientOr404(request.params.id);
      const { page, limit, outcome } = request.query;
      let query = db.selectFrom('webhook_deliveries').where('client_id', '=', client.id);
      if (outcome) query = query.where('outcome', '=', outcome);
      const [rows, count] = await Promise.all([
        query
          .select(['id', 'received_at', 'kind', 'provider_call_id', 'outcome', 'detail', 'replay_of'])
          .select((eb) => eb('raw_body', 'is not', null).as('kept'))
          .orderBy('received_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        items: rows.map((r) => toDelivery({ ...r, raw_body: null, kept: Boolean(r.kept) })),
        pagination: paginationOf(page, limit, Number(count.n)),
      };
    },
  );

  async function deliveryOr404(clientId: string, deliveryId: string) {
    const row = await db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('id', '=', deliveryId)
      .executeTakeFirst();
    if (!row) throw notFound('Delivery not found');
    return row;
  }

  app.get(
    '/api/admin/clients/:id/deliveries/:deliveryId',
    {
      schema: {
        summary: 'One webhook delivery as it arrived',
        tags: ['admin'],
        params: DeliveryParam,
        response: { 200: Delivery },
      },
    },
    async (request) => {
      const client = await clientOr404(request.params.id);
      const row = await deliveryOr404(client.id, request.params.deliveryId);
      return toDelivery({ ...row, kept: row.raw_body !== null });
    },
  );

  app.post(
    '/api/admin/clients/:id/deliveries/:deliveryId/replay',
    {
      schema: {
        summary: 'Process a stored webhook delivery again',
        tags: ['admin'],
        ...apiDoc({ errors: [409] }),
        params: DeliveryParam,
        response: { 200: ReplayResult },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const client = await clientOr404(request.params.id);
      const original = await deliveryOr404(client.id, request.params.deliveryId);
      if (original.raw_body === null)
        throw conflict('This delivery was stored as it arrived, so there is nothing to replay');
      const headers = original.signature_headers
        ? // JSON.parse is any: ingest wrote it from the delivery's headers, names to strings.
          (JSON.parse(original.signature_headers) as Record<string, string>)
        : {};
      const result = await processDelivery({
        client,
        body: Buffer.from(original.raw_body, 'utf8'),
        headers,
        replayOf: original.id,
      });
      // A replay is given no budget to spend (`admit`), so it is never limited.
      if (result.kind === 'limited') throw new Error('A replay was rate limited');
      const replayed = await deliveryOr404(client.id, result.deliveryId);
      await recordAudit(
        db,
        {
          adminId: admin.id,
          action: 'delivery.replay',
          clientId: client.id,
          detail: { deliveryId: original.id, outcome: replayed.outcome },
        },
        now(),
      );
      return {
        delivery: toDelivery({ ...replayed, kept: replayed.raw_body !== null }),
        message: replayMessage(replayed.outcome, replayed.detail),
      };
    },
  );

  app.get(
    '/api/admin/clients/:id/sync-runs',
    {
      schema: {
        summary: 'A client’s recent syncs',
        tags: ['admin'],
        params: ClientParam,
        querystring: PageQuery,
        response: { 200: SyncRunsPage },
      },
    },
    async (request) => {
      const client = await clientOr404(request.params.id);
      const { page, limit } = request.query;
      const query = db.selectFrom('sync_runs').where('client_id', '=', client.id);
      const [rows, count] = await Promise.all([
        query
          .selectAll()
          .orderBy('started_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const names = await adminNames(db, rows.map((r) => r.started_by.split(':')[1]).filter(Boolean));
      return {
        items: rows.map((r) => {
          const finished = r.finished_at === null ? null : Number(r.finished_at);
          return {
            id: r.id,
            startedAt: new Date(Number(r.started_at)).toISOString(),
            finishedAt: finished === null ? null : new Date(finished).toISOString(),
            durationMs: finished === null ? null : finished - Number(r.started_at),
            startedBy: describeStarter(r.started_by, names),
            created: Number(r.created),
            updated: Number(r.updated),
            unfetched: Number(r.unfetched),
            error: r.error,
            status: r.status,
            retried: parseRetried(r.retried),
          };
        }),
        pagination: paginationOf(page, limit, Number(count.n)),
      };
    },
  );

  app.post(
    '/api/admin/clients/:id/test-call',
    {
      schema: {
        summary: 'Place a test call on a client’s number',
        tags: ['admin'],
        ...apiDoc({ errors: [502] }),
        params: ClientParam,
        body: TestCallBody,
        response: { 200: TestCallResult },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const client = await clientOr404(request.params.id);
      const voice = voiceOf(deps.voices, client);
      if (!client.bland_api_key_enc)
        throw badRequest(
          `This client has no ${voice.name} API key: place a test call from ${voice.name}'s dashboard instead`,
        );
      if (!voice.placeTestCall)
        throw badRequest(
          `${voice.name} places calls from an assistant and a phone number of the client's account: place a test call from ${voice.name}'s dashboard; it reaches the delivery log when it ends.`,
        );
      const webhookUrl = webhookUrlOf(client, deps.config.publicUrl, deps.secrets);
      if (!webhookUrl) throw badRequest('This client’s webhook URL cannot be read back: rotate it first');
      const placed = await voice.placeTestCall(deps.secrets.decrypt(client.bland_api_key_enc), {
        phoneNumber: request.body.phoneNumber,
        webhookUrl,
      });
      await recordAudit(
        db,
        {
          adminId: admin.id,
          action: 'client.test_call',
          clientId: client.id,
          detail: { callId: placed.callId },
        },
        now(),
      );
      return {
        success: true as const,
        callId: placed.callId,
        message: `${voice.name} is placing the call to ${request.body.phoneNumber}; it reaches the delivery log when it ends.`,
      };
    },
  );
}

function replayMessage(outcome: string, detail: string | null): string {
  switch (outcome) {
    case 'created':
      return 'Replayed: the call is stored.';
    case 'updated':
      return 'Replayed: the call is stored and up to date.';
    case 'duplicate':
      return 'Replayed: the call was already stored, nothing changed.';
    case 'unconfirmed':
      return `Replayed, still unconfirmed: ${detail ?? 'the provider could not confirm the call'}.`;
    case 'refused':
      return `Replayed and refused again: ${detail ?? 'the delivery is not valid'}.`;
    default:
      return 'Replayed: a live event, acknowledged.';
  }
}
