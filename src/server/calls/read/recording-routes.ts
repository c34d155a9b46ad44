/**
 * Recordings are streamed from the provider (never buffered), with Range passed through so the
 * audio element can seek. Only the server holds the API key, so the browser always comes here.
 *
 * A client user's play and download are lines of the client's activity log. The audio
 * element asks for a recording in many Range requests as it plays and seeks, so a play is the
 * request that starts at the beginning: no Range, or a Range from byte 0. Seeking and the rest of
 * the file add no line; playing again from the start adds one. Admins' and the demo's add none.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ClientCallParams } from '../../../contract/calls';
import { IdParam } from '../../../contract/common';
import type { SessionUserRow } from '../../access/permissions';
import { recordActivity } from '../../activity/record';
import { requireAdmin, requireClient, requireClientUser } from '../../auth/guards';
import { findClient } from '../../clients/clients-repository';
import type { AppDeps } from '../../context';
import type { CallRow, ClientRow } from '../../db/schema';
import { notFound } from '../../http/errors';
import { apiDoc, RECORDING } from '../../http/route-docs';
import type { ZodTypeProvider } from '../../http/route-schemas';
import { voiceOf } from '../../providers/voice/registry';
import { createCallsRepository } from '../write/calls-repository';

const CallParam = IdParam;
const AdminParams = ClientCallParams;
const NO_RECORDING = 'No recording for this call';

/**
 * Streams a stored call's recording from the provider with its owner's key; Range passes through.
 * Shared by the client, admin and demo routes.
 */
export async function sendRecording(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  call: CallRow | undefined,
  options: {
    download: boolean;
    cacheControl?: string;
    /** Runs once the provider has answered, before the audio is sent (the activity line). */
    started?: (call: CallRow) => Promise<void>;
  },
) {
  if (!call?.recording_url) throw notFound(call ? NO_RECORDING : 'Call not found');
  const owner = await findClient(deps.db, call.client_id);
  if (!owner?.bland_api_key_enc) throw notFound(NO_RECORDING);
  const range = typeof request.headers.range === 'string' ? request.headers.range.slice(0, 100) : undefined;
  // Provider failures (expired: 410, unknown: 404, others: 502) are answered by app.ts's handler.
  const audio = await voiceOf(deps.voices, owner).streamRecording(
    deps.secrets.decrypt(owner.bland_api_key_enc),
    call.provider_call_id,
    range,
  );
  await options.started?.(call);
  reply.code(audio.status).headers(audio.headers);
  reply.header('cache-control', options.cacheControl ?? 'private, max-age=3600');
  // Only audio reaches here (the adapters refuse anything else); the browser must not guess
  // otherwise, and a navigation to it saves a file rather than rendering on our origin.
  reply.header('x-content-type-options', 'nosniff');
  const name = `recording-${call.id.replace(/[^\w-]/g, '')}.${extensionOf(audio.headers['content-type'])}`;
  reply.header('content-disposition', `${options.download ? 'attachment' : 'inline'}; filename="${name}"`);
  return reply.send(audio.body);
}

function extensionOf(type: string | undefined): string {
  const subtype = /^audio\/([\w.+-]+)/i.exec(type ?? '')?.[1]?.toLowerCase();
  if (subtype === 'wav' || subtype === 'x-wav' || subtype === 'wave') return 'wav';
  if (subtype === 'ogg' || subtype === 'webm') return subtype;
  return 'mp3';
}

/** Whether a request for a recording starts it: no Range, or one from the first byte. */
export function startsPlaying(range: string | undefined): boolean {
  return range === undefined || /^bytes=0-/i.test(range.trim());
}

export default async function recordingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;
  const calls = createCallsRepository(db);
  const stream = (
    request: FastifyRequest,
    reply: FastifyReply,
    call: CallRow | undefined,
    download: boolean,
    started?: (call: CallRow) => Promise<void>,
  ) => sendRecording(app.deps, request, reply, call, { download, started });

  /** Streams a client user's recording, then records the play or download when it starts one. */
  async function streamForUser(
    request: FastifyRequest,
    reply: FastifyReply,
    client: ClientRow,
    user: SessionUserRow,
    callId: string,
    download: boolean,
  ) {
    const call = await calls.findCall(client.id, callId);
    const record = async (played: CallRow) => {
      if (!startsPlaying(request.headers.range)) return;
      await recordActivity(
        db,
        {
          clientId: client.id,
          userId: user.id,
          action: download ? 'recording_download' : 'recording_play',
          detail: { callId: played.id },
        },
        app.deps.now(),
      );
    };
    return stream(request, reply, call, download, record);
  }

  app.get(
    '/api/client/recording/:id',
    {
      config: { permission: 'calls.read' },
      schema: {
        summary: 'Stream a call’s recording',
        tags: ['client'],
        ...apiDoc({ errors: [410, 502], responses: RECORDING }),
        params: CallParam,
      },
    },
    async (request, reply) =>
      streamForUser(
        request,
        reply,
        requireClient(request),
        requireClientUser(request),
        request.params.id,
        false,
      ),
  );

  // The download path serves the logged-in client's user, or an admin for any client's call; the
  // guard admits either (permission and two-factor requirement included).
  app.get(
    '/api/recording/:id',
    {
      config: { access: 'client_or_admin', permission: 'calls.read' },
      schema: {
        summary: 'Download a call’s recording (the client’s own, or any for an admin)',
        tags: ['public'],
        ...apiDoc({ errors: [410, 502], responses: RECORDING }),
        params: CallParam,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (request.client)
        return streamForUser(request, reply, request.client, requireClientUser(request), id, true);
      requireAdmin(request);
      return stream(
        request,
        reply,
        await db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst(),
        true,
      );
    },
  );

  app.get(
    '/api/admin/client-recording/:clientId/:id',
    {
      schema: {
        summary: 'Stream one of a client’s recordings',
        tags: ['admin'],
        ...apiDoc({ errors: [410, 502], responses: RECORDING }),
        params: AdminParams,
      },
    },
    async (request, reply) => {
      const { clientId, id } = request.params;
      return stream(request, reply, await calls.findCall(clientId, id), false);
    },
  );
}
