/**
 * The demo tenant's outcomes: what an agency would set up for a client whose agent books
 * appointments and qualifies leads, matched on the post-call tags the demo's generator sends
 * (sample-calls.ts), with values so the strip can say what the calls were worth.
 */
import type { Kysely } from 'kysely';
import { DEFAULT_OUTCOMES, type Outcome } from '../../contract/outcomes';
import type { Database } from '../db/schema';

// find may answer undefined; every name asked for below is one of DEFAULT_OUTCOMES'.
const byName = (name: string) => DEFAULT_OUTCOMES.find((o) => o.name === name) as Outcome;

export const DEMO_OUTCOMES: Outcome[] = [
  {
    name: 'Booked appointment',
    color: '#16a34a',
    value: 120,
    needsAttention: false,
    notify: true,
    rules: [{ field: 'disposition_tag', op: 'equals', value: 'APPOINTMENT_BOOKED' }],
  },
  {
    name: 'Qualified lead',
    color: '#0891b2',
    value: 40,
    needsAttention: false,
    notify: false,
    rules: [{ field: 'disposition_tag', op: 'equals', value: 'INTERESTED' }],
  },
  {
    name: 'Call-back requested',
    color: '#ea580c',
    value: null,
    needsAttention: true,
    notify: true,
    rules: [{ field: 'disposition_tag', op: 'equals', value: 'CALLBACK_REQUESTED' }],
  },
  byName('Transferred'),
  byName('Voicemail'),
  byName('No answer'),
  byName('Failed'),
];

/** Gives the demo tenant its outcomes once; later changes (an admin's) are kept. */
export async function ensureDemoOutcomes(db: Kysely<Database>, clientId: string, now: number): Promise<void> {
  await db
    .insertInto('client_outcomes')
    .values({
      client_id: clientId,
      outcomes_json: JSON.stringify(DEMO_OUTCOMES),
      version: 1,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('client_id').doNothing())
    .execute();
}
