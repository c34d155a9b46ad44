/**
 * The live streams: GET /api/client/events for the signed-in client and
 * GET /api/admin/clients/{id}/events for an admin watching a client. Server-sent events: `call`
 * and `refresh` events with increasing ids, a comment every LIVE_HEARTBEAT_MS (15 s), and on reconnect
 * (Last-Event-ID) the events missed meanwhile, or a `refresh` when they are no longer kept. At each
 * heartbeat the session is checked again: logging out, an expired session, a deactivated
 * account or a two-factor requirement the person has not met ends the stream. When the server stops (SIGTERM), every stream gets an `end`
 * event with reason "restarting" and is closed, so browsers reconnect to another instance at once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { maskLiveCall, masksNumbersFor } from '../access/number-masking';
import {
  adminStillAllowed,
  clientStillAllowed,
  requireAdmin,
  requireClient,
  requireClientUser,
} from '../auth/guards';
import { tooManyRequests } from '../http/errors';
import { startJob } from '../http/jobs';
import { apiDoc, file } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import type { LiveMessage } from './live-hub';

/** The stream as the API description shows it. */
const EVENTS = {
  200: file(
    'Server-sent events (`call`, `refresh`), held open while the session lasts.',
    'text/event-stream',
  ),
};

import { namedClient } from '../clients/named-client';

/** Streams one client may have open on one instance (tabs, devices): beyond, 429. */
export const MAX_STREAMS_PER_CLIENT = 20;
/** Streams one instance holds at most. */
export const MAX_STREAMS_PER_INSTANCE = 5000;

const ClientParam = z.object({ id: z.string().trim().min(1).max(100) });
const LastEventId = z.object({ lastEventId: z.coerce.number().int().min(0).optional() });

export default async function streamRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { live } = app.deps;
  const perClient = new Map<string, number>();
  /** Every open stream's way to end, for the server's stop. */
  const open = new Set<(reason: string) => void>();
  // Before the server stops waiting on connections: a held-open stream would hold the stop.
  app.addHook('preClose', (done) => {
    for (const end of [...open]) end('restarting');
    done();
  });

  /** Holds the response open and writes the client's events to it until the session ends. */
  async function stream(
    request: FastifyRequest,
    reply: FastifyReply,
    clientId: string,
    stillAllowed: () => Promise<boolean>,
    lastEventId: number | undefined,
    /** The event's data as this reader gets it (masked numbers); as stored when left out. */
    dataOf: (m: LiveMessage) => string = (m) => m.payload,
  ) {
    if (
      (perClient.get(clientId) ?? 0) >= MAX_STREAMS_PER_CLIENT ||
      live.openStreams() >= MAX_STREAMS_PER_INSTANCE
    )
      throw tooManyRequests('Too many live streams open; close a tab and try again');
    // The browser's own Last-Event-ID header wins; the query parameter (validated by the route)
    // is for clients that cannot set headers.
    const header = request.headers['last-event-id'];
    const resumeFrom = Number.parseInt(String(header ?? lastEventId ?? ''), 10);

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // Proxies (nginx) must not hold events back to fill a buffer.
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    raw.write('retry: 3000\n\n');
    perClient.set(clientId, (perClient.get(clientId) ?? 0) + 1);

    let lastSent = 0;
    let ready = false;
    const early: LiveMessage[] = [];
    let corked = false;
    const send = (m: LiveMessage) => {
      if (m.id <= lastSent) return;
      lastSent = m.id;
      // Events handed over together (one read of the hub) leave in one write.
      if (!corked) {
        corked = true;
        raw.cork();
        process.nextTick(() => {
          corked = false;
          raw.uncork();
        });
      }
      raw.write(`id: ${m.id}\nevent: ${m.kind}\ndata: ${dataOf(m)}\n\n`);
    };
    // Subscribed first, so nothing written while the missed events are read falls between the two.
    const unsubscribe = await live.subscribe(clientId, (m) => (ready ? send(m) : early.push(m)));
    let stopHeartbeat: (() => void) | null = null;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      unsubscribe();
      stopHeartbeat?.();
      const left = (perClient.get(clientId) ?? 1) - 1;
      if (left > 0) perClient.set(clientId, left);
      else perClient.delete(clientId);
      raw.end();
    };
    raw.on('close', end);
    const endWith = (reason: string) => {
      if (ended) return;
      raw.write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
      end();
    };
    open.add(endWith);
    raw.once('close', () => open.delete(endWith));

    try {
      if (Number.isSafeInteger(resumeFrom) && resumeFrom >= 0) {
        const oldest = await live.oldestId();
        // Events after the one it saw are gone: everything must be read again.
        if (oldest > resumeFrom + 1 || oldest === 0) {
          const latest = await live.latestId();
          if (latest > resumeFrom)
            send({ id: latest, clientId, kind: 'refresh', payload: '{"reason":"resume"}' });
          lastSent = Math.max(lastSent, latest);
        }
        lastSent = Math.max(lastSent, resumeFrom);
        for (const m of await live.since(clientId, lastSent)) send(m);
      } else {
        lastSent = await live.latestId();
        raw.write(`id: ${lastSent}\nevent: ready\ndata: {}\n\n`);
      }
      ready = true;
      for (const m of early.splice(0)) send(m);
    } catch (error) {
      request.log.warn({ err: error }, 'live stream could not start');
      end();
      return;
    }

    stopHeartbeat = startJob(
      {
        name: 'live-stream-heartbeat',
        intervalMs: app.deps.config.liveHeartbeatMs,
        run: () => {
          stillAllowed().then(
            (ok) => {
              if (!ok) {
                raw.write('event: end\ndata: {"reason":"signed out"}\n\n');
                end();
              } else raw.write(': keep-alive\n\n');
            },
            () => raw.write(': keep-alive\n\n'),
          );
        },
      },
      (error) => request.log.warn({ err: error }, 'live stream heartbeat failed'),
    );
  }

  app.get(
    '/api/client/events',
    {
      config: { permission: 'calls.read' },
      schema: {
        summary: 'Live call events for the signed-in client',
        tags: ['client'],
        ...apiDoc({ errors: [429], responses: EVENTS }),
        querystring: LastEventId,
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      // Masked per connection, for the user who opened it; read again at each heartbeat, so a
      // changed permission or privacy setting reaches an open stream within LIVE_HEARTBEAT_MS.
      let numbersMasked = masksNumbersFor(client, requireClientUser(request));
      await stream(
        request,
        reply,
        client.id,
        async () => {
          const signedIn = await clientStillAllowed(app, request, client.id);
          if (!signedIn) return false;
          numbersMasked = masksNumbersFor(signedIn.client, signedIn.user);
          return true;
        },
        request.query.lastEventId,
        (m) => (numbersMasked && m.kind === 'call' ? maskLiveCall(m.payload) : m.payload),
      );
    },
  );

  app.get(
    '/api/admin/clients/:id/events',
    {
      schema: {
        summary: 'Live call events of one client',
        tags: ['admin'],
        ...apiDoc({ errors: [429], responses: EVENTS }),
        params: ClientParam,
        querystring: LastEventId,
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const client = await namedClient(app.deps.db, request.params.id);
      await stream(
        request,
        reply,
        client.id,
        () => adminStillAllowed(app, request, admin.id),
        request.query.lastEventId,
      );
    },
  );
}
