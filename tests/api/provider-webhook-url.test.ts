/**
 * The provider webhook URL is a credential: only people whose role includes `keys` receive it (the
 * login, the invitation's acceptance, the session); junk posted to it never spends the budget of
 * the provider's real deliveries; the Owner (and the agency) can replace it, the old one dead at
 * once, each rotation a line in the activity log (and the audit log for the agency); its token is
 * stored only hashed and sealed, and a database from before is migrated.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Kysely, type Migration, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSim, startSmtpSim } from '../../sim/smtp';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { sealWebhookTokens, webhookTokenHash } from '../../src/server/clients/webhook-token';
import { createSecretBox } from '../../src/server/crypto/secrets';
import { KNOWN_MIGRATIONS } from '../../src/server/db/migrate';
import { createNotifications } from '../../src/server/notifications';
import { createBlandProvider } from '../../src/server/providers/voice/bland';
import { blandCallBody, deliverWebhook } from '../helpers/bland';
import {
  cookieHeader,
  createAdminUser,
  createClient,
  createSignedInClient,
  loginAdmin,
} from '../helpers/factories';
import { createTestApp, createTestDb, TEST_DB, type TestApp } from '../helpers/test-app';

const SECRET = 'bland-signing-secret-0123';
const sign = (raw: string) => createHmac('sha256', SECRET).update(raw).digest('hex');
const PASSWORD = 'a long enough password';
const LIMIT = 5;

describe(`provider webhook URL (${TEST_DB})`, () => {
  let t: TestApp;
  let smtp: SmtpSim;
  let sim: VoiceSim;

  beforeAll(async () => {
    smtp = await startSmtpSim();
    sim = await startVoiceSim();
    t = await createTestApp({
      env: { SMTP_URL: smtp.smtpUrl, BLAND_API_URL: sim.url, WEBHOOK_DELIVERIES_PER_MINUTE: String(LIMIT) },
      voice: createBlandProvider({ baseUrl: sim.url, timeoutMs: 1_000, retryBaseMs: 10, maxRetries: 1 }),
    });
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
    await smtp.close();
  });

  const send = (method: 'GET' | 'POST' | 'PUT', url: string, cookie?: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });
  const urlOf = (token: string) => `http://localhost:5000/api/webhooks/voice/${token}`;
  const activityOf = async (clientId: string) =>
    (
      await t.deps.db
        .selectFrom('client_activity')
        .select(['action', 'user_id', 'detail'])
        .where('client_id', '=', clientId)
        .execute()
    ).map((r) => ({ ...r, detail: JSON.parse(r.detail ?? '{}') }));

  /** Invites `email` with `role` as the Owner and accepts: the acceptance's answer. */
  async function join(ownerCookie: string, email: string, role: 'manager' | 'viewer') {
    expect((await send('POST', '/api/client/users', ownerCookie, { email, role })).statusCode).toBe(201);
    await createNotifications(t.deps, () => {}).worker.runOnce();
    const mail = [...smtp.messages].reverse().find((m) => m.to.includes(email));
    const token = decodeURIComponent(/token=([\w%-]+)/.exec(mail?.text ?? '')?.[1] ?? '');
    return send('POST', '/api/client/invitations/accept', undefined, {
      token,
      name: role,
      password: PASSWORD,
    });
  }

  it('shows the URL only to roles with `keys`: accept, login and session', async () => {
    const { client, cookie: owner } = await createSignedInClient(t);
    expect((await send('GET', '/api/client/session', owner)).json().webhookUrl).toBe(
      urlOf(client.webhook_token),
    );
    for (const role of ['manager', 'viewer'] as const) {
      const email = `${role}-${randomUUID().slice(0, 6)}@url.test`;
      const accepted = await join(owner, email, role);
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json().client.webhookUrl).toBeNull();
      const login = await send('POST', '/api/client/login', undefined, { email, password: PASSWORD });
      expect(login.statusCode).toBe(200);
      expect(login.json().client.webhookUrl).toBeNull();
      const session = await send('GET', '/api/client/session', cookieHeader(login.headers['set-cookie']));
      expect(session.json()).toMatchObject({ webhookUrl: null, user: { role } });
      for (const answer of [accepted, login, session])
        expect(answer.body).not.toContain(client.webhook_token);
    }
  });

  it('junk fills its own budget: a signed client still receives every real delivery', async () => {
    const client = await createClient(t.deps, { webhook_secret_enc: t.deps.secrets.encrypt(SECRET) });
    const junk = await Promise.all(
      Array.from({ length: LIMIT * 3 }, () => deliverWebhook(t.app, client.webhook_token, blandCallBody())),
    );
    expect(junk.map((r) => r.statusCode)).toContain(429);
    expect(junk.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
    for (let i = 0; i < LIMIT; i++) {
      const raw = JSON.stringify(blandCallBody());
      const real = await deliverWebhook(t.app, client.webhook_token, raw, {
        'x-webhook-signature': sign(raw),
      });
      expect(real.statusCode, real.body).toBe(200);
    }
    // Real deliveries keep their own limit.
    const raw = JSON.stringify(blandCallBody());
    const over = await deliverWebhook(t.app, client.webhook_token, raw, { 'x-webhook-signature': sign(raw) });
    expect(over.statusCode).toBe(429);
  });

  it('junk fills its own budget: calls the provider confirms still count for a client with a key', async () => {
    const apiKey = `key_${randomUUID().slice(0, 8)}`;
    sim.addKey(apiKey);
    const client = await createClient(t.deps, {
      bland_api_key_enc: t.deps.secrets.encrypt(apiKey),
      api_key_status: 'valid',
    });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT * 2; i++)
      statuses.push((await deliverWebhook(t.app, client.webhook_token, blandCallBody())).statusCode);
    expect(statuses).toContain(429);
    const real = sim.addCalls(apiKey, { count: 2, spreadDays: 0, overrides: { status: 'completed' } });
    for (const call of real) {
      const res = await deliverWebhook(t.app, client.webhook_token, blandCallBody({ call_id: call.call_id }));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().verified).toBeUndefined();
    }
  });

  it('the Owner rotates the URL: the old one stops at once; others may not; the activity log says so', async () => {
    const { client, cookie: owner } = await createSignedInClient(t);
    const viewer = await join(owner, `viewer-${randomUUID().slice(0, 6)}@url.test`, 'viewer');
    const viewerCookie = cookieHeader(viewer.headers['set-cookie']);
    const manager = await join(owner, `manager-${randomUUID().slice(0, 6)}@url.test`, 'manager');
    const managerCookie = cookieHeader(manager.headers['set-cookie']);
    for (const cookie of [viewerCookie, managerCookie]) {
      const refused = await send('POST', '/api/client/rotate-webhook', cookie);
      expect(refused.statusCode).toBe(403);
    }
    expect((await deliverWebhook(t.app, client.webhook_token, blandCallBody())).statusCode).toBe(200);

    const rotated = await send('POST', '/api/client/rotate-webhook', owner);
    expect(rotated.statusCode).toBe(200);
    const { webhookUrl } = rotated.json();
    expect(webhookUrl).not.toBe(urlOf(client.webhook_token));
    const token = webhookUrl.split('/').pop();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect((await deliverWebhook(t.app, client.webhook_token, blandCallBody())).statusCode).toBe(404);
    expect((await deliverWebhook(t.app, token, blandCallBody())).statusCode).toBe(200);
    expect((await send('GET', '/api/client/session', owner)).json().webhookUrl).toBe(webhookUrl);

    const owners = await activityOf(client.id);
    expect(owners).toContainEqual(
      expect.objectContaining({ action: 'key_change', detail: { what: 'webhook URL', change: 'rotated' } }),
    );
  });

  it("the agency's rotation and signing secret write the client's activity log beside the audit log", async () => {
    const admin = await createAdminUser(t.deps);
    const adminCookie = await loginAdmin(t.app, admin.username, admin.password);
    const client = await createClient(t.deps);
    const rotated = await send('POST', `/api/admin/clients/${client.id}/rotate-webhook`, adminCookie);
    expect(rotated.statusCode).toBe(200);
    expect((await deliverWebhook(t.app, client.webhook_token, blandCallBody())).statusCode).toBe(404);
    const secret = await send('PUT', `/api/admin/clients/${client.id}/webhook-signing-secret`, adminCookie, {
      secret: SECRET,
    });
    expect(secret.statusCode).toBe(200);

    const lines = await activityOf(client.id);
    const byAgency = 'Ada Admin';
    expect(lines).toContainEqual({
      action: 'key_change',
      user_id: null,
      detail: { what: 'webhook URL', change: 'rotated', byAgency },
    });
    expect(lines).toContainEqual({
      action: 'key_change',
      user_id: null,
      detail: { what: 'webhook signing secret', change: 'set', byAgency },
    });
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('client_id', '=', client.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['client.rotate_webhook', 'client.update']),
    );
  });

  it('stores the token only hashed and sealed; the URL is shown from the sealed copy', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const row = await t.deps.db
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(client.webhook_token);
    expect(row.webhook_token_hash).toBe(webhookTokenHash(client.webhook_token));
    expect(t.deps.secrets.decrypt(row.webhook_token_enc ?? '')).toBe(client.webhook_token);
    expect((await send('GET', '/api/client/session', cookie)).json().webhookUrl).toBe(
      urlOf(client.webhook_token),
    );
  });
});

