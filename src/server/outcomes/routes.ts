/**
 * Outcomes: the client's list (GET/PUT) and a preview of an unsaved list, each written once and
 * mounted for the client and for an admin naming the client (clients/client-scope.ts) under
 * /api/admin/client-outcomes/{clientId}. Saving starts re-classifying the client's calls in the
 * background; GET shows how far it got. The summary of a window and its points over time are calls
 * views' reads (outcome-reads.ts, mounted by calls/read/calls-view-routes.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  fillOutcomes,
  OutcomePreview,
  OutcomesBody,
  OutcomesState,
  OutcomesUpdateBody,
} from '../../contract/outcomes';
import { clientScopes } from '../auth/client-scope';
import type { ZodTypeProvider } from '../http/route-schemas';
import { classificationGuardOf } from './classification-guard';
import { outcomeSetOf, saveOutcomes } from './outcomes-repository';
import { limitPreviews, previewOutcomes } from './preview';
import { reclassificationOf } from './reclassify';

export default async function outcomeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const guard = classificationGuardOf(app.deps, app.log);

  const stateOf = async (clientId: string) => {
    await guard.ensure(clientId);
    const [{ outcomes }, reclassification] = await Promise.all([
      outcomeSetOf(db, clientId),
      reclassificationOf(db, clientId, now()),
    ]);
    return { outcomes, reclassification };
  };
  // Bodies are patches: a list left out stays, and an outcome's settings left out keep
  // those of the stored outcome of its name.
  const filled = async (clientId: string, sent: z.output<typeof OutcomesBody>['outcomes']) =>
    fillOutcomes(sent, (await outcomeSetOf(db, clientId)).outcomes);
  const save = async (clientId: string, body: z.output<typeof OutcomesUpdateBody>) => {
    if (body.outcomes === undefined) return stateOf(clientId);
    await saveOutcomes(db, clientId, await filled(clientId, body.outcomes), now());
    await guard.restart(clientId);
    return stateOf(clientId);
  };
  const preview = async (clientId: string, body: z.output<typeof OutcomesBody>, reply: FastifyReply) => {
    await limitPreviews(app.deps, reply, clientId);
    return previewOutcomes(db, clientId, await filled(clientId, body.outcomes), now());
  };
  for (const scope of clientScopes(app.deps)) {
    const params = scope.params ? { params: scope.params } : {};
    app.get(
      scope.path({ client: '/api/client/outcomes', admin: '/api/admin/client-outcomes/:clientId' }),
      {
        config: { permission: 'calls.read' },
        schema: {
          ...scope.doc({
            client: { summary: 'The account’s outcome rules' },
            admin: { summary: 'A client’s outcome rules' },
          }),
          ...params,
          response: { 200: OutcomesState },
        },
      },
      async (request) => stateOf((await scope.clientOf(request)).id),
    );
    app.put(
      scope.path({ client: '/api/client/outcomes', admin: '/api/admin/client-outcomes/:clientId' }),
      {
        config: { permission: 'outcomes' },
        schema: {
          ...scope.doc({
            client: { summary: 'Save the outcome rules' },
            admin: { summary: 'Save a client’s outcome rules' },
          }),
          ...params,
          body: OutcomesUpdateBody,
          response: { 200: OutcomesState },
        },
      },
      async (request) => {
        const asker = scope.askerOf(request);
        const client = await scope.clientOf(request);
        const state = await save(client.id, request.body);
        await scope.record(asker, client, {
          client: { action: 'settings_change', detail: { what: 'outcomes' } },
          admin: { action: 'client.outcomes', detail: { outcomes: state.outcomes.length } },
        });
        return state;
      },
    );
    app.post(
      scope.path({
        client: '/api/client/outcomes/preview',
        admin: '/api/admin/client-outcomes/:clientId/preview',
      }),
      {
        config: { permission: 'outcomes' },
        schema: {
          ...scope.doc(
            {
              client: { summary: 'Preview outcome rules against recent calls' },
              admin: { summary: 'Preview a client’s outcome rules' },
            },
            { errors: [429] },
          ),
          ...params,
          body: OutcomesBody,
          response: { 200: OutcomePreview },
        },
      },
      async (request, reply) => preview((await scope.clientOf(request)).id, request.body, reply),
    );
  }
}
