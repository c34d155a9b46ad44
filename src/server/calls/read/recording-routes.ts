/**
 * Recordings are streamed from the provider (never buffered), with Range passed through so the
 * audio element can seek. Only the server holds the API key, so the browser always comes here.
 */
import type { ZodTypeProvider } from '../../http/route-schemas';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ClientCallParams } from '../../../contract/calls';
import { IdParam } from '../../../contract/common';
import { currentAdmin, currentClient, requireClient } from '../../auth/guards';
import type { AppDeps } from '../../context';
import type { CallRow } from '../../db/schema';
import { notFound, unauthorized } from '../../http/errors';
import { createCallsRepository } from '../write/calls-repository';
import { findClient } from '../../clients/clients-repository';
import { voiceOf } from '../../providers/voice/registry';

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
  options: { download: boolean; cacheControl?: string },
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
  reply.code(audio.status).headers(audio.headers);
  reply.header('cache-control', options.cacheControl ?? 'private, max-age=3600');
  if (options.download)
    reply.header('content-disposition', `attachment; filename="recording-${call.id}.mp3"`);
  return reply.send(audio.body);
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
  ) => sendRecording(app.deps, request, reply, call, { download });

  app.get(
    '/api/client/recording/:id',
    { config: { permission: 'calls.read' }, schema: { params: CallParam } },
    async (request, reply) => {
      const client = requireClient(request);
      const { id } = request.params;
      return stream(request, reply, await calls.findCall(client.id, id), false);
    },
  );

  // The download path serves the logged-in client, or an admin for any client's call.
  app.get('/api/recording/:id', { schema: { params: CallParam } }, async (request, reply) => {
    const { id } = request.params;
    const client = await currentClient(app, request);
    if (client) return stream(request, reply, await calls.findCall(client.id, id), true);
    if (await currentAdmin(app, request)) {
      return stream(
        request,
        reply,
        await db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst(),
        true,
      );
    }
    throw unauthorized();
  });

  app.get(
    '/api/admin/client-recording/:clientId/:id',
    { schema: { params: AdminParams } },
    async (request, reply) => {
      const { clientId, id } = request.params;
      return stream(request, reply, await calls.findCall(clientId, id), false);
    },
  );
}
