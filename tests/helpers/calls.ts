/** Builds normalized provider calls for tests and stores them through the real repository. */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createCallsRepository, type IncomingCall } from '../../src/server/calls/write/calls-repository';
import type { AppDeps } from '../../src/server/context';
import type { ClientRow, Database } from '../../src/server/db/schema';

export function makeCall(overrides: Partial<IncomingCall> = {}): IncomingCall {
  return {
    providerCallId: randomUUID(),
    fromNumber: '+15550001111',
    toNumber: '+15550002222',
    durationSeconds: 60,
    status: 'completed',
    pathwayId: null,
    pathway: 'Sales',
    createdAt: Date.now(),
    recordingUrl: null,
    transcript: null,
    isProxy: false,
    priceUsd: null,
    source: 'webhook',
    ...overrides,
  };
}

export async function storeCalls(deps: AppDeps, client: ClientRow, calls: Partial<IncomingCall>[]) {
  return createCallsRepository(deps.db, deps.now).upsertCalls(client, calls.map(makeCall));
}

/** How many calls a client has stored. */
export async function countCallsOf(db: Kysely<Database>, clientId: string): Promise<number> {
  const { n } = await db
    .selectFrom('calls')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  return Number(n);
}
