/**
 * The create-client wizard through the API: generate-webhook → webhook-status false → a Bland
 * call reaches the webhook URL → true → finalize → credentials → the client logs in and sees it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdminUser,
  createClient,
  loginAdmin,
  loginClient,
  loginWithTemporaryPassword,
} from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const blandCall = (overrides: Record<string, unknown> = {}) => ({
  call_id: randomUUID(),
  to: '+14155550100',
  from: '+14155550199',
  call_length: 1.5,
  corrected_duration: '90',
  created_at: new Date().toISOString(),
  completed: true,
  queue_status: 'complete',
  status: 'completed',
  transcripts: [
    { id: 1, created_at: new Date().toISOString(), text: 'Hello, this is the test call.', user: 'assistant' },
    { id: 2, created_at: new Date().toISOString(), text: 'Hi!', user: 'user' },
  ],
  ...overrides,
});

describe(`admin onboarding (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const a = await createAdminUser(t.deps);
    adminId = a.id;
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, cookie = admin) =>
    t.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });

  const form = (overrides: Record<string, unknown> = {}) => ({
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'Grace@Example.com',
    companyName: 'Harbor Dental',
    companyWebsite: 'https://harbor.example.com',
    industry: 'healthcare',
    companySize: '11-50',
    jobTitle: 'Owner',
    phoneNumber: '+1 (415) 555-0123',
    address: '1 Harbor Way',
    city: 'San Francisco',
    state: 'CA',
    zipCode: '94105',
    country: 'US',
    notes: 'Onboarded by test',
    ...overrides,
  });

  it('onboards a client from the form to a working login', async () => {
    const generated = await req('POST', '/api/admin/generate-webhook', form());
    expect(generated.statusCode).toBe(201);
    const { id, webhookUrl } = generated.json();
    expect(typeof id).toBe('string');
    expect(webhookUrl).toMatch(/^http:\/\/localhost:5000\/api\/webhooks\/voice\/[A-Za-z0-9_-]{43,}$/);

    const row = await t.deps.db
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      email: 'grace@example.com',
      onboarding_status: 'pending',
      phone_number: '+14155550123',
      industry: 'healthcare',
      company_size: '11-50',
      per_minute_rate_cents: 15,
      timezone: 'UTC',
      account_type: 'individual',
      is_active: 1,
      password_hash: null,
    });

    // A pending draft is not listed and cannot log in yet.
    expect((await req('GET', '/api/admin/clients')).json().map((c: { id: string }) => c.id)).not.toContain(
      id,
    );
    const status0 = await req('GET', `/api/admin/webhook-status/${id}`);
    expect(status0.json()).toEqual({ isTestSuccessful: false, verifiedAt: null });
    expect(status0.headers['cache-control']).toBe('no-store');

    const early = await req('POST', `/api/admin/finalize-client/${id}`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/No test call has reached the webhook yet/);

    // A live event is acknowledged but is not a test call.
    const path = new URL(webhookUrl).pathname;
    const event = await t.app.inject({
      method: 'POST',
      url: path,
      payload: { call_id: randomUUID(), message: 'Call started', category: 'call', log_level: 'info' },
    });
    expect(event.statusCode).toBe(200);
    expect((await req('GET', `/api/admin/webhook-status/${id}`)).json().isTestSuccessful).toBe(false);

    const call = blandCall();
    const delivered = await t.app.inject({ method: 'POST', url: path, payload: call });
    expect(delivered.statusCode).toBe(200);
    const status1 = (await req('GET', `/api/admin/webhook-status/${id}`)).json();
    expect(status1.isTestSuccessful).toBe(true);
    expect(typeof status1.verifiedAt).toBe('string');

    const finalized = await req('POST', `/api/admin/finalize-client/${id}`);
    expect(finalized.statusCode).toBe(200);
    expect(finalized.json()).toEqual({ email: 'grace@example.com' });
    // Twice is harmless.
    expect((await req('POST', `/api/admin/finalize-client/${id}`)).json()).toEqual({
      email: 'grace@example.com',
    });

    const listed = (await req('GET', '/api/admin/clients')).json().find((c: { id: string }) => c.id === id);
    expect(listed).toMatchObject({
      email: 'grace@example.com',
      totalCalls: 1,
      onboardingStatus: 'active',
      hasLoginCredentials: false,
    });
    expect(listed.totalCost).toBeCloseTo(0.23, 2); // 90 s at $0.15/min = $0.225
    expect(listed.lastCallDate).toBe(new Date(Date.parse(call.created_at)).toISOString());

    const creds = await req('POST', `/api/admin/clients/${id}/generate-credentials`);
    expect(creds.statusCode).toBe(200);
    expect(creds.headers['cache-control']).toBe('no-store');
    const { email, temporaryPassword } = creds.json();
    expect(email).toBe('grace@example.com');
    expect(temporaryPassword).toMatch(/^[A-Za-z0-9]{4}(-[A-Za-z0-9]{4}){3}$/);
    const stored = await t.deps.db
      .selectFrom('clients')
      .select('password_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.password_hash).not.toContain(temporaryPassword);

    const clientCookie = await loginWithTemporaryPassword(t.app, email, temporaryPassword);
    const calls = await t.app.inject({
      method: 'GET',
      url: '/api/client/calls',
      headers: { cookie: clientCookie },
    });
    expect(calls.statusCode).toBe(200);
    expect(calls.json().calls.map((c: { fromNumber: string }) => c.fromNumber)).toEqual(['+14155550199']);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/client/session',
      headers: { cookie: clientCookie },
    });
    expect(session.json()).toMatchObject({ email: 'grace@example.com', webhookUrl });

    const actions = await t.deps.db
      .selectFrom('audit_log')
      .select(['action', 'admin_id'])
      .where('client_id', '=', id)
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'client.create_draft',
      'client.finalize',
      'client.credentials',
    ]);
    expect(new Set(actions.map((a) => a.admin_id))).toEqual(new Set([adminId]));
  });

  it('new credentials end the sessions opened with the old password', async () => {
    const client = await createClient(t.deps, { email: 'sessions@example.com' });
    const oldCookie = await loginClient(t.app, client.email);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/client/session', headers: { cookie: oldCookie } }))
        .statusCode,
    ).toBe(200);
    const creds = (await req('POST', `/api/admin/clients/${client.id}/generate-credentials`)).json();
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/client/session', headers: { cookie: oldCookie } }))
        .statusCode,
    ).toBe(401);
    await expect(loginClient(t.app, client.email)).rejects.toThrow(/401/);
    await loginClient(t.app, client.email, creds.temporaryPassword);
  });

  it('refuses credentials for a draft that has not been finalized', async () => {
    const { id } = (
      await req('POST', '/api/admin/generate-webhook', form({ email: 'draft-creds@example.com' }))
    ).json();
    const res = await req('POST', `/api/admin/clients/${id}/generate-credentials`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/before generating credentials/);
  });

  it('refuses an e-mail that an onboarded client already has (409), whatever its case', async () => {
    await createClient(t.deps, { email: 'taken@example.com' });
    const res = await req('POST', '/api/admin/generate-webhook', form({ email: ' TAKEN@example.com ' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'A client with this email already exists' });
  });

  it('replaces an abandoned draft with the same e-mail', async () => {
    const first = (
      await req('POST', '/api/admin/generate-webhook', form({ email: 'again@example.com' }))
    ).json();
    const second = await req(
      'POST',
      '/api/admin/generate-webhook',
      form({ email: 'again@example.com', firstName: 'Second' }),
    );
    expect(second.statusCode).toBe(201);
    expect(second.json().webhookUrl).not.toBe(first.webhookUrl);
    const rows = await t.deps.db
      .selectFrom('clients')
      .select(['id', 'first_name'])
      .where('email', '=', 'again@example.com')
      .execute();
    expect(rows).toEqual([{ id: second.json().id, first_name: 'Second' }]);
    expect((await req('GET', `/api/admin/webhook-status/${first.id}`)).statusCode).toBe(404);
  });

  it('removes drafts abandoned for over a week when the next client is created, and keeps recent ones', async () => {
    const old = (
      await req('POST', '/api/admin/generate-webhook', form({ email: 'old-draft@example.com' }))
    ).json();
    const recent = (
      await req('POST', '/api/admin/generate-webhook', form({ email: 'recent-draft@example.com' }))
    ).json();
    await t.deps.db
      .updateTable('clients')
      .set({ created_at: Date.now() - 8 * 24 * 3_600_000 })
      .where('id', '=', old.id)
      .execute();
    expect(
      (await req('POST', '/api/admin/generate-webhook', form({ email: 'next@example.com' }))).statusCode,
    ).toBe(201);
    expect((await req('GET', `/api/admin/webhook-status/${old.id}`)).statusCode).toBe(404);
    expect((await req('GET', `/api/admin/webhook-status/${recent.id}`)).statusCode).toBe(200);
  });

  it('issues a different unguessable token each time', async () => {
    const urls = new Set<string>();
    for (let i = 0; i < 5; i++) {
      urls.add(
        (await req('POST', '/api/admin/generate-webhook', form({ email: `tok${i}@example.com` }))).json()
          .webhookUrl,
      );
    }
    expect(urls.size).toBe(5);
    for (const url of urls)
      expect(Buffer.from(url.split('/').pop()!, 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it('validates the create form with the SPEC §5 messages', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
      [{ email: '' }, 'email', 'Please enter a valid email address'],
      [{ firstName: '' }, 'firstName', 'First name is required'],
      [{ lastName: '   ' }, 'lastName', 'Last name is required'],
      [
        { companyWebsite: 'not a url' },
        'companyWebsite',
        'Please enter a valid URL (e.g. https://example.com)',
      ],
      [{ industry: 'agriculture' }, 'industry', 'Invalid input'],
      [{ companySize: '2-5' }, 'companySize', 'Invalid input'],
      // A size no longer offered is not accepted for a new client.
      [{ companySize: '201-1000' }, 'companySize', 'Invalid input'],
      [{ firstName: 42 }, 'firstName', 'Expected string, received number'],
      [{ notes: 'x'.repeat(5001) }, 'notes', 'Must be at most 5000 characters'],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await req(
        'POST',
        '/api/admin/generate-webhook',
        form({ email: 'valid@example.com', ...overrides }),
      );
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().fields[field], JSON.stringify(overrides)).toBe(message);
    }
    // An empty website and only the required fields are fine.
    const minimal = await req('POST', '/api/admin/generate-webhook', {
      firstName: 'Min',
      lastName: 'Imal',
      email: 'min@example.com',
      companyWebsite: '',
    });
    expect(minimal.statusCode).toBe(201);
    // The wizard offers what Edit Client does: every industry and size of the one list.
    const listed = await req(
      'POST',
      '/api/admin/generate-webhook',
      form({ email: 'listed@example.com', industry: 'real-estate', companySize: '501-1000' }),
    );
    expect(listed.statusCode, listed.body).toBe(201);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/admin/generate-webhook',
      payload: '[1,2',
      headers: { cookie: admin, 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
