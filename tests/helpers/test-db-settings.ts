/** Which database the API tests run on and where their migrated template lives. */
import { fileURLToPath } from 'node:url';

export const TEST_DB: 'sqlite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Ignored by git; the file is named by the migrations' hash, so a stale one is never picked up. */
export const SQLITE_TEMPLATE_FOLDER = fileURLToPath(
  new URL('../../.test-output/db-templates', import.meta.url),
);
