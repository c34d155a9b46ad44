/**
 * Issue 10's webhook and key contract: the signing secret set by an admin or the client (write-only,
 * stored encrypted, enforced on delivery), the admin's webhook URL rotation, key changes that reset
 * the sync watermark on both paths, malformed keys refused, and deactivation ending sessions.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blandCallBody, deliverWebhook } from '../helpers/bland';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const SECRET = 'bland-signing-secret-0123';
const sign = (raw: string, secret = SECRET) => createHmac('sha256', secret).update(raw).digest('hex');

describe(`webhook signing secret, rotation and key changes (${TEST_DB})`, () => {
  let t: TestApp;
  let adminCookie: string;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await createAdminUser(t.deps);
    adminCookie = await loginAdmin(t.app, admin.username, admin.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const asAdmin = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie: adminCookie } });
  const deliver = (token: string, raw: string, headers: Record<string, string> = {}) =>
    deliverWebhook(t.app, token, raw, headers);
  const rowOf = (id: string) =>
    t.deps.db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const callCount = async (clientId: string) =>
    (await t.deps.db.selectFrom('calls').select('id').where('client_id', '=', clientId).execute()).length;
  /** The edit dialog's body: the current configuration with some fields changed. */
  const edit = async (id: string, changes: Record<string, unknown>) => {
    const config = (await asAdmin('GET', `/api/admin/client-config/${id}`)).json();
    const { firstName, lastName, email, isActive, timezone, perMinuteRate } = config;
    return asAdmin('PUT', `/api/admin/client-config/${id}`, {
      firstName,
      lastName,
      email,
      isActive,
      timezone,
      perMinuteRate,
      ...changes,
    });
  };

  it('an admin sets the secret write-only; deliveries must then be signed, with either header', async () => {
    const client = await createClient(t.deps);
    const saved = await edit(client.id, { webhookSigningSecret: SECRET });
    expect(saved.statusCode).toBe(200);
    const config = await asAdmin('GET', `/api/admin/client-config/${client.id}`);
    expect(config.json().hasWebhookSigningSecret).toBe(true);
    expect(config.body).not.toContain(SECRET);
    const row = await rowOf(client.id);
    expect(row.webhook_secret_enc).not.toContain(SECRET);
    expect(t.deps.secrets.decrypt(row.webhook_secret_enc!)).toBe(SECRET);

    const raw = JSON.stringify(blandCallBody());
    const unsigned = await deliver(client.webhook_token, raw);
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toEqual({ message: 'Invalid webhook signature' });
    expect(
      (await deliver(client.webhook_token, raw, { 'x-webhook-signature': sign(raw, 'other') })).statusCode,
    ).toBe(401);
    expect(await callCount(client.id)).toBe(0);
    expect((await deliver(client.webhook_token, raw, { 'x-webhook-signature': sign(raw) })).statusCode).toBe(
      200,
    );
    const second = JSON.stringify(blandCallBody());
    expect(
      (await deliver(client.webhook_token, second, { 'x-bland-signature': sign(second) })).statusCode,
    ).toBe(200);
    expect(await callCount(client.id)).toBe(2);

    // Leaving the field out keeps the secret; an empty value removes it.
    await edit(client.id, { notes: 'kept' });
    expect((await rowOf(client.id)).webhook_secret_enc).not.toBeNull();
    await edit(client.id, { webhookSigningSecret: '' });
    expect((await rowOf(client.id)).webhook_secret_enc).toBeNull();
    expect((await deliver(client.webhook_token, JSON.stringify(blandCallBody()))).statusCode).toBe(200);
  });

  it("the wizard's webhook step sets the secret on a draft", async () => {
    const generated = await asAdmin('POST', '/api/admin/generate-webhook', {
      firstName: 'Dora',
      lastName: 'Draft',
      email: 'dora-draft@example.com',
    });
    expect(generated.statusCode).toBe(201);
    const { id } = generated.json();
    const put = (secret: string | null) =>
      asAdmin('PUT', `/api/admin/clients/${id}/webhook-signing-secret`, { secret });
    expect((await put('bad secret')).statusCode).toBe(400);
    expect((await put(SECRET)).json()).toEqual({ hasWebhookSigningSecret: true });
    expect(t.deps.secrets.decrypt((await rowOf(id)).webhook_secret_enc!)).toBe(SECRET);
    expect((await put(null)).json()).toEqual({ hasWebhookSigningSecret: false });
    expect(
      (await asAdmin('PUT', '/api/admin/clients/no-such-client/webhook-signing-secret', { secret: SECRET }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses a malformed secret and changes nothing', async () => {
    const client = await createClient(t.deps);
    for (const bad of ['short', 'has space inside', 'line\nbreak-secret', `${'x'.repeat(201)}`]) {
      const res = await edit(client.id, { webhookSigningSecret: bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(typeof res.json().fields.webhookSigningSecret).toBe('string');
    }
    expect((await rowOf(client.id)).webhook_secret_enc).toBeNull();
  });

  it('the client sets its own secret from the Security tab, and only its own', async () => {
    const client = await createClient(t.deps);
    const other = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const put = (payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/client/webhook-signing-secret',
        payload,
        headers: { cookie },
      });

    const set = await put({ secret: SECRET });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ hasWebhookSigningSecret: true });
    const session = await t.app.inject({ method: 'GET', url: '/api/client/session', headers: { cookie } });
    expect(session.json().hasWebhookSigningSecret).toBe(true);
    expect(session.body).not.toContain(SECRET);
    expect((await rowOf(other.id)).webhook_secret_enc).toBeNull();
    expect((await deliver(client.webhook_token, JSON.stringify(blandCallBody()))).statusCode).toBe(401);

    expect((await put({ secret: 'bad secret with spaces' })).statusCode).toBe(400);
    expect(t.deps.secrets.decrypt((await rowOf(client.id)).webhook_secret_enc!)).toBe(SECRET);
    expect((await put({ secret: null })).json()).toEqual({ hasWebhookSigningSecret: false });
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: '/api/client/webhook-signing-secret',
      payload: { secret: SECRET },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('rotating the webhook URL retires the old one at once', async () => {
    const client = await createClient(t.deps);
    const rotated = await asAdmin('POST', `/api/admin/clients/${client.id}/rotate-webhook`);
    expect(rotated.statusCode).toBe(200);
    const { webhookUrl } = rotated.json();
    const token = webhookUrl.split('/').pop();
    expect(webhookUrl).toBe(`${t.config.publicUrl}/api/webhooks/voice/${token}`);
    expect(token).not.toBe(client.webhook_token);

    const raw = JSON.stringify(blandCallBody());
    const old = await deliver(client.webhook_token, raw);
    expect(old.statusCode).toBe(404);
    expect(await callCount(client.id)).toBe(0);
    expect((await deliver(token, raw)).statusCode).toBe(200);
    expect(await callCount(client.id)).toBe(1);
    const config = (await asAdmin('GET', `/api/admin/client-config/${client.id}`)).json();
    expect(config.webhookUrl).toBe(webhookUrl);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('client_id', '=', client.id)
      .execute();
    expect(audit.map((a) => a.action)).toContain('client.rotate_webhook');
  });

  it("an admin's key change resets the sync watermark, as the client's does", async () => {
    const client = await createClient(t.deps, {
      bland_api_key_enc: t.deps.secrets.encrypt('sk_old_account_key_0001'),
      api_key_status: 'valid',
      sync_watermark: 1_700_000_000_000,
    });
    const saved = await edit(client.id, { blandApiKey: 'sk_other_account_key_0002' });
    expect(saved.statusCode).toBe(200);
    const row = await rowOf(client.id);
    expect(t.deps.secrets.decrypt(row.bland_api_key_enc!)).toBe('sk_other_account_key_0002');
    expect(row.sync_watermark).toBeNull();
  });

  it('refuses API keys with NUL, line breaks, spaces or non-Latin-1 characters on every path, saving nothing', async () => {
    const client = await createClient(t.deps, { client_manages_api_key: 1 });
    const cookie = await loginClient(t.app, client.email);
    for (const bad of ['sk_live\u0000key', 'sk_live\nkey', 'sk live key', 'sk_live_ключ']) {
      const own = await t.app.inject({
        method: 'PUT',
        url: '/api/client/api-key',
        payload: { blandApiKey: bad },
        headers: { cookie },
      });
      expect(own.statusCode, JSON.stringify(bad)).toBe(400);
      const admin = await edit(client.id, { blandApiKey: bad });
      expect(admin.statusCode, JSON.stringify(bad)).toBe(400);
      expect(admin.json().fields.blandApiKey).toMatch(/printable characters/);
    }
    expect((await rowOf(client.id)).bland_api_key_enc).toBeNull();
  });

  it('deactivating a client ends its sessions; reactivation does not revive them', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const session = () => t.app.inject({ method: 'GET', url: '/api/client/calls', headers: { cookie } });
    expect((await session()).statusCode).toBe(200);
    expect((await edit(client.id, { isActive: false })).statusCode).toBe(200);
    expect((await session()).statusCode).toBe(401);
    expect((await edit(client.id, { isActive: true })).statusCode).toBe(200);
    expect((await session()).statusCode).toBe(401);
    // A new login works again.
    const fresh = await loginClient(t.app, client.email);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/client/calls', headers: { cookie: fresh } }))
        .statusCode,
    ).toBe(200);
  });
});
