/**
 * PostgreSQL: every client's running totals at one day read from an index alone. The
 * portfolio and the at-risk list read all the clients at three days; through the primary key that
 * is a heap page per row (a day's rows lie wherever each client's updates put them), through this
 * index a few contiguous leaf pages. SQLite's rows of a day are few pages away already, and its
 * reads are well inside the target without it.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create index client_call_days_running on client_call_days (day, client_id)
    include (cum_calls, cum_seconds, cum_cost_micros, cum_provider_micros, cum_answered, cum_failed)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop index client_call_days_running`.execute(db);
}
