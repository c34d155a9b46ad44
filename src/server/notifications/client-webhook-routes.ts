/**
 * The client's webhook endpoint (docs/webhooks.md): set it, see and rotate its signing
 * secret (shown once), send a test event, read the delivery log, and send a delivery again.
 * Everything is scoped to the signed-in client: another client's delivery is not found.
 */

import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isoTime } from '../../contract/common';
import {
  ClientWebhook,
  ClientWebhookSaved,
  INTEGRATION_MESSAGES,
  WEBHOOK_DELIVERIES_PAGE_SIZE,
  WebhookDeliveries,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookTestResult,
  WebhookUrlBody,
} from '../../contract/integrations';
import { recordChange } from '../activity/record';
import { requireClient, requireClientUser } from '../auth/guards';
import type { OutboxRow } from '../db/schema';
import { enforceWebhookSendCap } from '../http/creation-caps';
import { badRequest, notFound } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import {
  findWebhookEndpoint,
  isPublicTarget,
  postEvent,
  removeWebhookEndpoint,
  saveWebhookEndpoint,
  type WebhookEndpoint,
} from './client-webhooks';
import { webhookContext } from './index';
import { enqueue } from './outbox';
import { eventIdOf, renderEvent, type WebhookPayload } from './webhook-sender';

const Success = z.object({ success: z.literal(true) });
const DeliveryParams = z.object({ id: z.string().uuid() });

function view(endpoint: WebhookEndpoint | null, secret: string | null = null) {
  return {
    url: endpoint?.url ?? null,
    secretHint: endpoint ? endpoint.secret.slice(-4) : null,
    createdAt: endpoint ? isoTime(endpoint.createdAt) : null,
    secret,
  };
}

function toDelivery(row: OutboxRow): WebhookDelivery {
  let callId: string | null = null;
  try {
    // JSON.parse is any: the outbox row was written by us from a WebhookPayload.
    const payload = JSON.parse(row.payload_json) as WebhookPayload;
    callId = typeof payload.callId === 'string' ? payload.callId : null;
  } catch {
    // a payload we cannot read shows without its call
  }
  return {
    id: row.id,
    event: row.topic,
    callId,
    status: row.status,
    statusCode: row.last_status_code,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: isoTime(Number(row.created_at))!,
    sentAt: isoTime(row.sent_at),
    nextAttemptAt: row.status === 'pending' ? isoTime(Number(row.next_attempt_at)) : null,
  };
}

