import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderUnavailableError } from '../../src/server/providers/voice/errors';
import type { VoiceProvider } from '../../src/server/providers/voice/types';
import { createClient, loginClient, TEST_PASSWORD } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const keys: Record<string, 'valid' | 'invalid' | 'down'> = {
  'good-key-123': 'valid',
  'bad-key-456': 'invalid',
  'slow-key-789': 'down',
};
const fakeVoice = {
  async checkKey(key: string) {
    const answer = keys[key] ?? 'invalid';
    if (answer === 'down') throw new ProviderUnavailableError();
    return answer;
  },
} as unknown as VoiceProvider;

describe(`client account settings (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ voice: fakeVoice });
  });
  afterAll(async () => {
    await t.close();
  });

  const send = (method: 'GET' | 'PUT' | 'POST', url: string, cookie?: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as object, headers: cookie ? { cookie } : {} });

  const validAccount = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    companyName: 'Analytical Engines',
    phoneNumber: '+1 415 555 0123',
    jobTitle: 'Founder',
  };

  it('refuses every account endpoint without a client session', async () => {
    for (const [method, url] of [
      ['PUT', '/api/client/account'],
      ['POST', '/api/client/change-password'],
      ['PUT', '/api/client/api-key'],
      ['GET', '/api/client/notifications'],
      ['PUT', '/api/client/notifications'],
    ] as const) {
      const res = await send(method, url, undefined, {});
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('updates the account and answers the refreshed session client', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const res = await send('PUT', '/api/client/account', cookie, {
      ...validAccount,
      email: ' Ada@Example.com ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      client: {
        id: client.id,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phoneNumber: '+14155550123',
        jobTitle: 'Founder',
      },
    });
    const session = await send('GET', '/api/client/session', cookie);
    expect(session.json()).toMatchObject({ email: 'ada@example.com', companyName: 'Analytical Engines' });

    // Optional fields cleared with empty strings become null.
    const cleared = await send('PUT', '/api/client/account', cookie, {
      ...validAccount,
      companyName: '',
      phoneNumber: '',
      jobTitle: '',
    });
    expect(cleared.json().client).toMatchObject({ companyName: null, phoneNumber: null, jobTitle: null });
  });

  it('answers the SPEC §5 validation messages', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const res = await send('PUT', '/api/client/account', cookie, {
      ...validAccount,
      firstName: ' ',
      lastName: '',
      email: 'not-an-email',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Invalid email address',
    });
    const phone = await send('PUT', '/api/client/account', cookie, {
      ...validAccount,
      email: client.email,
      phoneNumber: '12',
    });
    expect(phone.statusCode).toBe(400);
    expect(phone.json().fields.phoneNumber).toMatch(/international format/);
    const notJson = await t.app.inject({
      method: 'PUT',
      url: '/api/client/account',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{nonsense',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toBe('Request body is not valid JSON');
  });

  it('keeps e-mail addresses unique (409) and changes only the session client', async () => {
    const taken = await createClient(t.deps, { email: 'taken@example.com' });
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const res = await send('PUT', '/api/client/account', cookie, {
      ...validAccount,
      email: 'TAKEN@example.com',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/already used/);
    const other = await t.deps.db
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', taken.id)
      .executeTakeFirstOrThrow();
    expect(other.first_name).toBe('Test');
    // An id in the body is ignored: the client comes from the session only.
    const sneaky = await send('PUT', '/api/client/account', cookie, {
      ...validAccount,
      email: client.email,
      id: taken.id,
    });
    expect(sneaky.statusCode).toBe(200);
    expect(sneaky.json().client.id).toBe(client.id);
  });

  it('changes the password, ends the other sessions and keeps this one', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const otherBrowser = await loginClient(t.app, client.email);

    const wrong = await send('POST', '/api/client/change-password', cookie, {
      currentPassword: 'wrong',
      newPassword: 'a brand new secret',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Current password is incorrect');
    const short = await send('POST', '/api/client/change-password', cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.newPassword).toBe('New password must be at least 10 characters');

    const ok = await send('POST', '/api/client/change-password', cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'a brand new secret',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true });
    expect((await send('GET', '/api/client/session', cookie)).statusCode).toBe(200);
    expect((await send('GET', '/api/client/session', otherBrowser)).statusCode).toBe(401);

    const oldLogin = await send('POST', '/api/client/login', undefined, {
      email: client.email,
      password: TEST_PASSWORD,
    });
    expect(oldLogin.statusCode).toBe(401);
    await loginClient(t.app, client.email, 'a brand new secret');
  });

  it('saves an API key only after the provider accepted it', async () => {
    const client = await createClient(t.deps, { sync_watermark: 12345, client_manages_api_key: 1 });
    const cookie = await loginClient(t.app, client.email);
    const stored = () =>
      t.deps.db.selectFrom('clients').selectAll().where('id', '=', client.id).executeTakeFirstOrThrow();

    const bad = await send('PUT', '/api/client/api-key', cookie, { blandApiKey: 'bad-key-456' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/rejected this API key/);
    expect((await stored()).bland_api_key_enc).toBeNull();

    const down = await send('PUT', '/api/client/api-key', cookie, { blandApiKey: 'slow-key-789' });
    expect(down.statusCode).toBe(502);
    expect((await stored()).bland_api_key_enc).toBeNull();

    const empty = await send('PUT', '/api/client/api-key', cookie, { blandApiKey: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.blandApiKey).toBe('API key is required');

    const good = await send('PUT', '/api/client/api-key', cookie, { blandApiKey: ' good-key-123 ' });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({ success: true, apiKeyStatus: 'valid' });
    const row = await stored();
    expect(t.deps.secrets.decrypt(row.bland_api_key_enc!)).toBe('good-key-123');
    expect(row.api_key_status).toBe('valid');
    expect(row.sync_watermark).toBeNull();
    const session = await send('GET', '/api/client/session', cookie);
    expect(session.json().apiKeyStatus).toBe('valid');
    expect(session.body).not.toContain('good-key-123');
  });

  it('answers the SPEC defaults for notifications and persists what is saved', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const defaults = await send('GET', '/api/client/notifications', cookie);
    expect(defaults.json()).toEqual({
      emailNotifications: true,
      smsNotifications: false,
      webhookNotifications: true,
      monthlyReports: true,
      digest: 'weekly',
      quietHours: { start: 21, end: 8 },
      alertWindowMinutes: 60,
      webhookUrl: null,
    });

    // The four switches alone, as SPEC's form sends them: the rest keeps its values.
    const switches = {
      emailNotifications: false,
      smsNotifications: true,
      webhookNotifications: false,
      monthlyReports: true,
    };
    const prefs = { ...defaults.json(), ...switches };
    const saved = await send('PUT', '/api/client/notifications', cookie, switches);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(prefs);
    expect((await send('GET', '/api/client/notifications', cookie)).json()).toEqual(prefs);
    const again = {
      ...switches,
      monthlyReports: false,
      digest: 'daily',
      quietHours: { start: 22, end: 7 },
      alertWindowMinutes: 180,
    };
    expect((await send('PUT', '/api/client/notifications', cookie, again)).json()).toEqual({
      ...again,
      webhookUrl: null,
    });
    expect((await send('GET', '/api/client/notifications', cookie)).json()).toEqual({
      ...again,
      webhookUrl: null,
    });
    for (const bad of [
      { ...switches, digest: 'hourly' },
      { ...switches, quietHours: { start: 24, end: 8 } },
      { ...switches, alertWindowMinutes: 4 },
      { ...switches, alertWindowMinutes: 1441 },
      { ...switches, alertWindowMinutes: 90.5 },
    ]) {
      expect((await send('PUT', '/api/client/notifications', cookie, bad)).statusCode).toBe(400);
    }

    // Another client still sees the defaults.
    const other = await createClient(t.deps);
    const otherCookie = await loginClient(t.app, other.email);
    expect((await send('GET', '/api/client/notifications', otherCookie)).json()).toEqual(defaults.json());

    const bad = await send('PUT', '/api/client/notifications', cookie, { ...prefs, smsNotifications: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.smsNotifications).toBe('Expected boolean, received string');
  });
});
