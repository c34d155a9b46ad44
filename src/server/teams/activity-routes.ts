/**
 * GET /api/client/activity and GET /api/client/activity/export: the client's activity
 * log, for its Owners only (`users`). A page of lines newest first, filtered by person and
 * action; the same filter as CSV, streamed in batches, which is itself an `export` line. A client
 * reads only its own lines: the client id comes from the session, and a user id of another
 * client finds nothing.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance } from 'fastify';
import {
  ACTIVITY_ACTION_LABELS,
  ACTIVITY_ACTIONS,
  ActivityExportQuery,
  ActivityPage,
  ActivityQuery,
} from '../../contract/activity';
import { describeActivityDetail } from '../../contract/activity-detail';
import { paginationOf } from '../../contract/common';
import { type ActivityFilter, activityBatches, activityPage } from '../activity/read';
import { type ActivityAction, recordActivity } from '../activity/record';
import { requireClient, requireClientUser } from '../auth/guards';
import { enforceCreationCap } from '../http/creation-caps';
import { safeCell } from '../http/csv-cell';
import { apiDoc, file } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { localDateTime } from '../time/time-zones';

const USERS = { config: { permission: 'users' as const } };

// The contract's names and the writers' union are one list: either drifting is a compile error.
const CONTRACT_NAMES: readonly ActivityAction[] = ACTIVITY_ACTIONS;
const WRITTEN_NAMES: Record<ActivityAction, string> = ACTIVITY_ACTION_LABELS;
void CONTRACT_NAMES;
void WRITTEN_NAMES;

const CSV_HEADER = ['Date and time', 'Time zone', 'Person', 'Action', 'Details'];

export default async function activityRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now, config } = app.deps;

  const filterOf = (q: { userId?: string; action?: ActivityFilter['action'] }): ActivityFilter => ({
    ...(q.userId ? { userId: q.userId } : {}),
    ...(q.action ? { action: q.action } : {}),
  });

  app.get(
    '/api/client/activity',
    {
      ...USERS,
      schema: {
        summary: 'The account’s activity log, newest first, filtered and paged',
        tags: ['client'],
        querystring: ActivityQuery,
        response: { 200: ActivityPage },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const { page, limit } = request.query;
      const { items, total, totalIsLowerBound } = await activityPage(
        db,
        client.id,
        filterOf(request.query),
        page,
        limit,
      );
      return {
        items,
        pagination: paginationOf(page, limit, total, {
          lowerBound: totalIsLowerBound,
          fullPage: items.length === limit,
        }),
      };
    },
  );

  app.get(
    '/api/client/activity/export',
    {
      ...USERS,
      schema: {
        summary: 'Download the filtered activity log as CSV',
        tags: ['client'],
        ...apiDoc({ errors: [429], responses: { 200: file('The activity log as CSV.', 'text/csv') } }),
        querystring: ActivityExportQuery,
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      const user = requireClientUser(request);
      // Each download writes a line, so downloads share the account's hourly export cap.
      await enforceCreationCap(app.deps, reply, {
        key: `export:client:${client.id}`,
        max: config.creationCaps.exportsPerHour,
        windowMs: 60 * 60 * 1000,
        what: 'exports',
      });
      const filter = filterOf(request.query);
      await recordActivity(
        db,
        {
          clientId: client.id,
          userId: user.id,
          action: 'export',
          detail: { what: 'activity log', ...filter },
        },
        now(),
      );
      const timezone = client.timezone;
      async function* csv() {
        yield stringify([CSV_HEADER]);
        for await (const items of activityBatches(db, client.id, filter)) {
          yield stringify(
            items.map((item) => [
              localDateTime(Date.parse(item.at), timezone),
              timezone,
              safeCell(item.userName ?? ''),
              ACTIVITY_ACTION_LABELS[item.action],
              safeCell(describeActivityDetail(item)),
            ]),
          );
        }
      }
      const filename = `activity-${new Date(now()).toISOString().slice(0, 10)}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csv()));
    },
  );
}
