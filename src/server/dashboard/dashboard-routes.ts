/**
 * The dashboard's first screen in one read: GET /api/client/dashboard, the admin's
 * GET /api/admin/clients/{clientId}/dashboard and the demo's GET /api/demo/dashboard. One answer
 * carries what the first screen used to fetch in ten requests, with the same numbers: the calls
 * parts call the very read functions the separate endpoints call (calls/read, outcomes/), for the
 * client the view loaded once, concurrently (PostgreSQL's pool runs them side by side; on SQLite
 * they queue on the one connection). The few small reads of other modules (preferences, sample
 * data, two-factor state, subscription, the admin's client header) are asked of their own
 * endpoints in process (`inject`, with the request's cookies), so their guards, permissions and
 * audit rows are theirs: a part the reader may not see (403) is left out.
 *
 * What differs between views is the CallsView's (calls/read/views.ts, demo/routes.ts), never
 * here. Must not: copy a query of the separate reads, or read the client again by id.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type Call, CallsQuery } from '../../contract/calls';
import type { ClientIdParam } from '../../contract/common';
import { DASHBOARD_LIVE_LIMIT, DashboardQuery } from '../../contract/dashboard';
import { maskCall } from '../access/number-masking';
import { type CallsClient, listCalls } from '../calls/read/call-log';
import { chartFor, statsFor } from '../calls/read/call-queries';
import type { CallPlace, CallsView } from '../calls/read/calls-view-routes';
import { outcomeReads } from '../calls/read/outcome-reads';
import { type MountDoc, mountDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { attentionList } from '../outcomes/attention-list';
import { classificationGuardOf } from '../outcomes/classification-guard';

/** "Live now": the calls in progress, newest first, as the strip asks the log for them. */
const LIVE_QUERY = CallsQuery.parse({
  status: 'active',
  limit: String(DASHBOARD_LIVE_LIMIT),
  sort: 'created',
  order: 'desc',
});

/** A part read through its own endpoint: its path, and what of its answer the dashboard carries. */
export interface DashboardExtra {
  url: string;
  pick?: (body: unknown) => unknown;
}

export interface DashboardOptions<C extends CallsClient> {
  path: string;
  /** How the API description names this mount (its tag is the view's). */
  doc: MountDoc;
  /** The path's parameters (the admin's `clientId`). */
  params?: typeof ClientIdParam;
  /** The answer's schema (contract/dashboard.ts). */
  response: z.ZodTypeAny;
  /** Whether the view shows "Live now" (it has a live stream: client and admin). */
  live: boolean;
  /** Parts read through their own endpoints, by the answer's field. */
  extras?: (request: FastifyRequest, client: C) => Record<string, DashboardExtra>;
}

/** Headers an in-process read needs to be the same reader: its session and who it is. */
const FORWARDED_HEADERS = ['cookie', 'authorization', 'user-agent', 'x-forwarded-for'] as const;

export function dashboardRoutes<C extends CallsClient>(
  view: CallsView<C>,
  options: DashboardOptions<C>,
): FastifyPluginAsync {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { db, now } = app.deps;
    const outcomes = outcomeReads(db, classificationGuardOf(app.deps, app.log), now);

    const show = <T extends Call>(call: T, client: C, place: CallPlace, numbersMasked: boolean): T => {
      const shown = view.showCall ? view.showCall(call, client, place) : call;
      return numbersMasked ? maskCall(shown) : shown;
    };

    /** Each extra from its own endpoint; a refusal (403) or a failure leaves the part out. */
    async function readExtras(request: FastifyRequest, client: C): Promise<Record<string, unknown>> {
      const extras = Object.entries(options.extras?.(request, client) ?? {});
      const headers: Record<string, string> = {};
      for (const name of FORWARDED_HEADERS) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const answers = await Promise.all(
        extras.map(async ([field, extra]) => {
          const res = await app.inject({ method: 'GET', url: extra.url, headers });
          if (res.statusCode !== 200) return null;
          const body: unknown = res.json();
          return [field, extra.pick ? extra.pick(body) : body] as const;
        }),
      );
      return Object.fromEntries(answers.filter((a) => a !== null));
    }

    app.get(
      options.path,
      {
        config: { permission: 'calls.read' as const },
        schema: {
          ...mountDoc(view.docs.tag, options.doc),
          ...(options.params ? { params: options.params } : {}),
          querystring: DashboardQuery,
          response: { 200: options.response },
        },
      },
      async (request, reply) => {
        const client = await view.clientOf(request);
        await view.beforeRead?.();
        const query = request.query;
        await view.searched?.(request, reply, client, query.log.search);
        const numbersMasked = view.numbersMasked?.(request, client) ?? false;
        const at = now();
        const [page, stats, callsOverTime, outcomesSummary, outcomesOverTime, attention, live, extras] =
          await Promise.all([
            listCalls(db, client, query.log, at, numbersMasked),
            statsFor(db, client, query.stats, at),
            chartFor(db, client, query.chart, at),
            outcomes.summary(client, query.stats),
            outcomes.overTime(client, query.chart),
            attentionList(db, client.id, query.attentionLimit),
            options.live ? listCalls(db, client, LIVE_QUERY, at, numbersMasked) : null,
            readExtras(request, client),
          ]);
        // The log was read: the admin's audit row, as GET …/client-calls/{clientId} leaves it.
        await view.record?.(request, client, { kind: 'log' });
        const showAll = <T extends Call>(calls: T[], place: CallPlace): T[] =>
          calls.map((call) => show(call, client, place, numbersMasked));
        return {
          ...extras,
          calls: { ...page, calls: showAll(page.calls, 'log') },
          stats: view.stats ? view.stats.show(stats) : stats,
          callsOverTime,
          outcomesSummary,
          outcomesOverTime,
          attention: { ...attention, calls: showAll(attention.calls, 'attention') },
          ...(live ? { liveCalls: { ...live, calls: showAll(live.calls, 'log') } } : {}),
        };
      },
    );
  };
}
