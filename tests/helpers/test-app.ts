/**
 * Builds the production app for one test file on its own fresh database: a temporary SQLite
 * file, or (TEST_DB=postgres) a database of its own on the PostgreSQL server, dropped afterwards.
 * Both are copies of the run's migrated template (db-template.ts), so the app's migrations find
 * nothing to do; `createTestDb(dir, { empty: true })` gives an unmigrated one.
 * Every answer the app gives is held to its own API description (api-description-check.ts):
 * close() fails with the answers the description does not list or whose bodies differ.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { type BuildAppOptions, buildApp } from '../../src/server/app';
import { createDeps } from '../../src/server/bootstrap';
import { type Config, loadConfig } from '../../src/server/config';
import type { AppDeps } from '../../src/server/context';
import { type Db, openDb } from '../../src/server/db/connect';
import type { VoiceProviders } from '../../src/server/providers/voice/registry';
import type { VoiceProvider } from '../../src/server/providers/voice/types';
import {
  checkAnswersAgainstDescription,
  descriptionCheckEnabled,
  expectNoUndescribedAnswers,
} from './api-description-check';
import { preparePostgresTemplate, prepareSqliteTemplate } from './db-template';
import { createScratchDatabase } from './scratch-database';
import { SQLITE_TEMPLATE_FOLDER, TEST_DATABASE_URL, TEST_DB } from './test-db-settings';

export { TEST_DATABASE_URL, TEST_DB };

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  config: Config;
  /** Another connection pool to the same database: what a second instance would have. */
  reopenDb(): Db;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  voice?: VoiceProvider;
  voices?: Partial<VoiceProviders>;
  now?: () => number;
  webDir?: string;
  logger?: BuildAppOptions['logger'];
  /** Hold every answer to /api/openapi.json (default: on, unless API_DESCRIPTION_CHECK=off). */
  checkDescription?: boolean;
}

export interface TestDb {
  db: Db;
  /** Another connection (pool) to the same database: what a second app instance would have. */
  reopen(): Db;
  drop(): Promise<void>;
}

let template: Promise<string> | undefined;

/** The globalSetup's template; built here (once per worker) when a file runs without it. */
function migratedTemplate(): Promise<string> {
  template ??= inject('testDbTemplate')
    ? Promise.resolve(inject('testDbTemplate'))
    : TEST_DB === 'postgres'
      ? preparePostgresTemplate(TEST_DATABASE_URL)
      : prepareSqliteTemplate(SQLITE_TEMPLATE_FOLDER);
  return template;
}

/** A database of its own, migrated (a copy of the template) unless `empty` asks for none applied. */
export async function createTestDb(
  dataDir: string,
  { empty = false }: { empty?: boolean } = {},
): Promise<TestDb> {
  const from = empty ? undefined : await migratedTemplate();
  if (TEST_DB === 'sqlite') {
    if (from) {
      mkdirSync(dataDir, { recursive: true });
      copyFileSync(from, path.join(dataDir, 'test.sqlite'));
    }
    const open = () => openDb({ databaseUrl: null, dataDir, sqliteFile: 'test.sqlite' });
    return { db: open(), reopen: open, drop: async () => {} };
  }
  const scratch = await createScratchDatabase(TEST_DATABASE_URL, undefined, { template: from });
  const open = () => openDb({ databaseUrl: scratch.url, dataDir, poolSize: 5 });
  return { db: open(), reopen: open, drop: scratch.drop };
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_SECRET: 'test-secret-0123456789abcdef',
    PUBLIC_URL: 'http://localhost:5000',
    BLAND_API_URL: 'http://127.0.0.1:9',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const { db, drop, reopen } = await createTestDb(dataDir);
  const { deps, close } = await createDeps(config, {
    db,
    voice: options.voice,
    voices: options.voices,
    now: options.now,
  });
  const app = await buildApp(deps, { webDir: options.webDir, logger: options.logger });
  const description =
    (options.checkDescription ?? descriptionCheckEnabled) ? checkAnswersAgainstDescription(app) : null;
  await app.ready();
  return {
    app,
    deps,
    config,
    reopenDb: reopen,
    async close() {
      await app.close();
      await close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
      if (description) expectNoUndescribedAnswers(description);
    },
  };
}
