/**
 * The public demo (DESIGN §6 [11]): read-only call analytics of the demo tenant, no login. (The
 * sample data a signed-in client can add to its own account is sample-data-routes.ts.)
 * The demo is a calls view (calls/read/calls-view-routes.ts) of the demo tenant: the same
 * endpoints as the client dashboard, without delete, export or marking handled; its recordings
 * are served here. The app registers the demo as this one plugin, with the sample data.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DemoStats } from '../../contract/calls';
import { IdParam } from '../../contract/common';
import { type CallsView, callsViewRoutes } from '../calls/read/calls-view-routes';
import { sendRecording } from '../calls/read/recording-routes';
import { createCallsRepository } from '../calls/write/calls-repository';
import type { AppDeps } from '../context';
import { dashboardRoutes } from '../dashboard/dashboard-routes';
import { demoDashboard } from '../dashboard/views';
import { notFound } from '../http/errors';
import { apiDoc, RECORDING } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { createDemoData, DEMO_CLIENT, DEMO_CLIENT_ID, type DemoData } from './demo-data';
import sampleDataRoutes from './sample-data-routes';

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

/** The demo tenant's calls, brought up to date before each read; nobody marks a demo call handled. */
function demoCallsView(demo: DemoData): CallsView {
  const tenant = { id: DEMO_CLIENT_ID, timezone: DEMO_CLIENT.timezone };
  return {
    paths: {
      log: '/api/demo/calls',
      stats: '/api/demo/stats',
      overTime: '/api/demo/calls-over-time',
      call: '/api/demo/calls/:id',
      outcomesSummary: '/api/demo/outcomes/summary',
      qualitySummary: '/api/demo/quality/summary',
      outcomesOverTime: '/api/demo/outcomes-over-time',
      attention: '/api/demo/attention',
    },
    docs: {
      tag: 'public',
      log: { summary: 'The demo’s call log' },
      stats: { summary: 'The demo’s call statistics' },
      overTime: { summary: 'The demo’s calls per day or hour' },
      call: { summary: 'One demo call' },
      outcomesSummary: { summary: 'The demo’s calls per outcome' },
      qualitySummary: { summary: 'The demo’s conversation quality' },
      outcomesOverTime: { summary: 'The demo’s outcomes per day' },
      attention: { summary: 'The demo’s calls that need a person' },
    },
    clientOf: async () => tenant,
    beforeRead: () => demo.ensureCurrent(),
    // The whole page is a demo: its generated calls are not marked one by one.
    showCall: (call) => ({
      ...call,
      isSample: false,
      ...(call.recordingUrl ? { recordingUrl: demoRecordingPath(call.id) } : {}),
    }),
    // The demo presents what its calls cost the agency's client as the agency's revenue.
    stats: { response: DemoStats, show: (stats) => ({ ...stats, totalRevenue: stats.totalCost }) },
  };
}

export default async function demoRoutes(app: FastifyInstance): Promise<void> {
  await app.register(publicDemoRoutes);
  await app.register(sampleDataRoutes);
}

async function publicDemoRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps: AppDeps = app.deps;
  const demo = createDemoData(deps, (error) => app.log.warn({ err: error }, 'demo sync failed'));
  const calls = createCallsRepository(deps.db);

  const view = demoCallsView(demo);
  await app.register(callsViewRoutes(view));
  // GET /api/demo/dashboard: the first screen in one read.
  await app.register(dashboardRoutes(view, demoDashboard));

  app.get(
    '/api/demo/recording/:id',
    {
      schema: {
        summary: 'Stream a demo call’s recording',
        tags: ['public'],
        ...apiDoc({ errors: [410, 416, 502], responses: RECORDING }),
        params: IdParam,
        querystring: RecordingQuery,
      },
    },
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
