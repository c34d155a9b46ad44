/**
 * Administration without the web UI:
 *   npm run cli -- admin create <username> [--name "Full Name"] [--password <password>]
 *   npm run cli -- admin reset-password <username> [--password <password>]
 *   npm run cli -- admin activate <username>
 * Without --password a random one is generated and printed once.
 * Operations (`npm run migrate|backup|restore` run these):
 *   migrate [--check]          apply pending migrations, or only say which are pending (exit 1 if any)
 *   backup                     a consistent copy into BACKUP_DIR (operations/backup.ts)
 *   restore <file> [--force] [--allow-unsigned]
 *                              into an empty DATA_DIR or database (operations/restore.ts); a plain
 *                              backup must be signed under APP_SECRET unless --allow-unsigned
 */
import './runtime-check';
import { parseArgs } from 'node:util';
import { generateTemporaryPassword, hashPassword } from './auth/passwords';
import { sealWebhookTokens } from './clients/webhook-token';
import { ConfigError, loadConfig } from './config';
import { verifyAppSecret } from './crypto/key-check';
import { createSecretBox } from './crypto/secrets';
import { openDb } from './db/connect';
import { migrateToLatest, migrationState } from './db/migrate';
import { runBackupCommand } from './operations/backup';
import { runRestoreCommand } from './operations/restore';
import { activateAdmin, createAdmin } from './seed';

const USAGE = `Usage:
  npm run cli -- admin create <username> [--name "Full Name"] [--password <password>]
  npm run cli -- admin reset-password <username> [--password <password>]
  npm run cli -- admin activate <username>
  npm run migrate [-- --check]
  npm run backup
  npm run restore -- <file> [--force] [--allow-unsigned]`;

async function run(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      password: { type: 'string' },
      help: { type: 'boolean' },
      check: { type: 'boolean' },
      force: { type: 'boolean' },
      'allow-unsigned': { type: 'boolean' },
    },
  });
  const [area, action, username] = positionals;
  if (area === 'migrate' && !values.help) return migrate(values.check === true);
  if (area === 'backup' && !values.help)
    return runBackupCommand(loadConfig(process.env, { readOnlyDataDir: true }));
  if (area === 'restore' && !values.help) {
    if (!action) {
      console.error('Name the backup file: npm run restore -- <file> [--force]');
      return 2;
    }
    return runRestoreCommand(loadConfig(process.env, { readOnlyDataDir: true }), action, {
      force: values.force === true,
      allowUnsigned: values['allow-unsigned'] === true,
    });
  }
  if (values.help || area !== 'admin' || !action || !username) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.password !== undefined && values.password.length < 10) {
    console.error('The password must be at least 10 characters.');
    return 2;
  }
  const config = loadConfig();
  const database = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database.db);
    if (action === 'activate') {
      if (!(await activateAdmin(database.db, username))) {
        console.error(`No administrator "${username.toLowerCase()}".`);
        return 1;
      }
      console.log(`Administrator "${username.toLowerCase()}" is active again.`);
      return 0;
    }
    const password = values.password ?? generateTemporaryPassword();
    const passwordHash = await hashPassword(password);
    const name = username.toLowerCase();
    const existing = await database.db
      .selectFrom('admins')
      .select('id')
      .where('username', '=', name)
      .executeTakeFirst();
    if (action === 'create') {
      if (existing) {
        console.error(`Administrator "${name}" already exists; use reset-password.`);
        return 1;
      }
      await createAdmin(database.db, { username: name, name: values.name ?? username, passwordHash });
      console.log(`Created administrator "${name}".`);
    } else if (action === 'reset-password') {
      if (!existing) {
        console.error(`No administrator "${name}".`);
        return 1;
      }
      await database.db
        .updateTable('admins')
        .set({ password_hash: passwordHash })
        .where('id', '=', existing.id)
        .execute();
      // A reset must also end whatever sessions the old password opened.
      await database.db
        .deleteFrom('sessions')
        .where('kind', '=', 'admin')
        .where('subject_id', '=', existing.id)
        .execute();
      console.log(`Password of "${name}" reset; its sessions were ended.`);
      const { is_active } = await database.db
        .selectFrom('admins')
        .select('is_active')
        .where('id', '=', existing.id)
        .executeTakeFirstOrThrow();
      if (is_active !== 1) console.log(`"${name}" is deactivated: npm run cli -- admin activate ${name}`);
    } else {
      console.log(USAGE);
      return 2;
    }
    if (!values.password) console.log(`Password: ${password}`);
    return 0;
  } finally {
    await database.close();
  }
}

/** Applies what is pending, or (--check) only says what is, and exits 1 when anything is. */
async function migrate(checkOnly: boolean): Promise<number> {
  const config = loadConfig(process.env, { readOnlyDataDir: checkOnly });
  const database = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const before = await migrationState(database.db);
    if (before.unknown.length > 0) {
      console.error(
        `The database has migrations this version does not know (${before.unknown.join(', ')}): it was upgraded by a newer version; run that version.`,
      );
      return 1;
    }
    if (checkOnly) {
      if (before.pending.length === 0) {
        console.log(`Up to date: ${before.applied} migrations applied, none pending.`);
        return 0;
      }
      console.log(`${before.pending.length} pending (not applied): ${before.pending.join(', ')}`);
      return 1;
    }
    const applied = await migrateToLatest(database.db);
    // As the server does at its start: tokens a migration took out of the clear are sealed now,
    // so a backup taken before the next start holds none.
    const secrets = createSecretBox(config.appSecret);
    await verifyAppSecret(database.db, secrets);
    await sealWebhookTokens(database.db, secrets);
    console.log(
      applied.length === 0
        ? 'Up to date: no migration was pending.'
        : `Applied ${applied.length}: ${applied.join(', ')}`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    // Everything this runs throws an Error; anything else would print its message as undefined.
    console.error(error instanceof ConfigError ? error.message : `Failed: ${(error as Error).message}`);
    process.exit(1);
  });
