/**
 * "Needs attention": the open list with its count (the header's badge), and marking a
 * call handled (who and when, kept). Read and written for the client, the admin's view of a
 * client and (the list only) the demo by calls/read/calls-view-routes.ts. The mark is written by
 * the calls store (calls/write/outcome-writes.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { attentionReasonsOf, toCall } from '../calls/read/call-queries';
import { writeHandledMark } from '../calls/write/outcome-writes';

function openAttention(db: Kysely<Database>, clientId: string) {
  return db
    .selectFrom('calls')
    .where('client_id', '=', clientId)
    .where('attention_reasons', 'is not', null)
    .where('handled_at', 'is', null)
    .where('is_proxy', '=', 0)
    .where('verified', '=', 1);
}

export async function attentionList(db: Kysely<Database>, clientId: string, limit: number) {
  const [count, rows] = await Promise.all([
    openAttention(db, clientId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    openAttention(db, clientId)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
  ]);
  return {
    total: Number(count.n),
    calls: rows.map((row) => ({ ...toCall(row), attentionReasons: attentionReasonsOf(row) })),
  };
}

/** Marks a call handled; the first mark is kept. Null when the client has no such call. */
export async function markHandled(
  db: Kysely<Database>,
  clientId: string,
  callId: string,
  by: string,
  at: number,
) {
  await writeHandledMark(db, clientId, callId, by, at);
  const row = await db
    .selectFrom('calls')
    .select(['handled_at', 'handled_by', 'verified', 'is_proxy'])
    .where('id', '=', callId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (row?.verified !== 1 || row.is_proxy !== 0 || row.handled_at === null) return null;
  return {
    success: true as const,
    handledAt: new Date(Number(row.handled_at)).toISOString(),
    handledBy: row.handled_by ?? by,
  };
}
