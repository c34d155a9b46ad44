/**
 * Every calls endpoint, written once: the log, stats, calls over time, one call, delete, the
 * outcomes summary and over time, "Needs attention", marking a call handled, and the export.
 * `callsViewRoutes(view)` mounts them for one way of finding the client (a `CallsView`): the
 * client's session (/api/client/…), an admin naming the client in the path (/api/admin/…, with
 * the admin's audit rows), the demo tenant (/api/demo/…, read-only). Each read takes the client
 * the view loaded, with its time zone; none reads it again.
 *
 * What differs between views lives in the view (views.ts, demo/routes.ts), never here: paths,
 * how a call's recording is linked, the audit, who marks a call handled. Recordings are served by
 * recording-routes.ts and the demo's own route: the admin's recording path does not look its
 * client up, so it answers an unknown client as an unknown call.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  type AdminCallDetail,
  type Call,
  type CallDetail,
  CallDetail as CallDetailSchema,
  CallsExportQuery,
  CallsPage,
  CallsQuery,
  ChartQuery,
  ClientStats,
  DailyPoints,
  type DemoStats,
  StatsQuery,
} from '../../../contract/calls';
import { type ClientIdParam, IdParam, SuccessBody } from '../../../contract/common';
import {
  AttentionList,
  AttentionQuery,
  HandledResponse,
  OutcomePoints,
  OutcomeSummary,
} from '../../../contract/outcomes';
import { QualitySummary, QualitySummaryQuery } from '../../../contract/quality';
import { maskCall } from '../../access/number-masking';
import { toCallDetail } from '../../call-rows/call';
import type { CallRow } from '../../db/schema';
import { notFound } from '../../http/errors';
import { type ApiTag, type MountDoc, mountDoc, type RouteDocExtras } from '../../http/route-docs';
import type { ZodTypeProvider } from '../../http/route-schemas';
import { attentionList } from '../../outcomes/attention-list';
import { classificationGuardOf } from '../../outcomes/classification-guard';
import { qualitySummary } from '../../quality/summary';
import { createCallsRepository } from '../write/calls-repository';
import { markHandled } from '../write/outcome-writes';
import { CALL_LOG_DOWNLOAD, type ExportScope } from './call-export';
import { type CallsClient, listCalls } from './call-log';
import { chartFor, statsFor } from './call-queries';
import type { CallExports } from './export-routes';
import { outcomeReads } from './outcome-reads';

/** Where a call is shown: its recording link may differ between the log, the drawer and the list. */
export type CallPlace = 'log' | 'detail' | 'attention';

/** What a view records of a request (the admin's audit); the client and the demo record nothing. */
export type ViewEvent =
  | { kind: 'log' }
  | { kind: 'call'; callId: string }
  | { kind: 'delete'; callId: string }
  | { kind: 'export'; query: CallsExportQuery };

/** One way of finding the client a calls request is for, and what differs for it. */
export interface CallsView<C extends CallsClient = CallsClient> {
  paths: {
    log: string;
    stats: string;
    overTime: string;
    /** One call; ends in `:id`. */
    call: string;
    outcomesSummary: string;
    outcomesOverTime: string;
    /** Conversation quality of a period against the one before. */
    qualitySummary: string;
    attention: string;
    /** POST, ends in `:id/handled`; left out: calls cannot be marked here (the demo). */
    handled?: string;
    /** DELETE of one call, ends in `:id`; left out: no delete (the demo). */
    delete?: string;
    /** The log's download; left out: no export (the demo). */
    export?: string;
  };
  /** How the API description names each endpoint here: the view's tag, and a summary per path. */
  docs: { tag: ApiTag } & { [K in keyof CallsView['paths']]: MountDoc };
  /** The path's parameters besides a call's `id` (the admin's `clientId`). */
  params?: typeof ClientIdParam;
  /** The DELETE's query, when the client is named there (the admin's DELETE /api/admin/calls/{id}). */
  deleteQuery?: z.AnyZodObject;
  /** The client the request is for, loaded once; a 404 when there is none. */
  clientOf(request: FastifyRequest): Promise<C>;
  /** Runs before every read (the demo brings its generated calls up to date). */
  beforeRead?(): Promise<void>;
  /** How a call is shown here (its recording link, the sample flag); as stored when left out. */
  showCall?<T extends Call>(call: T, client: C, place: CallPlace): T;
  /**
   * Whether this request's reader sees callers' numbers masked (the client's users without
   * `unmask_numbers`, or all of them under the privacy setting); never when left out (admin, demo).
   * A masked reader's answers are masked here, at the boundary, and a number is searched only whole.
   */
  numbersMasked?(request: FastifyRequest, client: C): boolean;
  /**
   * Before a read with a search (the log, the first screen, an export): a search by phone number of
   * a reader who sees numbers masked is capped and recorded (access/number-searches.ts); over the cap
   * it throws 429.
   */
  searched?(
    request: FastifyRequest,
    reply: FastifyReply,
    client: C,
    search: string | null | undefined,
  ): Promise<void>;
  /** Records a finished (or broken-off) export of a client user: the activity line. */
  exported?(
    request: FastifyRequest,
    client: C,
    query: CallsExportQuery,
    rows: number,
    complete: boolean,
  ): Promise<void>;
  /** The stats as this view answers them (the demo adds the agency's revenue). */
  stats?: { response: z.ZodType<DemoStats>; show(stats: ClientStats): DemoStats };
  /** One call as this view answers it (the admin sees the provider's price). */
  detail?: { response: z.ZodType<AdminCallDetail>; show(call: CallDetail, row: CallRow): AdminCallDetail };
  /** Who marks a call handled, as kept with the mark. */
  handledBy?(request: FastifyRequest, client: C): string;
  /** Records what the request did (the admin's audit rows). */
  record?(request: FastifyRequest, client: C, event: ViewEvent): Promise<void>;
  /** The export: the app's export slots, its calls and where they open, whose slot, the file's name. */
  export?: {
    exports: CallExports;
    scope(client: C, query: CallsExportQuery): ExportScope;
    account(request: FastifyRequest, client: C): string;
    filename(client: C): string;
  };
}

