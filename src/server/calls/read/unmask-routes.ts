/**
 * "Show number": POST /api/client/calls/{id}/unmask answers one call's numbers in full
 * to a user holding `unmask_numbers`, when the client's privacy setting masks them for everyone
 * (teams/privacy-routes.ts). Each is a line of the client's activity log naming the call and the
 * masked form shown before, in the transaction of nothing else: reading is the event.
 */
import type { FastifyInstance } from 'fastify';
import { IdParam } from '../../../contract/common';
import { maskPhoneNumber } from '../../../contract/phone-mask';
import { UnmaskedNumbers } from '../../../contract/privacy';
import { recordActivity } from '../../activity/record';
import { requireClient, requireClientUser } from '../../auth/guards';
import { toCallDetail } from '../../call-rows/call';
import { notFound } from '../../http/errors';
import type { ZodTypeProvider } from '../../http/route-schemas';
import { createCallsRepository } from '../write/calls-repository';

export default async function unmaskRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const calls = createCallsRepository(db);

  app.post(
    '/api/client/calls/:id/unmask',
    {
      config: { permission: 'unmask_numbers' },
      schema: {
        summary: 'Show one call’s numbers in full (recorded in the activity log)',
        tags: ['client'],
        params: IdParam,
        response: { 200: UnmaskedNumbers },
      },
    },
    async (request) => {
      const client = requireClient(request);
      // Another client's call, or one the log does not list, is answered like a missing one.
      const call = toCallDetail(await calls.findCall(client.id, request.params.id));
      if (!call) throw notFound('Call not found');
      await recordActivity(
        db,
        {
          clientId: client.id,
          userId: requireClientUser(request).id,
          action: 'unmask',
          detail: { callId: call.id, number: maskPhoneNumber(call.fromNumber) },
        },
        now(),
      );
      return { id: call.id, fromNumber: call.fromNumber, toNumber: call.toNumber };
    },
  );
}