export default async function clientWebhookRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, secrets, now, config } = app.deps;
  const ctx = webhookContext(app.deps);

  app.get(
    '/api/client/integrations/webhook',
    {
      config: { permission: 'integrations' },
      schema: {
        summary: 'The client’s outgoing webhook',
        tags: ['client'],
        response: { 200: ClientWebhook },
      },
    },
    async (request) => {
      const { secret: _never, ...shown } = view(
        await findWebhookEndpoint(db, secrets, requireClient(request).id),
      );
      return shown;
    },
  );

  app.put(
    '/api/client/integrations/webhook',
    {
      config: { permission: 'integrations' },
      schema: {
        summary: 'Set the outgoing webhook’s URL and events',
        tags: ['client'],
        ...apiDoc({ errors: [429] }),
        body: WebhookUrlBody,
        response: { 200: ClientWebhookSaved },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const { url } = request.body;
      if (!config.clientWebhooksAllowPrivate && !(await isPublicTarget(url)))
        throw badRequest(INTEGRATION_MESSAGES.urlPrivate, { url: INTEGRATION_MESSAGES.urlPrivate });
      const saved = await saveWebhookEndpoint(db, secrets, client.id, { url }, now());
      await recordChange(
        db,
        requireClientUser(request),
        'settings_change',
        { what: 'webhook endpoint', url },
        now(),
      );
      return view(saved!.endpoint, saved!.newSecret);
    },
  );

  app.delete(
    '/api/client/integrations/webhook',
    {
      config: { permission: 'integrations' },
      schema: { summary: 'Remove the outgoing webhook', tags: ['client'], response: { 200: Success } },
    },
    async (request) => {
      await removeWebhookEndpoint(db, requireClient(request).id);
      await recordChange(
        db,
        requireClientUser(request),
        'settings_change',
        { what: 'webhook endpoint', change: 'removed' },
        now(),
      );
      return { success: true as const };
    },
  );

  app.post(
    '/api/client/integrations/webhook/rotate',
    {
      config: { permission: 'integrations' },
      schema: {
        summary: 'Replace the outgoing webhook’s signing secret',
        tags: ['client'],
        ...apiDoc({ errors: [404] }),
        response: { 200: ClientWebhookSaved },
      },
    },
    async (request) => {
      const saved = await saveWebhookEndpoint(
        db,
        secrets,
        requireClient(request).id,
        { rotate: true },
        now(),
      );
      if (!saved) throw notFound(INTEGRATION_MESSAGES.noWebhook);
      await recordChange(
        db,
        requireClientUser(request),
        'key_change',
        { what: 'webhook endpoint signing secret' },
        now(),
      );
      return view(saved.endpoint, saved.newSecret);
    },
  );

  // Sent at once, so the client sees what its endpoint answered; kept in the log, never retried.
  app.post(
    '/api/client/integrations/webhook/test',
    {
      config: { permission: 'integrations' },
      schema: {
        summary: 'Send a test event to the outgoing webhook',
        tags: ['client'],
        ...apiDoc({ errors: [404, 429] }),
        response: { 200: WebhookTestResult },
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      const endpoint = await findWebhookEndpoint(db, secrets, client.id);
      if (!endpoint) throw notFound(INTEGRATION_MESSAGES.noWebhook);
      await enforceWebhookSendCap(app.deps, reply, client.id, 'test');
      const at = now();
      const row: OutboxRow = {
        id: randomUUID(),
        client_id: client.id,
        channel: 'webhook',
        topic: 'test',
        dedupe_key: `webhook:test:${randomUUID()}`,
        payload_json: '{}',
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        claimed_until: null,
        claimed_by: null,
        last_error: null,
        last_status_code: null,
        created_at: at,
        sent_at: null,
      };
      const body = (await renderEvent(ctx, row, {}))!;
      const outcome = await postEvent(
        endpoint,
        { id: eventIdOf(row), body },
        { allowPrivate: ctx.allowPrivate, now: at },
      );
      const delivered = outcome.result === 'sent';
      const statusCode = outcome.result === 'cancel' ? null : (outcome.statusCode ?? null);
      const error =
        outcome.result === 'sent' ? null : outcome.result === 'retry' ? outcome.error : outcome.reason;
      await db
        .insertInto('outbox')
        .values({
          ...row,
          status: delivered ? 'sent' : 'cancelled',
          attempts: 1,
          last_status_code: statusCode,
          last_error: error,
          sent_at: delivered ? now() : null,
        })
        .execute();
      return { delivered, statusCode, error };
    },
  );

  app.get(
    '/api/client/integrations/webhook/deliveries',
    {
      config: { permission: 'integrations' },
      schema: {
        summary: 'Recent deliveries of the outgoing webhook',
        tags: ['client'],
        querystring: WebhookDeliveriesQuery,
        response: { 200: WebhookDeliveries },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const { page } = request.query;
      const rows = await db
        .selectFrom('outbox')
        .selectAll()
        .where('client_id', '=', client.id)
        .where('channel', '=', 'webhook')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(WEBHOOK_DELIVERIES_PAGE_SIZE + 1)
        .offset((page - 1) * WEBHOOK_DELIVERIES_PAGE_SIZE)
        .execute();
      return {
        deliveries: rows.slice(0, WEBHOOK_DELIVERIES_PAGE_SIZE).map(toDelivery),
        page,
        hasMore: rows.length > WEBHOOK_DELIVERIES_PAGE_SIZE,
      };
    },
  );

  // "Send again": a new delivery of the same event (same event id), sent by the worker shortly.
  app.post(
    '/api/client/integrations/webhook/deliveries/:id/resend',
    {
      config: { permission: 'integrations' },
      schema: {
        summary: 'Send a delivery again',
        tags: ['client'],
        ...apiDoc({ errors: [409, 429] }),
        params: DeliveryParams,
        response: { 202: WebhookDelivery },
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      const original = await db
        .selectFrom('outbox')
        .selectAll()
        .where('id', '=', request.params.id)
        .where('client_id', '=', client.id)
        .where('channel', '=', 'webhook')
        .executeTakeFirst();
      if (!original) throw notFound(INTEGRATION_MESSAGES.deliveryNotFound);
      if (!(await findWebhookEndpoint(db, secrets, client.id)))
        throw notFound(INTEGRATION_MESSAGES.noWebhook);
      await enforceWebhookSendCap(app.deps, reply, client.id, 'resend');
      const payload = {
        // JSON.parse is any: the outbox row was written by us from a WebhookPayload.
        ...(JSON.parse(original.payload_json) as WebhookPayload),
        eventId: eventIdOf(original),
      };
      const key = `webhook:resend:${original.id}:${randomUUID()}`;
      await enqueue(
        db,
        [{ clientId: client.id, channel: 'webhook', topic: original.topic, dedupeKey: key, payload }],
        now(),
      );
      const created = await db
        .selectFrom('outbox')
        .selectAll()
        .where('dedupe_key', '=', key)
        .executeTakeFirstOrThrow();
      return reply.code(202).send(toDelivery(created));
    },
  );
}
