/**
 * Two-factor sign-in, for client users and admins alike:
 * - `client_users` and `admins`: the TOTP secret (sealed with the app's secret box, never plain),
 *   the secret being set up (sealed too, until a code confirms it), when it was turned on, and the
 *   last time step a code was accepted at (a code of that step or an earlier one is a replay).
 * - `clients.require_two_factor`: an Owner requires it of every user of the client. The agency's
 *   rule for every admin is a row of `app_settings`, where agency-wide settings live.
 * - `two_factor_recovery_codes`: ten single-use codes per person, only their sha256, keyed by the
 *   subject's kind (client_user | admin) and id.
 * - `two_factor_challenges`: a sign-in whose password was right and whose code is awaited, for five
 *   minutes; the browser holds a random token, only its sha256 is kept.
 */
import type { Kysely } from 'kysely';

const PERSON_TABLES = ['client_users', 'admins'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of PERSON_TABLES) {
    await db.schema.alterTable(table).addColumn('two_factor_secret_enc', 'text').execute();
    await db.schema.alterTable(table).addColumn('two_factor_pending_enc', 'text').execute();
    await db.schema.alterTable(table).addColumn('two_factor_enabled_at', 'bigint').execute();
    await db.schema.alterTable(table).addColumn('two_factor_last_step', 'bigint').execute();
  }
  await db.schema
    .alterTable('clients')
    .addColumn('require_two_factor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('two_factor_recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject_kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('two_factor_recovery_codes_subject')
    .on('two_factor_recovery_codes')
    .columns(['subject_kind', 'subject_id'])
    .execute();

  await db.schema
    .createTable('two_factor_challenges')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('two_factor_challenges').execute();
  await db.schema.dropTable('two_factor_recovery_codes').execute();
  await db.schema.alterTable('clients').dropColumn('require_two_factor').execute();
  for (const table of PERSON_TABLES) {
    for (const column of [
      'two_factor_secret_enc',
      'two_factor_pending_enc',
      'two_factor_enabled_at',
      'two_factor_last_step',
    ])
      await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