describe(`033_webhook_token_hash on a database from before (${TEST_DB})`, () => {
  it('hashes the stored tokens; sealing leaves none in clear; deliveries find the client by hash', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-token-hash-'));
    const testDb = await createTestDb(dataDir, { empty: true });
    const db = testDb.db.db as unknown as Kysely<unknown>;
    const upTo = (last: string) => ({
      getMigrations: async () => {
        const names = KNOWN_MIGRATIONS.slice(0, KNOWN_MIGRATIONS.indexOf(last) + 1);
        const modules: Record<string, Migration> = {};
        for (const name of names) modules[name] = await import(`../../src/server/db/migrations/${name}.ts`);
        return modules;
      },
    });
    try {
      const previous = KNOWN_MIGRATIONS[KNOWN_MIGRATIONS.indexOf('033_webhook_token_hash') - 1];
      const before = await new Migrator({ db, provider: upTo(previous) }).migrateToLatest();
      expect(before.error).toBeUndefined();
      const token = 'Zm9yLXRoZS1taWdyYXRpb24tdGVzdC0wMTIzNDU2Nzg5';
      const typed = db as unknown as Kysely<{ clients: Record<string, unknown> }>;
      await typed
        .insertInto('clients')
        .values({
          id: 'legacy-client',
          first_name: 'Old',
          last_name: 'Row',
          email: 'legacy@example.com',
          account_type: 'individual',
          per_minute_rate_cents: 15,
          timezone: 'UTC',
          is_active: 1,
          api_key_status: 'missing',
          webhook_token: token,
          onboarding_status: 'active',
          created_at: 1,
          updated_at: 1,
        })
        .execute();
      const after = await new Migrator({ db, provider: upTo('033_webhook_token_hash') }).migrateToLatest();
      expect(after.error).toBeUndefined();
      const migrated = await typed
        .selectFrom('clients')
        .selectAll()
        .where('id', '=', 'legacy-client')
        .executeTakeFirstOrThrow();
      expect(migrated.webhook_token).toBeUndefined();
      expect(migrated.webhook_token_hash).toBe(webhookTokenHash(token));

      const secrets = createSecretBox('migration-test-secret-0123456789');
      expect(await sealWebhookTokens(testDb.db.db, secrets)).toBe(1);
      const sealed = await typed
        .selectFrom('clients')
        .selectAll()
        .where('id', '=', 'legacy-client')
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(sealed)).not.toContain(token);
      expect(secrets.decrypt(String(sealed.webhook_token_enc))).toBe(token);
      expect(await sealWebhookTokens(testDb.db.db, secrets)).toBe(0);
    } finally {
      await testDb.db.close();
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
