/**
 * The API project's globalSetup: builds (or finds) the one migrated database this run's test
 * files start from, before any worker starts, and hands its location to them (`inject`).
 */
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { preparePostgresTemplate, prepareSqliteTemplate } from './db-template';
import { SQLITE_TEMPLATE_FOLDER, TEST_DATABASE_URL, TEST_DB } from './test-db-settings';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The SQLite file to copy, or the PostgreSQL database to create from, per TEST_DB. */
    testDbTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const started = Date.now();
  const template =
    TEST_DB === 'postgres'
      ? await preparePostgresTemplate(TEST_DATABASE_URL)
      : await prepareSqliteTemplate(SQLITE_TEMPLATE_FOLDER);
  project.provide('testDbTemplate', template);
  const where = TEST_DB === 'postgres' ? `database ${template}` : path.relative(process.cwd(), template);
  console.log(`API tests start from the migrated ${where} (${Date.now() - started} ms)`);
}
