/**
 * Client management: list with totals, admin stats, configuration GET/PUT (validation, masked API
 * key, provider check, rate changes), deletion of everything, and the admin's view of one
 * client's calls.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallsRepository, type IncomingCall } from '../../src/server/calls/write/calls-repository';
import type { ClientRow } from '../../src/server/db/schema';
import { ProviderUnavailableError } from '../../src/server/providers/voice/errors';
import { NOTHING_STORED, type VoiceProvider } from '../../src/server/providers/voice/types';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const notUsed = () => Promise.reject(new Error('not used in this test'));
/** Keys starting with "good" are valid, "down" means the provider does not answer, others are invalid. */
const fakeVoice: VoiceProvider = {
  id: 'bland',
  name: 'Test Voice',
  signatureKey: 'webhookSecret',
  parseWebhook: () => ({ kind: 'invalid', message: 'not used in this test' }),
  readStoredPayload: () => NOTHING_STORED,
  listCalls: notUsed,
  getCall: notUsed,
  streamRecording: notUsed,
  getPathwayName: async () => null,
  placeTestCall: notUsed,
  async checkKey(key) {
    if (key.startsWith('down')) throw new ProviderUnavailableError(503);
    return key.startsWith('good') ? 'valid' : 'invalid';
  },
};

const HOUR = 60 * 60 * 1000;

function call(overrides: Partial<IncomingCall> = {}): IncomingCall {
  return {
    providerCallId: randomUUID(),
    fromNumber: '+14155550001',
    toNumber: '+14155550002',
    durationSeconds: 120,
    status: 'completed',
    pathwayId: null,
    pathway: 'sales',
    createdAt: Date.now() - HOUR,
    recordingUrl: null,
    transcript: [{ role: 'agent', text: 'Hello' }],
    isProxy: false,
    priceUsd: null,
    source: 'webhook',
    ...overrides,
  };
}

