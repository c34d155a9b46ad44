/**
 * Every update endpoint reads a body as a patch. A field left out keeps its stored
 * value, never a default: checked field by field on the admin's client configuration, the
 * client's account, notification preferences, screen preferences and outcomes; a deactivated
 * client stays deactivated when an update does not mention it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderUnavailableError } from '../../src/server/providers/voice/errors';
import { NOTHING_STORED, type VoiceProvider } from '../../src/server/providers/voice/types';
import { createAdminUser, createClient, createSignedInClient, loginAdmin } from '../helpers/factories';
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

/** A client with a value in every column the edit dialog shows, none of them the defaults. */
const STORED = {
  first_name: 'Stella',
  last_name: 'Stored',
  company_name: 'Stored Co',
  account_type: 'master_account',
  per_minute_rate_cents: 42,
  timezone: 'America/New_York',
  is_active: 0,
  phone_number: '+14155550100',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip_code: '62701',
  country: 'US',
  company_website: 'https://stored.example.com',
  industry: 'healthcare',
  company_size: '51-200',
  job_title: 'Owner',
  client_identifier: 'STO-1',
  organization_id: 'org_stored',
  notes: 'Keep me',
  api_key_status: 'valid',
  password: null,
} as const;

describe(`partial updates keep what they leave out (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ voice: fakeVoice });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'PUT', url: string, cookie: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie } });
  const storedClient = (email: string) =>
    createClient(t.deps, {
      ...STORED,
      email,
      bland_api_key_enc: t.deps.secrets.encrypt('good-key-stored-0000'),
      webhook_secret_enc: t.deps.secrets.encrypt('stored-signing-secret'),
    });
  const configOf = async (id: string) =>
    (await inject('GET', `/api/admin/client-config/${id}`, admin)).json();

  describe('PUT /api/admin/client-config/{id}', () => {
    /** Each field of the edit body, a value other than the stored one, and what GET shows for it. */
    const EDITS: [string, unknown, Record<string, unknown>?][] = [
      ['firstName', 'Nora'],
      ['lastName', 'Newman'],
      ['email', 'changed-config@example.com'],
      ['accountType', 'individual'],
      ['perMinuteRate', 0.5],
      ['timezone', 'Europe/Paris'],
      ['isActive', true],
      ['industry', 'finance'],
      ['companySize', '1000+'],
      ['blandApiKey', 'good-key-changed-1234', { blandApiKey: 'goo…1234', apiKeyStatus: 'valid' }],
      ['webhookSigningSecret', null, { hasWebhookSigningSecret: false }],
      ['clientIdentifier', 'NEW-2'],
      ['organizationId', 'org_new'],
      ['companyName', 'New Co'],
      ['jobTitle', 'CTO'],
      ['phoneNumber', '+442071234567'],
      ['address', '2 High St'],
      ['city', 'London'],
      ['state', 'LDN'],
      ['zipCode', 'SW1A 2AA'],
      ['country', 'UK'],
      ['notes', 'Changed'],
      ['companyWebsite', 'https://new.example.co.uk'],
    ];

    it('changes only the field sent, field by field, and keeps every other one', async () => {
      const client = await storedClient('field-by-field@example.com');
      let expected = await configOf(client.id);
      expect(expected).toMatchObject({
        perMinuteRate: 0.42,
        timezone: 'America/New_York',
        isActive: false,
        hasWebhookSigningSecret: true,
      });
      for (const [field, value, shown] of EDITS) {
        const res = await inject('PUT', `/api/admin/client-config/${client.id}`, admin, { [field]: value });
        expect(res.statusCode, `${field}: ${res.body}`).toBe(200);
        expected = { ...expected, ...(shown ?? { [field]: value }) };
        expect(await configOf(client.id), `after sending only ${field}`).toEqual(expected);
      }
    });

    it('keeps a deactivated client deactivated, with its rate, zone and details, when a body leaves them out', async () => {
      const client = await storedClient('deactivated@example.com');
      const before = await configOf(client.id);
      // The body: the fields the dialog requires and a new key.
      const res = await inject('PUT', `/api/admin/client-config/${client.id}`, admin, {
        firstName: 'Stella',
        lastName: 'Stored',
        email: 'deactivated@example.com',
        blandApiKey: 'good-key-rotated-5678',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().client).toEqual({ ...before, blandApiKey: 'goo…5678', apiKeyStatus: 'valid' });
      expect(res.json().client).toMatchObject({
        isActive: false,
        perMinuteRate: 0.42,
        timezone: 'America/New_York',
        companyName: 'Stored Co',
        phoneNumber: '+14155550100',
        city: 'Springfield',
        notes: 'Keep me',
      });
      const row = await t.deps.db
        .selectFrom('clients')
        .select(['is_active', 'per_minute_rate_cents', 'timezone', 'webhook_secret_enc'])
        .where('id', '=', client.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ is_active: 0, per_minute_rate_cents: 42, timezone: 'America/New_York' });
      expect(t.deps.secrets.decrypt(row.webhook_secret_enc as string)).toBe('stored-signing-secret');
    });

    it('changes nothing for an empty body', async () => {
      const client = await storedClient('empty-body@example.com');
      const before = await configOf(client.id);
      const res = await inject('PUT', `/api/admin/client-config/${client.id}`, admin, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(await configOf(client.id)).toEqual(before);
    });

    it('still clears a text field sent empty, and refuses an empty required one (400 naming it)', async () => {
      const client = await storedClient('clear-field@example.com');
      const cleared = await inject('PUT', `/api/admin/client-config/${client.id}`, admin, { notes: '' });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json().client).toMatchObject({ notes: null, city: 'Springfield' });
      const refused = await inject('PUT', `/api/admin/client-config/${client.id}`, admin, { firstName: '' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields).toEqual({ firstName: 'First name is required' });
    });
  });

  describe('PUT /api/client/account', () => {
    const EDITS: [string, string][] = [
      ['firstName', 'Nora'],
      ['lastName', 'Newman'],
      ['email', 'changed-account@example.com'],
      ['companyName', 'New Co'],
      ['phoneNumber', '+442071234567'],
      ['jobTitle', 'CTO'],
    ];

    it('changes only the field sent, field by field', async () => {
      const { cookie } = await createSignedInClient(t, {
        ...STORED,
        is_active: 1,
        email: 'account-fields@example.com',
        password: undefined,
      });
      let expected = (await inject('GET', '/api/client/session', cookie)).json();
      expect(expected).toMatchObject({
        companyName: 'Stored Co',
        phoneNumber: '+14155550100',
        jobTitle: 'Owner',
      });
      for (const [field, value] of EDITS) {
        const res = await inject('PUT', '/api/client/account', cookie, { [field]: value });
        expect(res.statusCode, `${field}: ${res.body}`).toBe(200);
        expected = { ...expected, [field]: value };
        // The account's own login is the person signed in: the session names their new address too.
        if (field === 'email') expected.user = { ...expected.user, email: value };
        expect(res.json().client, `after sending only ${field}`).toEqual(expected);
        expect((await inject('GET', '/api/client/session', cookie)).json()).toEqual(expected);
      }
    });

    it('keeps company, phone and job title when the form sends only the names and e-mail', async () => {
      const { cookie } = await createSignedInClient(t, {
        ...STORED,
        is_active: 1,
        email: 'account-names@example.com',
        password: undefined,
      });
      const res = await inject('PUT', '/api/client/account', cookie, {
        firstName: 'Stella',
        lastName: 'Stored',
        email: 'account-names@example.com',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().client).toMatchObject({
        companyName: 'Stored Co',
        phoneNumber: '+14155550100',
        jobTitle: 'Owner',
      });
    });
  });

  describe('PUT /api/client/notifications', () => {
    const SAVED = {
      emailNotifications: false,
      smsNotifications: true,
      webhookNotifications: false,
      monthlyReports: false,
      digest: 'daily',
      quietHours: { start: 22, end: 7 },
    };
    const EDITS: [string, unknown][] = [
      ['emailNotifications', true],
      ['smsNotifications', false],
      ['webhookNotifications', true],
      ['monthlyReports', true],
      ['digest', 'off'],
      ['quietHours', { start: 20, end: 6 }],
    ];

    it('changes only the field sent, field by field', async () => {
      const { cookie } = await createSignedInClient(t);
      const saved = await inject('PUT', '/api/client/notifications', cookie, SAVED);
      expect(saved.statusCode, saved.body).toBe(200);
      let expected = saved.json();
      expect(expected).toMatchObject(SAVED);
      for (const [field, value] of EDITS) {
        const res = await inject('PUT', '/api/client/notifications', cookie, { [field]: value });
        expect(res.statusCode, `${field}: ${res.body}`).toBe(200);
        expected = { ...expected, [field]: value };
        expect(res.json(), `after sending only ${field}`).toEqual(expected);
        expect((await inject('GET', '/api/client/notifications', cookie)).json()).toEqual(expected);
      }
    });

    it('a first partial save keeps the defaults of the fields it leaves out', async () => {
      const { cookie } = await createSignedInClient(t);
      const defaults = (await inject('GET', '/api/client/notifications', cookie)).json();
      const res = await inject('PUT', '/api/client/notifications', cookie, { smsNotifications: true });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ...defaults, smsNotifications: true });
    });
  });

  describe('PUT /api/{client,admin}/preferences', () => {
    it('keeps the stored columns when the body leaves them out', async () => {
      const { cookie } = await createSignedInClient(t);
      const columns = ['callId', 'duration'];
      for (const [url, who] of [
        ['/api/client/preferences', cookie],
        ['/api/admin/preferences', admin],
      ] as const) {
        const saved = await inject('PUT', url, who, { callLogColumns: columns });
        expect(saved.statusCode, saved.body).toBe(200);
        const kept = await inject('PUT', url, who, {});
        expect(kept.statusCode, kept.body).toBe(200);
        expect(kept.json()).toEqual({ callLogColumns: columns });
        expect((await inject('GET', url, who)).json()).toEqual({ callLogColumns: columns });
      }
    });
  });

  describe('PUT /api/client/outcomes and /api/admin/client-outcomes/{id}', () => {
    const LIST = [
      {
        name: 'Booked',
        color: '#16a34a',
        value: 120,
        needsAttention: true,
        notify: true,
        rules: [{ field: 'disposition_tag', op: 'equals', value: 'booked' }],
      },
      {
        name: 'Callback',
        color: '#2563eb',
        value: 15,
        needsAttention: false,
        notify: true,
        rules: [{ field: 'disposition_tag', op: 'equals', value: 'callback' }],
      },
    ];

    it("keeps an outcome's value, attention and notify flags when the body leaves them out, field by field", async () => {
      const { client, cookie } = await createSignedInClient(t);
      for (const [url, who] of [
        ['/api/client/outcomes', cookie],
        [`/api/admin/client-outcomes/${client.id}`, admin],
      ] as const) {
        const saved = await inject('PUT', url, who, { outcomes: LIST });
        expect(saved.statusCode, saved.body).toBe(200);
        for (const field of ['value', 'needsAttention', 'notify'] as const) {
          const partial = LIST.map((o) => {
            const { [field]: _, ...rest } = o;
            return rest;
          });
          const res = await inject('PUT', url, who, { outcomes: partial });
          expect(res.statusCode, `${field}: ${res.body}`).toBe(200);
          expect(res.json().outcomes, `without ${field}`).toEqual(LIST);
        }
        // A new outcome has none of them stored: it starts without a value and unflagged.
        const added = await inject('PUT', url, who, {
          outcomes: [
            ...LIST,
            { name: 'New', color: '#000000', rules: [{ field: 'status', op: 'equals', value: 'x' }] },
          ],
        });
        expect(added.statusCode, added.body).toBe(200);
        expect(added.json().outcomes[2]).toMatchObject({ value: null, needsAttention: false, notify: false });
      }
    });

    it('keeps the list when the body leaves it out', async () => {
      const { cookie } = await createSignedInClient(t);
      const saved = await inject('PUT', '/api/client/outcomes', cookie, { outcomes: LIST });
      expect(saved.statusCode, saved.body).toBe(200);
      const kept = await inject('PUT', '/api/client/outcomes', cookie, {});
      expect(kept.statusCode, kept.body).toBe(200);
      expect(kept.json().outcomes).toEqual(LIST);
    });
  });
});
