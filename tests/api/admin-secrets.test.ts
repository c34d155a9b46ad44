/**
 * The voice provider API key never leaves the server: not in any admin answer, not in any log
 * line (the logger's output is captured at trace level while the key is set, read, used and
 * rejected).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { buildApp } from '../../src/server/app';
import { createDeps } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/config';
import type { AppDeps } from '../../src/server/context';
import { checkAnswersAgainstDescription, expectNoUndescribedAnswers } from '../helpers/api-description-check';
import { createAdminUser, createClient, loginAdmin } from '../helpers/factories';
import { createTestDb, TEST_DB } from '../helpers/test-app';

const SECRET_KEY = 'sk-live-0f9e8d7c6b5a4938271605f4e3d2c1b0';
const REJECTED_KEY = 'sk-revoked-a1b2c3d4e5f60718293a4b5c6d7e8f90';

describe(`the API key stays secret (${TEST_DB})`, () => {
  let sim: VoiceSim;
  let app: FastifyInstance;
  let deps: AppDeps;
  let cleanup: () => Promise<void>;
  const logLines: string[] = [];
  const bodies: string[] = [];
  let admin: string;

  beforeAll(async () => {
    sim = await startVoiceSim();
    sim.addCalls(SECRET_KEY, { count: 3, spreadDays: 2 });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-secret-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      APP_SECRET: 'test-secret-0123456789abcdef',
      PUBLIC_URL: 'http://localhost:5000',
      BLAND_API_URL: sim.url,
    });
    const { db, drop } = await createTestDb(dataDir);
    const created = await createDeps(config, { db });
    deps = created.deps;
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    app = await buildApp(deps, { logger: { level: 'trace', stream } });
    const described = checkAnswersAgainstDescription(app);
    await app.ready();
    cleanup = async () => {
      await app.close();
      expectNoUndescribedAnswers(described);
      await created.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
      await sim.close();
    };
    const a = await createAdminUser(deps);
    admin = await loginAdmin(app, a.username, a.password);
  });
  afterAll(async () => {
    await cleanup();
  });

  async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
    const res = await app.inject({ method, url, payload, headers: { cookie: admin } });
    bodies.push(res.body);
    return res;
  }

  it('is stored, checked, used for sync and shown only masked', async () => {
    const client = await createClient(deps, { email: 'secret@example.com' });
    const config = (await call('GET', `/api/admin/client-config/${client.id}`)).json();
    const {
      id,
      webhookUrl,
      apiKeyStatus,
      profileImageUrl,
      onboardingStatus,
      hasLoginCredentials,
      createdAt,
      lastSyncAt,
      ...rest
    } = config;
    const body = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v === null ? '' : v]));

    const saved = await call('PUT', `/api/admin/client-config/${client.id}`, {
      ...body,
      blandApiKey: SECRET_KEY,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      apiKeyCheck: 'valid',
      client: { blandApiKey: 'sk-…c1b0', apiKeyStatus: 'valid' },
    });

    await call('GET', `/api/admin/client-config/${client.id}`);
    await call('GET', '/api/admin/clients');
    await call('GET', `/api/admin/client-data/${client.id}`);
    const synced = await call('POST', '/api/admin/sync-all-clients');
    expect(synced.json()).toMatchObject({ synced: 1, created: 3 });
    await call('GET', `/api/admin/client-calls/${client.id}`);
    const rejected = await call('PUT', `/api/admin/client-config/${client.id}`, {
      ...body,
      blandApiKey: REJECTED_KEY,
    });
    expect(rejected.json()).toMatchObject({ apiKeyCheck: 'invalid', client: { blandApiKey: 'sk-…8f90' } });
    await call('POST', '/api/admin/sync-all-clients');
    await call('PUT', `/api/admin/client-config/${client.id}`, { ...body, blandApiKey: 'x'.repeat(501) });
    await call('DELETE', `/api/admin/clients/${client.id}`);

    const audit = await deps.db.selectFrom('audit_log').select('detail').execute();
    for (const secret of [SECRET_KEY, REJECTED_KEY]) {
      for (const b of bodies) expect(b).not.toContain(secret);
      for (const line of logLines) expect(line).not.toContain(secret);
      for (const row of audit) expect(row.detail ?? '').not.toContain(secret);
    }
    // The logger really was listening.
    expect(logLines.some((l) => l.includes('/api/admin/client-config/'))).toBe(true);
  });
});
