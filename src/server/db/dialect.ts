import { type Kysely, PostgresAdapter } from 'kysely';

/** Whether `db` (or a transaction of it) speaks to PostgreSQL rather than SQLite. */
export function isPostgres<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