describe(`admin client management (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;

  beforeAll(async () => {
    t = await createTestApp({ voice: fakeVoice });
    const a = await createAdminUser(t.deps);
    adminId = a.id;
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie: admin } });
  const addCalls = (client: ClientRow, calls: IncomingCall[]) =>
    createCallsRepository(t.deps.db).upsertCalls(client, calls);
  const configOf = async (id: string) => (await req('GET', `/api/admin/client-config/${id}`)).json();
  const editBody = (config: Record<string, unknown>, overrides: Record<string, unknown> = {}) => {
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
    const body: Record<string, unknown> = { ...rest, ...overrides };
    for (const [k, v] of Object.entries(body)) if (v === null && k !== 'blandApiKey') body[k] = '';
    return body;
  };

  describe('list and stats', () => {
    let busy: Awaited<ReturnType<typeof createClient>>;
    let quiet: ClientRow;
    beforeAll(async () => {
      busy = await createClient(t.deps, {
        email: 'busy@example.com',
        company_name: 'Busy Bees',
        bland_api_key_enc: t.deps.secrets.encrypt('good-key-busy-1234567890'),
        api_key_status: 'valid',
        created_at: Date.now() - 2 * HOUR,
      });
      quiet = await createClient(t.deps, {
        email: 'quiet@example.com',
        is_active: 0,
        created_at: Date.now() - 3 * HOUR,
      });
      const draft = await createClient(t.deps, { email: 'draft@example.com', onboarding_status: 'pending' });
      await addCalls(busy, [
        call({ durationSeconds: 60, createdAt: Date.now() - 5 * HOUR }),
        call({ durationSeconds: 120, status: 'failed', createdAt: Date.now() - 4 * HOUR }),
        call({ durationSeconds: 600, createdAt: Date.now() - 30 * 24 * HOUR }),
        // Proxy legs are stored but not counted.
        call({ durationSeconds: 600, isProxy: true }),
      ]);
      await addCalls(draft, [call({ durationSeconds: 6000 })]);
    });

    it('lists onboarded clients with totals, last call date and a masked key, newest first', async () => {
      const res = await req('GET', '/api/admin/clients');
      expect(res.statusCode).toBe(200);
      const list = res.json();
      expect(Array.isArray(list)).toBe(true);
      const emails = list.map((c: { email: string }) => c.email);
      expect(emails).not.toContain('draft@example.com');
      expect(emails.indexOf('busy@example.com')).toBeLessThan(emails.indexOf('quiet@example.com'));

      const b = list.find((c: { id: string }) => c.id === busy.id);
      expect(b).toMatchObject({
        firstName: 'Test',
        lastName: 'Client',
        email: 'busy@example.com',
        companyName: 'Busy Bees',
        apiKeyStatus: 'valid',
        blandApiKey: 'goo…7890',
        isActive: true,
        perMinuteRate: 0.15,
        timezone: 'UTC',
        accountType: 'individual',
        totalCalls: 3,
        totalCost: 1.95, // 13 minutes at $0.15
        webhookUrl: `http://localhost:5000/api/webhooks/voice/${busy.webhook_token}`,
      });
      expect(Date.parse(b.lastCallDate)).toBeGreaterThan(Date.now() - 2 * HOUR);
      for (const key of [
        'phoneNumber',
        'jobTitle',
        'companyWebsite',
        'industry',
        'companySize',
        'address',
        'city',
        'state',
        'zipCode',
        'country',
        'notes',
        'clientIdentifier',
        'organizationId',
        'profileImageUrl',
      ]) {
        expect(b, key).toHaveProperty(key);
      }
      const q = list.find((c: { id: string }) => c.id === quiet.id);
      expect(q).toMatchObject({
        totalCalls: 0,
        totalCost: 0,
        lastCallDate: null,
        blandApiKey: null,
        apiKeyStatus: 'missing',
        isActive: false,
      });
      expect(JSON.stringify(list)).not.toContain('good-key-busy');
    });

    it('answers admin stats from the rollups of onboarded clients', async () => {
      const stats = (await req('GET', '/api/admin/stats')).json();
      const clients = await t.deps.db
        .selectFrom('clients')
        .select(['is_active', 'onboarding_status'])
        .execute();
      const onboarded = clients.filter((c) => c.onboarding_status === 'active');
      expect(stats).toEqual({
        totalClients: onboarded.length,
        activeClients: onboarded.filter((c) => c.is_active === 1).length,
        totalCalls: expect.any(Number),
        totalRevenue: expect.any(Number),
      });
      expect(stats.totalClients).toBeGreaterThanOrEqual(2);
      expect(stats.activeClients).toBe(stats.totalClients - 1);
      // Only the busy client has counted calls at this point of the file.
      expect(stats.totalCalls).toBe(3);
      expect(stats.totalRevenue).toBe(1.95);
    });

    it('shows one client with its totals for the admin client view', async () => {
      const res = await req('GET', `/api/admin/client-data/${busy.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().client).toMatchObject({
        id: busy.id,
        email: 'busy@example.com',
        totalCalls: 3,
        companyName: 'Busy Bees',
      });
    });
  });

  describe('client configuration', () => {
    it('answers the full configuration without the key', async () => {
      const client = await createClient(t.deps, {
        email: 'config@example.com',
        phone_number: '+14155550111',
        industry: 'finance',
        company_size: '1000+',
        bland_api_key_enc: t.deps.secrets.encrypt('good-config-key-abcd'),
        api_key_status: 'valid',
      });
      const config = await configOf(client.id);
      expect(config).toMatchObject({
        id: client.id,
        email: 'config@example.com',
        phoneNumber: '+14155550111',
        industry: 'finance',
        companySize: '1000+',
        blandApiKey: 'goo…abcd',
        apiKeyStatus: 'valid',
        perMinuteRate: 0.15,
      });
      // A size from the create form stays editable.
      const saved = await req('PUT', `/api/admin/client-config/${client.id}`, editBody(config));
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({
        success: true,
        apiKeyCheck: 'unchanged',
        client: { blandApiKey: 'goo…abcd', apiKeyStatus: 'valid', companySize: '1000+' },
      });
    });

    it('validates with field messages (400) and changes nothing', async () => {
      const client = await createClient(t.deps, { email: 'validate@example.com' });
      const config = await configOf(client.id);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ email: '' }, 'email', 'Email is required'],
        [{ email: 'nope' }, 'email', 'Please enter a valid email address'],
        [{ firstName: '' }, 'firstName', 'First name is required'],
        [{ lastName: '' }, 'lastName', 'Last name is required'],
        [{ perMinuteRate: -1 }, 'perMinuteRate', 'Number must be greater than or equal to 0'],
        [{ perMinuteRate: 101 }, 'perMinuteRate', 'Number must be less than or equal to 100'],
        [{ perMinuteRate: 0.123 }, 'perMinuteRate', 'Rate can have at most two decimals'],
        [{ perMinuteRate: '0.2' }, 'perMinuteRate', 'Expected number, received string'],
        [
          { timezone: 'Mars/Olympus' },
          'timezone',
          'Please choose a valid time zone (e.g. UTC or America/New_York)',
        ],
        [
          { accountType: 'boss' },
          'accountType',
          "Invalid enum value. Expected 'individual' | 'master_account', received 'boss'",
        ],
        [{ isActive: 'yes' }, 'isActive', 'Expected boolean, received string'],
        [
          { companyWebsite: 'ftp://x.example.com' },
          'companyWebsite',
          'Please enter a valid URL (e.g. https://example.com)',
        ],
        [
          { phoneNumber: '555-1234' },
          'phoneNumber',
          'Please enter the phone number in international format, e.g. +14155550123',
        ],
        [{ city: 'x'.repeat(101) }, 'city', 'Must be at most 100 characters'],
        [{ notes: 'x'.repeat(5001) }, 'notes', 'Must be at most 5000 characters'],
        [{ industry: 'space' }, 'industry', 'Invalid input'],
      ];
      for (const [overrides, field, message] of cases) {
        const res = await req('PUT', `/api/admin/client-config/${client.id}`, editBody(config, overrides));
        expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
        expect(res.json().fields?.[field], JSON.stringify(overrides)).toBe(message);
      }
      expect(await configOf(client.id)).toEqual(config);
    });

    it('saves every field of SPEC §7 and keeps the omitted ones', async () => {
      const client = await createClient(t.deps, { email: 'fields@example.com' });
      const body = {
        email: 'Fields2@Example.com',
        firstName: 'Fiona',
        lastName: 'Fields',
        accountType: 'master_account',
        perMinuteRate: 0.25,
        timezone: 'America/New_York',
        isActive: false,
        phoneNumber: '+442071234567',
        address: '10 Downing St',
        city: 'London',
        state: 'LDN',
        zipCode: 'SW1A 2AA',
        country: 'UK',
        companyName: 'Fields Ltd',
        companyWebsite: 'https://fields.example.co.uk',
        industry: 'real-estate',
        companySize: '201-500',
        jobTitle: 'CEO',
        clientIdentifier: 'FLD-1',
        organizationId: 'org_42',
        notes: 'VIP',
      };
      const res = await req('PUT', `/api/admin/client-config/${client.id}`, body);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('Client configuration updated');
      const { blandApiKey, ...expected } = { ...body, email: 'fields2@example.com', blandApiKey: null };
      expect(await configOf(client.id)).toMatchObject({ ...expected, blandApiKey });

      // A body that leaves fields out keeps them (issue 33; tests/api/partial-updates.test.ts).
      const kept = await req('PUT', `/api/admin/client-config/${client.id}`, {
        email: 'fields2@example.com',
        firstName: 'F',
        lastName: 'F',
      });
      expect(kept.statusCode).toBe(200);
      expect(kept.json().client).toMatchObject({
        perMinuteRate: 0.25,
        timezone: 'America/New_York',
        accountType: 'master_account',
        isActive: false,
        notes: 'VIP',
      });
    });

    it('keeps the key when the masked value comes back or it is omitted, checks a new one, removes an empty one', async () => {
      const client = await createClient(t.deps, { email: 'keys@example.com' });
      const base = editBody(await configOf(client.id));

      const added = await req('PUT', `/api/admin/client-config/${client.id}`, {
        ...base,
        blandApiKey: 'good-new-key-0001',
      });
      expect(added.json()).toMatchObject({
        apiKeyCheck: 'valid',
        client: { blandApiKey: 'goo…0001', apiKeyStatus: 'valid' },
      });
      const stored = await t.deps.db
        .selectFrom('clients')
        .select('bland_api_key_enc')
        .where('id', '=', client.id)
        .executeTakeFirstOrThrow();
      expect(stored.bland_api_key_enc).not.toContain('good-new-key');
      expect(t.deps.secrets.decrypt(stored.bland_api_key_enc!)).toBe('good-new-key-0001');

      const masked = await req('PUT', `/api/admin/client-config/${client.id}`, {
        ...base,
        blandApiKey: 'goo…0001',
      });
      expect(masked.json()).toMatchObject({
        apiKeyCheck: 'unchanged',
        client: { blandApiKey: 'goo…0001', apiKeyStatus: 'valid' },
      });
      const { blandApiKey: _omit, ...withoutKey } = base;
      const omitted = await req('PUT', `/api/admin/client-config/${client.id}`, withoutKey);
      expect(omitted.json()).toMatchObject({ apiKeyCheck: 'unchanged', client: { blandApiKey: 'goo…0001' } });
      const again = await t.deps.db
        .selectFrom('clients')
        .select('bland_api_key_enc')
        .where('id', '=', client.id)
        .executeTakeFirstOrThrow();
      expect(t.deps.secrets.decrypt(again.bland_api_key_enc!)).toBe('good-new-key-0001');

      const bad = await req('PUT', `/api/admin/client-config/${client.id}`, {
        ...base,
        blandApiKey: 'bad-key-000000000002',
      });
      expect(bad.json()).toMatchObject({
        apiKeyCheck: 'invalid',
        client: { blandApiKey: 'bad…0002', apiKeyStatus: 'invalid' },
      });

      const down = await req('PUT', `/api/admin/client-config/${client.id}`, {
        ...base,
        blandApiKey: 'down-key-00000000003',
      });
      expect(down.statusCode).toBe(200);
      expect(down.json()).toMatchObject({
        apiKeyCheck: 'unavailable',
        client: { blandApiKey: 'dow…0003', apiKeyStatus: 'invalid' },
      });
      expect(down.json().message).toMatch(/did not answer/);

      const removed = await req('PUT', `/api/admin/client-config/${client.id}`, { ...base, blandApiKey: '' });
      expect(removed.json()).toMatchObject({
        apiKeyCheck: 'removed',
        client: { blandApiKey: null, apiKeyStatus: 'missing' },
      });
    });

    it('refuses an e-mail another onboarded client has (409), frees one held by a draft', async () => {
      await createClient(t.deps, { email: 'owner@example.com' });
      const draft = await createClient(t.deps, {
        email: 'drafted@example.com',
        onboarding_status: 'pending',
      });
      const client = await createClient(t.deps, { email: 'mover@example.com' });
      const base = editBody(await configOf(client.id));
      const taken = await req('PUT', `/api/admin/client-config/${client.id}`, {
        ...base,
        email: 'OWNER@example.com',
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({ message: 'A client with this email already exists' });
      const freed = await req('PUT', `/api/admin/client-config/${client.id}`, {
        ...base,
        email: 'drafted@example.com',
      });
      expect(freed.statusCode).toBe(200);
      expect(
        await t.deps.db.selectFrom('clients').select('id').where('id', '=', draft.id).executeTakeFirst(),
      ).toBeUndefined();
    });

    it('applies a changed rate to later calls only', async () => {
      const client = await createClient(t.deps, { email: 'rate@example.com' });
      await addCalls(client, [call({ providerCallId: 'before', durationSeconds: 60 })]);
      const base = editBody(await configOf(client.id));
      expect(
        (await req('PUT', `/api/admin/client-config/${client.id}`, { ...base, perMinuteRate: 1 })).statusCode,
      ).toBe(200);
      const updated = await t.deps.db
        .selectFrom('clients')
        .selectAll()
        .where('id', '=', client.id)
        .executeTakeFirstOrThrow();
      expect(updated.per_minute_rate_cents).toBe(100);
      await addCalls(updated, [call({ providerCallId: 'after', durationSeconds: 60 })]);
      const page = (await req('GET', `/api/admin/client-calls/${client.id}?status=all`)).json();
      const cost = Object.fromEntries(
        await Promise.all(
          page.calls.map(async (c: { id: string; cost: number }) => {
            const row = await t.deps.db
              .selectFrom('calls')
              .select('provider_call_id')
              .where('id', '=', c.id)
              .executeTakeFirstOrThrow();
            return [row.provider_call_id, c.cost];
          }),
        ),
      );
      expect(cost).toEqual({ before: 0.15, after: 1 });
      expect((await req('GET', `/api/admin/client-data/${client.id}`)).json().client.totalCost).toBe(1.15);
    });

    it('writes an audit row naming the changed fields, never the key', async () => {
      const client = await createClient(t.deps, { email: 'audit@example.com' });
      const base = editBody(await configOf(client.id));
      await req('PUT', `/api/admin/client-config/${client.id}`, {
        ...base,
        city: 'Paris',
        blandApiKey: 'good-audit-key-9999',
      });
      const row = await t.deps.db
        .selectFrom('audit_log')
        .selectAll()
        .where('client_id', '=', client.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ admin_id: adminId, action: 'client.update' });
      const detail = JSON.parse(row.detail!);
      expect(detail.fields).toEqual(expect.arrayContaining(['city', 'bland_api_key_enc', 'api_key_status']));
      expect(detail.apiKey).toBe('valid');
      expect(row.detail).not.toContain('good-audit-key');
    });
  });

  describe('delete client', () => {
    it('removes the client with its calls, rollups, sessions, subscription and the rest, and nothing of others', async () => {
      const doomed = await createClient(t.deps, { email: 'doomed@example.com' });
      const other = await createClient(t.deps, { email: 'survivor@example.com' });
      await addCalls(doomed, [call(), call({ status: 'transferred' })]);
      await addCalls(other, [call()]);
      const doomedCookie = await loginClient(t.app, doomed.email);
      const otherCookie = await loginClient(t.app, other.email);
      const now = Date.now();
      const db = t.deps.db;
      await db
        .insertInto('subscriptions')
        .values({
          id: randomUUID(),
          client_id: doomed.id,
          plan_id: 'starter',
          status: 'active',
          provider: 'card',
          cancel_at_period_end: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('payments')
        .values({
          id: randomUUID(),
          client_id: doomed.id,
          provider: 'card',
          plan_id: 'starter',
          amount_cents: 4900,
          status: 'succeeded',
          idempotency_key: randomUUID(),
          created_at: now,
        })
        .execute();
      await db
        .insertInto('notification_prefs')
        .values({
          client_id: doomed.id,
          email_notifications: 1,
          sms_notifications: 0,
          webhook_notifications: 1,
          monthly_reports: 1,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('webhook_deliveries')
        .values({
          id: randomUUID(),
          client_id: doomed.id,
          received_at: now,
          kind: 'call',
          provider_call_id: 'x',
          outcome: 'created',
        })
        .execute();
      await db
        .insertInto('pathway_names')
        .values({ client_id: doomed.id, pathway_id: 'p1', name: 'sales', fetched_at: now })
        .execute();

      const res = await req('DELETE', `/api/admin/clients/${doomed.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });

      const left = async (
        table:
          | 'calls'
          | 'call_rollups'
          | 'subscriptions'
          | 'payments'
          | 'notification_prefs'
          | 'webhook_deliveries'
          | 'pathway_names',
      ) =>
        (await db.selectFrom(table).select('client_id').where('client_id', '=', doomed.id).execute()).length;
      for (const table of [
        'calls',
        'call_rollups',
        'subscriptions',
        'payments',
        'notification_prefs',
        'webhook_deliveries',
        'pathway_names',
      ] as const) {
        expect(await left(table), table).toBe(0);
      }
      expect(
        await db.selectFrom('clients').select('id').where('id', '=', doomed.id).executeTakeFirst(),
      ).toBeUndefined();
      expect(
        await db.selectFrom('sessions').select('id_hash').where('subject_id', '=', doomed.id).execute(),
      ).toEqual([]);
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/client/session', headers: { cookie: doomedCookie } }))
          .statusCode,
      ).toBe(401);

      expect(
        (await t.app.inject({ method: 'GET', url: '/api/client/session', headers: { cookie: otherCookie } }))
          .statusCode,
      ).toBe(200);
      expect(
        (await db.selectFrom('calls').select('id').where('client_id', '=', other.id).execute()).length,
      ).toBe(1);
      expect(
        (await db.selectFrom('call_rollups').select('client_id').where('client_id', '=', other.id).execute())
          .length,
      ).toBe(1);

      const audit = await db
        .selectFrom('audit_log')
        .selectAll()
        .where('client_id', '=', doomed.id)
        .executeTakeFirstOrThrow();
      expect(audit).toMatchObject({ action: 'client.delete', admin_id: adminId });
      expect(JSON.parse(audit.detail!)).toMatchObject({ email: 'doomed@example.com' });

      expect((await req('DELETE', `/api/admin/clients/${doomed.id}`)).statusCode).toBe(404);
    });
  });

  describe("one client's calls", () => {
    let owner: ClientRow;
    let stranger: ClientRow;
    beforeAll(async () => {
      owner = await createClient(t.deps, { email: 'calls-owner@example.com', timezone: 'America/New_York' });
      stranger = await createClient(t.deps, { email: 'calls-stranger@example.com' });
      await addCalls(owner, [
        call({
          providerCallId: 'c1',
          recordingUrl: 'https://recordings.example.com/c1.mp3',
          createdAt: Date.now() - 2 * HOUR,
        }),
        call({
          providerCallId: 'c2',
          status: 'transferred',
          pathway: 'support',
          createdAt: Date.now() - 3 * HOUR,
        }),
        call({ providerCallId: 'c3', createdAt: Date.now() - 20 * 24 * HOUR }),
      ]);
      await addCalls(stranger, [call({ providerCallId: 's1' })]);
    });

    it('answers stats, calls over time and the call log of the client in the path', async () => {
      const stats = (await req('GET', `/api/admin/client-stats/${owner.id}?dateRange=7d`)).json();
      expect(stats).toMatchObject({
        totalCalls: 2,
        totalTransfers: 1,
        avgDuration: 120,
        changes: expect.any(Object),
      });
      expect((await req('GET', `/api/admin/client-stats/${owner.id}?dateRange=30d`)).json().totalCalls).toBe(
        3,
      );
      // A missing range means 7 days; an unknown one is refused.
      expect((await req('GET', `/api/admin/client-stats/${owner.id}`)).json().totalCalls).toBe(2);
      expect((await req('GET', `/api/admin/client-stats/${owner.id}?dateRange=nope`)).statusCode).toBe(400);

      const points = (await req('GET', `/api/admin/client-calls-over-time/${owner.id}?dateRange=1d`)).json();
      expect(Array.isArray(points)).toBe(true);
      expect(points).toHaveLength(1);
      expect(
        (await req('GET', `/api/admin/client-calls-over-time/${owner.id}?dateRange=90d`)).json(),
      ).toHaveLength(90);

      const page = (await req('GET', `/api/admin/client-calls/${owner.id}?status=all&page=1`)).json();
      expect(page.pagination).toEqual({ page: 1, limit: 10, total: 3, totalPages: 1 });
      const withRecording = page.calls.find((c: { recordingUrl?: string }) => c.recordingUrl);
      expect(withRecording.recordingUrl).toBe(`/api/admin/client-recording/${owner.id}/${withRecording.id}`);
      expect(
        (await req('GET', `/api/admin/client-calls/${owner.id}?pathway=support&status=transferred`)).json()
          .pagination.total,
      ).toBe(1);
      expect((await req('GET', `/api/admin/client-calls/${owner.id}?page=0`)).statusCode).toBe(400);
    });

    it("deletes a call only through its own client's id", async () => {
      const strangerCall = await t.deps.db
        .selectFrom('calls')
        .select('id')
        .where('client_id', '=', stranger.id)
        .executeTakeFirstOrThrow();
      const wrong = await req('DELETE', `/api/admin/calls/${strangerCall.id}?clientId=${owner.id}`);
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json()).toEqual({ message: 'Call not found' });
      const missingClientId = await req('DELETE', `/api/admin/calls/${strangerCall.id}`);
      expect(missingClientId.statusCode).toBe(400);
      expect(missingClientId.json().fields.clientId).toBe('clientId is required');

      const right = await req('DELETE', `/api/admin/calls/${strangerCall.id}?clientId=${stranger.id}`);
      expect(right.statusCode).toBe(200);
      expect(right.json()).toEqual({ success: true });
      expect((await req('GET', `/api/admin/client-data/${stranger.id}`)).json().client.totalCalls).toBe(0);
      const audit = await t.deps.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'call.delete')
        .executeTakeFirstOrThrow();
      expect(audit).toMatchObject({ client_id: stranger.id, admin_id: adminId });
      expect(JSON.parse(audit.detail!)).toEqual({ callId: strangerCall.id });
    });
  });
});
