/**
 * "Needs attention": the open list with its count (the header's badge), and marking a
 * call handled (who and when, kept). Read and written for the client, the admin's view of a
 * client and (the list only) the demo by calls/read/calls-view-routes.ts. The mark is written by
 * the calls store (calls/write/outcome-writes.ts).
 */
import type { Kysely } from 'kysely';
import { attentionReasonsOf, toCall } from '../call-rows/call';
import type { Database } from '../db/schema';

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
