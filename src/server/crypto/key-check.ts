/**
 * Every instance on one database must encrypt with the same APP_SECRET, or keys stored by one fail
 * to decrypt on another (500s on sync and recordings). The first instance stores a value sealed
 * with its key; every later start must be able to open it, or refuses to start.
 */
import type { Kysely } from 'kysely';
import { ConfigError } from '../config';
import type { Database } from '../db/schema';
import type { SecretBox } from './secrets';

const KEY = 'app_secret_check';
const PLAINTEXT = 'call-analytics key check v1';

export const KEY_MISMATCH =
  'APP_SECRET does not match the one this database was set up with: start every instance with the same APP_SECRET';

export async function verifyAppSecret(db: Kysely<Database>, secrets: SecretBox): Promise<void> {
  // Two instances starting together: one insert wins, both then check the same stored value.
  await db
    .insertInto('app_settings')
    .values({ key: KEY, value: secrets.encrypt(PLAINTEXT) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', KEY)
    .executeTakeFirstOrThrow();
  let opened: string | null = null;
  try {
    opened = secrets.decrypt(row.value);
  } catch {
    opened = null;
  }
  if (opened !== PLAINTEXT) throw new ConfigError(KEY_MISMATCH);
}

/**
 * Whether `secrets` opens the check value a database holds (restore): null when it
 * holds none (a database never started).
 */
export function opensKeyCheck(sealed: string | null, secrets: SecretBox): boolean | null {
  if (sealed === null) return null;
  try {
    return secrets.decrypt(sealed) === PLAINTEXT;
  } catch {
    return false;
  }
}

/** The app_settings key of the check value (restore reads it from a backup's own copy). */
export const KEY_CHECK_SETTING = KEY;
