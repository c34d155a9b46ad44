/**
 * Sample data a client can add to try the dashboard before its first real call (the rules,
 * enforced here): POST /api/demo/seed adds one set of sample calls, only while the account has no
 * real calls and no sample set yet (under the client's lock, so concurrent presses add one set), and
 * at most CAP_SAMPLE_SETS_PER_DAY times a day; the calls are free (no usage, cost or revenue) and
 * marked as samples; DELETE /api/client/sample-calls removes them all.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { RemovedSamples, SampleDataState, SeedResult } from '../../contract/calls';
import { requireClient } from '../auth/guards';
import { createCallsRepository } from '../calls/write/calls-repository';
import { lockClient } from '../clients/clients-repository';
import type { Database } from '../db/schema';
import { enforceCreationCap } from '../http/creation-caps';
import { conflict } from '../http/errors';
import { apiDoc, CLIENT_SESSION } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { clientSampleCalls } from './sample-calls';

export const SEED_CALL_COUNT = 25;
const DAY_MS = 24 * 60 * 60 * 1000;

export const SAMPLE_MESSAGES = {
  hasRealCalls:
    'Sample data is for trying the dashboard before your first real call; your account already has calls.',
  alreadySeeded: 'Sample data is already on your dashboard. Remove it before adding it again.',
} as const;

export default async function sampleDataRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const calls = createCallsRepository(db);

  const countCalls = async (trx: Kysely<Database>, clientId: string, sample: boolean) => {
    const row = await trx
      .selectFrom('calls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('client_id', '=', clientId)
      .where('source', sample ? '=' : '!=', 'sample')
      // An unconfirmed webhook call (possibly forged) is not a first real call.
      .where('verified', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  /** The rule: sample data only before the first real call, and one set at a time. */
  const refuseUnlessSeedable = async (trx: Kysely<Database>, clientId: string) => {
    if ((await countCalls(trx, clientId, false)) > 0) throw conflict(SAMPLE_MESSAGES.hasRealCalls);
    if ((await countCalls(trx, clientId, true)) > 0) throw conflict(SAMPLE_MESSAGES.alreadySeeded);
  };

  app.post(
    '/api/demo/seed',
    {
      config: { access: 'client', permission: 'calls.manage' },
      schema: {
        summary: 'Add sample calls to the signed-in client’s account',
        tags: ['public'],
        security: CLIENT_SESSION,
        ...apiDoc({ errors: [401, 409, 429] }),
        response: { 200: SeedResult },
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      // Checked first so a refused click costs nothing from the day's budget...
      await refuseUnlessSeedable(db, client.id);
      await enforceCreationCap(app.deps, reply, {
        key: `seed:${client.id}`,
        max: app.deps.config.creationCaps.sampleSetsPerDay,
        windowMs: DAY_MS,
        what: 'sample data sets',
      });
      // ...and again under the client's lock: concurrent clicks (or instances) add one set, not several.
      const created = await db.transaction().execute(async (trx) => {
        await lockClient(trx, client.id);
        await refuseUnlessSeedable(trx, client.id);
        const sample = clientSampleCalls(now(), SEED_CALL_COUNT, randomUUID());
        // Free: at a rate of 0 they never reach usage, cost or the agency's revenue.
        const result = await createCallsRepository(trx).upsertCalls(
          { ...client, per_minute_rate_cents: 0 },
          sample,
        );
        return result.created;
      });
      return { success: true, inserted: created };
    },
  );

  app.get(
    '/api/client/sample-calls',
    {
      config: { permission: 'calls.read' },
      schema: {
        summary: 'Whether the account has sample calls',
        tags: ['client'],
        response: { 200: SampleDataState },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const [sampleCalls, realCalls] = await Promise.all([
        countCalls(db, client.id, true),
        countCalls(db, client.id, false),
      ]);
      return { sampleCalls, hasRealCalls: realCalls > 0 };
    },
  );

  app.delete(
    '/api/client/sample-calls',
    {
      config: { permission: 'calls.manage' },
      schema: { summary: 'Remove the sample calls', tags: ['client'], response: { 200: RemovedSamples } },
    },
    async (request) => {
      const client = requireClient(request);
      const deleted = await calls.deleteCalls(client.id, { sources: ['sample'] });
      return { success: true as const, deleted };
    },
  );
}
