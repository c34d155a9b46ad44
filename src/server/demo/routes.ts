/**
 * The public demo (DESIGN §6 [11]): read-only call analytics of the demo tenant, no login. (The
 * sample data a signed-in client can add to its own account is sample-data-routes.ts.)
 * The demo reads through the same query functions as the client dashboard.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  type Call,
  CallDetail,
  CallsPage,
  CallsQuery,
  ChartQuery,
  DailyPoints,
  DemoStats,
  StatsQuery,
} from '../../contract/calls';
import { IdParam } from '../../contract/common';
import { AttentionList, AttentionQuery, OutcomePoints, OutcomeSummary } from '../../contract/outcomes';
import { listCalls } from '../calls/read/call-log';
import { chartFor, statsFor, toCallDetail } from '../calls/read/call-queries';
import { createCallsRepository } from '../calls/write/calls-repository';
import { sendRecording } from '../calls/read/recording-routes';
import { notFound } from '../http/errors';
import { attentionList } from '../outcomes/attention-routes';
import { createClassificationGuard } from '../outcomes/classification-guard';
import { outcomeReads } from '../outcomes/routes';
import type { ZodTypeProvider } from '../http/route-schemas';
import { DEMO_CLIENT, DEMO_CLIENT_ID, createDemoData } from './demo-data';

export const demoRecordingPath = (id: string) => `/api/demo/recording/${id}`;

const RecordingQuery = z.object({
  download: z
    .enum(['1', 'true', '0', 'false'], { message: 'download must be 1, true, 0 or false' })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

/** Without a demo provider account, one stand-in recording serves every demo call. */
let recordingAudio: Promise<Buffer> | null = null;
function demoAudio(): Promise<Buffer> {
  recordingAudio ??= readFile(new URL('./demo-recording.mp3', import.meta.url));
  return recordingAudio;
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` against a body of `size` bytes; null means the whole body. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'invalid' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? 'invalid' : { start, end };
}

export default async function demoRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const demo = createDemoData(app.deps, (error) => app.log.warn({ err: error }, 'demo sync failed'));
  const calls = createCallsRepository(db);

  // The whole page is a demo: its generated calls are not marked one by one.
  const withDemoRecording = <T extends Call>(call: T): T => ({
    ...call,
    isSample: false,
    ...(call.recordingUrl ? { recordingUrl: demoRecordingPath(call.id) } : {}),
  });

  app.get(
    '/api/demo/calls',
    { schema: { querystring: CallsQuery, response: { 200: CallsPage } } },
    async (request) => {
      await demo.ensureCurrent();
      const page = await listCalls(db, DEMO_CLIENT_ID, request.query);
      return { ...page, calls: page.calls.map(withDemoRecording) };
    },
  );

  app.get(
    '/api/demo/calls/:id',
    { schema: { params: IdParam, response: { 200: CallDetail } } },
    async (request) => {
      await demo.ensureCurrent();
      const call = toCallDetail(await calls.findCall(DEMO_CLIENT_ID, request.params.id));
      if (!call) throw notFound('Call not found');
      return withDemoRecording(call) as CallDetail;
    },
  );

  app.get(
    '/api/demo/stats',
    { schema: { querystring: StatsQuery, response: { 200: DemoStats } } },
    async (request) => {
      await demo.ensureCurrent();
      const stats = await statsFor(db, DEMO_CLIENT_ID, request.query, now());
      // The demo presents what its calls cost the agency's client as the agency's revenue.
      return { ...stats, totalRevenue: stats.totalCost };
    },
  );

  app.get(
    '/api/demo/calls-over-time',
    { schema: { querystring: ChartQuery, response: { 200: DailyPoints } } },
    async (request) => {
      await demo.ensureCurrent();
      return chartFor(db, DEMO_CLIENT, request.query, now());
    },
  );

  // Outcomes and "Needs attention", read-only: the demo shows them, nobody marks a demo call handled.
  const outcomes = outcomeReads(db, createClassificationGuard(db, now, app.log), now);
  app.get(
    '/api/demo/outcomes/summary',
    { schema: { querystring: StatsQuery, response: { 200: OutcomeSummary } } },
    async (request) => {
      await demo.ensureCurrent();
      return outcomes.summary(DEMO_CLIENT_ID, request.query);
    },
  );
  app.get(
    '/api/demo/outcomes-over-time',
    { schema: { querystring: ChartQuery, response: { 200: OutcomePoints } } },
    async (request) => {
      await demo.ensureCurrent();
      return outcomes.overTime(DEMO_CLIENT_ID, request.query);
    },
  );
  app.get(
    '/api/demo/attention',
    { schema: { querystring: AttentionQuery, response: { 200: AttentionList } } },
    async (request) => {
      await demo.ensureCurrent();
      const list = await attentionList(db, DEMO_CLIENT_ID, request.query.limit);
      return { ...list, calls: list.calls.map(withDemoRecording) };
    },
  );

  app.get(
    '/api/demo/recording/:id',
    { schema: { params: IdParam, querystring: RecordingQuery } },
    async (request, reply) => {
      const { id } = request.params;
      const { download } = request.query;
      const call = await calls.findCall(DEMO_CLIENT_ID, id);
      if (demo.fromProvider)
        return sendRecording(app.deps, request, reply, call, {
          download,
          cacheControl: 'public, max-age=3600',
        });
      if (!call) throw notFound('Call not found');
      if (!call.recording_url) throw notFound('No recording for this call');
      const audio = await demoAudio();
      const range = parseRange(
        typeof request.headers.range === 'string' ? request.headers.range : undefined,
        audio.length,
      );
      reply
        .header('content-type', 'audio/mpeg')
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'public, max-age=3600');
      if (download) reply.header('content-disposition', `attachment; filename="recording-${call.id}.mp3"`);
      if (range === 'invalid')
        return reply.code(416).header('content-range', `bytes */${audio.length}`).send();
      if (range) {
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${audio.length}`)
          .send(audio.subarray(range.start, range.end + 1));
      }
      return reply.send(audio);
    },
  );
}
