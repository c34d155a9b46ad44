/** Recognises a unique-constraint failure on either dialect, so a lost race answers 409, not 500. */
export function isUniqueViolation(error: unknown): boolean {
  // Any thrown value; only an optional `code` is read from it
  const code = (error as { code?: unknown } | null)?.code;
  // better-sqlite3: SQLITE_CONSTRAINT_UNIQUE (or _PRIMARYKEY); pg: SQLSTATE 23505.
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * A failure the database asks to be retried: PostgreSQL broke a deadlock (40P01) or a
 * serialization conflict (40001) by rolling this transaction back; SQLite stayed busy past its
 * timeout. The whole transaction is gone, so running it again is safe.
 */
export function isTransientDbError(error: unknown): boolean {
  // Any thrown value; only an optional `code` is read from it
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001' || isSqliteBusy(error);
}

/** SQLite stayed busy past its timeout: another connection held the write lock. */
export function isSqliteBusy(error: unknown): boolean {
  // Any thrown value; only an optional `code` is read from it
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