/** The calls endpoints of one view, as a plugin to register. */
export function callsViewRoutes<C extends CallsClient>(view: CallsView<C>): FastifyPluginAsync {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { db, now } = app.deps;
    const calls = createCallsRepository(db);
    const outcomes = outcomeReads(db, classificationGuardOf(app.deps, app.log), now);
    const pathParams = view.params ? { params: view.params } : {};
    const callParams = view.params ? view.params.merge(IdParam) : IdParam;
    const masked = (request: FastifyRequest, client: C): boolean =>
      view.numbersMasked?.(request, client) ?? false;
    /** A call as this view shows it here, masked for a reader who sees masked numbers. */
    const show = <T extends Call>(call: T, client: C, place: CallPlace, numbersMasked: boolean): T => {
      const shown = view.showCall ? view.showCall(call, client, place) : call;
      return numbersMasked ? maskCall(shown) : shown;
    };
    /** The client of a read, after the view's own preparation. */
    /** The description of this view's endpoint at `path`, with what every view's shares. */
    const doc = (path: keyof CallsView['paths'], shared?: RouteDocExtras) => {
      const own = view.docs[path];
      if (!own) throw new Error(`The view describes no ${path} endpoint`);
      return mountDoc(view.docs.tag, own, shared);
    };
    const readerOf = async (request: FastifyRequest): Promise<C> => {
      const client = await view.clientOf(request);
      await view.beforeRead?.();
      return client;
    };

    app.get(
      view.paths.log,
      {
        config: { permission: 'calls.read' as const },
        schema: {
          ...doc('log'),
          ...pathParams,
          querystring: CallsQuery,
          response: { 200: CallsPage },
        },
      },
      async (request, reply) => {
        const client = await readerOf(request);
        await view.searched?.(request, reply, client, request.query.search);
        const numbersMasked = masked(request, client);
        const page = await listCalls(db, client, request.query, now(), numbersMasked);
        await view.record?.(request, client, { kind: 'log' });
        return { ...page, calls: page.calls.map((call) => show(call, client, 'log', numbersMasked)) };
      },
    );

    app.get(
      view.paths.stats,
      {
        config: { permission: 'calls.read' as const },
        schema: {
          ...doc('stats'),
          ...pathParams,
          querystring: StatsQuery,
          response: { 200: view.stats?.response ?? ClientStats },
        },
      },
      async (request) => {
        const stats = await statsFor(db, await readerOf(request), request.query, now());
        return view.stats ? view.stats.show(stats) : stats;
      },
    );

    app.get(
      view.paths.overTime,
      {
        config: { permission: 'calls.read' as const },
        schema: {
          ...doc('overTime'),
          ...pathParams,
          querystring: ChartQuery,
          response: { 200: DailyPoints },
        },
      },
      async (request) => chartFor(db, await readerOf(request), request.query, now()),
    );

    app.get(
      view.paths.call,
      {
        config: { permission: 'calls.read' as const },
        schema: {
          ...doc('call'),
          params: callParams,
          response: { 200: view.detail?.response ?? CallDetailSchema },
        },
      },
      async (request) => {
        const client = await readerOf(request);
        const callId = IdParam.parse(request.params).id;
        const row = await calls.findCall(client.id, callId);
        // Another client's call id is answered exactly like a missing one.
        const call = toCallDetail(row);
        if (!row || !call) throw notFound('Call not found');
        await view.record?.(request, client, { kind: 'call', callId: row.id });
        const shown = show(call, client, 'detail', masked(request, client));
        return view.detail ? view.detail.show(shown, row) : shown;
      },
    );

    if (view.paths.delete) {
      const query = view.deleteQuery ? { querystring: view.deleteQuery } : {};
      app.delete(
        view.paths.delete,
        {
          config: { permission: 'calls.manage' as const },
          schema: {
            ...doc('delete'),
            params: IdParam,
            ...query,
            response: { 200: SuccessBody },
          },
        },
        async (request) => {
          const client = await view.clientOf(request);
          const { id } = request.params;
          // Another client's call id is answered exactly like a missing one.
          if (!(await calls.deleteCall(client.id, id))) throw notFound('Call not found');
          await view.record?.(request, client, { kind: 'delete', callId: id });
          return { success: true as const };
        },
      );
    }

    app.get(
      view.paths.outcomesSummary,
      {
        config: { permission: 'calls.read' as const },
        schema: {
          ...doc('outcomesSummary'),
          ...pathParams,
          querystring: StatsQuery,
          response: { 200: OutcomeSummary },
        },
      },
      async (request) => outcomes.summary(await readerOf(request), request.query),
    );

    app.get(
      view.paths.outcomesOverTime,
      {
        config: { permission: 'calls.read' as const },
        schema: {
          ...doc('outcomesOverTime'),
          ...pathParams,
          querystring: ChartQuery,
          response: { 200: OutcomePoints },
        },
      },
      async (request) => outcomes.overTime(await readerOf(request), request.query),
    );

    app.get(
      view.paths.qualitySummary,
      {
        config: { permission: 'calls.read' as const },
        schema: {
          ...doc('qualitySummary'),
          ...pathParams,
          querystring: QualitySummaryQuery,
          response: { 200: QualitySummary },
        },
      },
      async (request) => qualitySummary(app.deps, await readerOf(request), request.query, now()),
    );

    app.get(
      view.paths.attention,
      {
        config: { permission: 'calls.read' as const },
        schema: {
          ...doc('attention'),
          ...pathParams,
          querystring: AttentionQuery,
          response: { 200: AttentionList },
        },
      },
      async (request) => {
        const client = await readerOf(request);
        const list = await attentionList(db, client.id, request.query.limit);
        const numbersMasked = masked(request, client);
        return {
          ...list,
          calls: list.calls.map((call) => show(call, client, 'attention', numbersMasked)),
        };
      },
    );

    const { handledBy } = view;
    if (view.paths.handled && handledBy) {
      app.post(
        view.paths.handled,
        {
          config: { permission: 'calls.manage' as const },
          schema: {
            ...doc('handled'),
            params: callParams,
            response: { 200: HandledResponse },
          },
        },
        async (request) => {
          const client = await view.clientOf(request);
          const callId = IdParam.parse(request.params).id;
          const result = await markHandled(db, client.id, callId, handledBy(request, client), now());
          if (!result) throw notFound('Call not found');
          return result;
        },
      );
    }

    const download = view.export;
    if (view.paths.export && download) {
      app.get(
        view.paths.export,
        {
          config: { permission: 'export' as const },
          schema: {
            ...doc('export', { errors: [429], responses: CALL_LOG_DOWNLOAD }),
            ...pathParams,
            querystring: CallsExportQuery,
          },
        },
        async (request, reply) => {
          const client = await view.clientOf(request);
          await view.searched?.(request, reply, client, request.query.search);
          const { exported } = view;
          const scope: ExportScope = {
            ...download.scope(client, request.query),
            numbersMasked: masked(request, client),
            ...(exported && {
              finished: (rows: number, complete: boolean) =>
                exported(request, client, request.query, rows, complete),
            }),
          };
          await view.record?.(request, client, { kind: 'export', query: request.query });
          return download.exports.send(
            reply,
            download.account(request, client),
            scope,
            request.query,
            download.filename(client),
          );
        },
      );
    }
  };
}
