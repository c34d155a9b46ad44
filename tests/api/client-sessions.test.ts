/**
 * A person's own sessions: the list (device, address, last seen, this one marked), only
 * one's own; ending one (another's or another client's is a 404; the current one signs out);
 * ending all the others; at most 20 per user, the least recently seen ending first; the address
 * behind a trusted proxy; admins' sessions capped and recorded too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SESSIONS_PER_USER, TOUCH_INTERVAL_MS } from '../../src/server/auth/sessions';
import { cookieHeader, createAdminUser, createClient, loginAdmin, TEST_PASSWORD } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

let clock = Date.UTC(2026, 5, 10, 15, 0);
const MAC_CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

interface SessionItem {
  id: string;
  current: boolean;
  device: string;
  ip: string | null;
  createdAt: string;
  lastSeenAt: string;
}

describe(`client sessions (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // One proxy in front: the address is the client's, from X-Forwarded-For.
    t = await createTestApp({ now: () => clock, env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string) =>
    t.app.inject({ method, url, headers: { cookie } });

  async function signIn(email: string, userAgent = MAC_CHROME, address = '203.0.113.7') {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/client/login',
      payload: { email, password: TEST_PASSWORD },
      headers: { 'user-agent': userAgent, 'x-forwarded-for': address },
    });
    expect(res.statusCode, res.body).toBe(200);
    return cookieHeader(res.headers['set-cookie']);
  }

  async function sessionsOf(cookie: string): Promise<SessionItem[]> {
    const res = await send('GET', '/api/client/sessions', cookie);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const activity = (clientId: string) =>
    t.deps.db
      .selectFrom('client_activity')
      .select(['action', 'detail'])
      .where('client_id', '=', clientId)
      .where('action', '=', 'session_ended')
      .execute();

  it('lists the device, address and times of each of my sessions, this one marked, newest seen first', async () => {
    const client = await createClient(t.deps);
    const laptop = await signIn(client.email, MAC_CHROME, '203.0.113.7');
    clock += 60_000;
    const phone = await signIn(client.email, IPHONE_SAFARI, '198.51.100.20');
    const list = await sessionsOf(phone);
    expect(list).toEqual([
      {
        id: expect.any(String),
        current: true,
        device: 'Safari on iPhone',
        ip: '198.51.100.20',
        createdAt: new Date(clock).toISOString(),
        lastSeenAt: new Date(clock).toISOString(),
      },
      expect.objectContaining({ current: false, device: 'Chrome on macOS', ip: '203.0.113.7' }),
    ]);
    // Nothing derived from the cookie is shown.
    const hashes = await t.deps.db.selectFrom('sessions').select('id_hash').execute();
    const body = JSON.stringify(list);
    for (const { id_hash } of hashes) expect(body).not.toContain(id_hash);
    expect(body).not.toContain(phone.split('=')[1]);
    // The laptop's own view marks the laptop.
    expect((await sessionsOf(laptop)).find((s) => s.current)?.device).toBe('Chrome on macOS');
  });

  it('keeps last seen fresh, written at most every few minutes', async () => {
    const client = await createClient(t.deps);
    const cookie = await signIn(client.email);
    const signedInAt = clock;
    clock += TOUCH_INTERVAL_MS / 2;
    expect((await sessionsOf(cookie))[0].lastSeenAt).toBe(new Date(signedInAt).toISOString());
    clock += TOUCH_INTERVAL_MS;
    await sessionsOf(cookie);
    expect((await sessionsOf(cookie))[0].lastSeenAt).toBe(new Date(clock).toISOString());
  });

  it('lists only my own sessions: not another user’s of my client, not another client’s', async () => {
    const mine = await createClient(t.deps);
    const other = await createClient(t.deps);
    const myCookie = await signIn(mine.email);
    const otherCookie = await signIn(other.email);
    const otherSessions = await sessionsOf(otherCookie);
    expect(await sessionsOf(myCookie)).toHaveLength(1);
    // Ending another client's session by its id: 404, and it stays.
    const res = await send('DELETE', `/api/client/sessions/${otherSessions[0].id}`, myCookie);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Session not found' });
    expect(await sessionsOf(otherCookie)).toHaveLength(1);
    expect((await send('DELETE', '/api/client/sessions/no-such-session', myCookie)).statusCode).toBe(404);
  });

  it('ends another of my sessions: that browser is signed out, this one stays, the activity says so', async () => {
    const client = await createClient(t.deps);
    const laptop = await signIn(client.email, MAC_CHROME);
    const phone = await signIn(client.email, IPHONE_SAFARI);
    const phoneSession = (await sessionsOf(laptop)).find((s) => !s.current);
    const res = await send('DELETE', `/api/client/sessions/${phoneSession?.id}`, laptop);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, signedOut: false });
    expect((await send('GET', '/api/client/session', phone)).statusCode).toBe(401);
    expect((await send('GET', '/api/client/session', laptop)).statusCode).toBe(200);
    const lines = await activity(client.id);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0].detail ?? '{}')).toMatchObject({ device: 'Safari on iPhone', current: false });
  });

  it('ending the current session signs this browser out', async () => {
    const client = await createClient(t.deps);
    const cookie = await signIn(client.email);
    const [current] = await sessionsOf(cookie);
    const res = await send('DELETE', `/api/client/sessions/${current.id}`, cookie);
    expect(res.json()).toEqual({ success: true, signedOut: true });
    expect(String(res.headers['set-cookie'])).toMatch(/client_sid=;/);
    expect((await send('GET', '/api/client/session', cookie)).statusCode).toBe(401);
  });

  it('ends every other session of mine and answers how many', async () => {
    const client = await createClient(t.deps);
    const others = [await signIn(client.email), await signIn(client.email, IPHONE_SAFARI)];
    const cookie = await signIn(client.email);
    const res = await send('POST', '/api/client/sessions/end-others', cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    for (const other of others)
      expect((await send('GET', '/api/client/session', other)).statusCode).toBe(401);
    expect(await sessionsOf(cookie)).toEqual([expect.objectContaining({ current: true })]);
    expect((await send('POST', '/api/client/sessions/end-others', cookie)).json()).toEqual({ ended: 0 });
    const lines = await activity(client.id);
    expect(lines.map((l) => JSON.parse(l.detail ?? '{}'))).toEqual([{ others: 2 }]);
  });

  it(`keeps at most ${MAX_SESSIONS_PER_USER} sessions per user: a new one ends the least recently seen`, async () => {
    const client = await createClient(t.deps);
    const first = await signIn(client.email);
    const cookies: string[] = [];
    for (let i = 1; i < MAX_SESSIONS_PER_USER; i++) {
      clock += 1_000;
      cookies.push(await signIn(client.email));
    }
    // The first is seen again later than the second: the second is the least recently seen.
    clock += TOUCH_INTERVAL_MS + 1;
    expect((await send('GET', '/api/client/session', first)).statusCode).toBe(200);
    expect(await sessionsOf(first)).toHaveLength(MAX_SESSIONS_PER_USER);
    clock += 1_000;
    const newest = await signIn(client.email);
    const list = await sessionsOf(newest);
    expect(list).toHaveLength(MAX_SESSIONS_PER_USER);
    expect((await send('GET', '/api/client/session', cookies[0])).statusCode).toBe(401);
    expect((await send('GET', '/api/client/session', first)).statusCode).toBe(200);
    expect((await send('GET', '/api/client/session', cookies[1])).statusCode).toBe(200);
  });

  it('records an admin’s device too, and caps an admin’s sessions alike', async () => {
    const admin = await createAdminUser(t.deps);
    const cookies: string[] = [];
    for (let i = 0; i <= MAX_SESSIONS_PER_USER; i++) {
      clock += 1_000;
      cookies.push(await loginAdmin(t.app, admin.username));
    }
    const rows = await t.deps.db
      .selectFrom('sessions')
      .select(['public_id', 'ip'])
      .where('kind', '=', 'admin')
      .where('subject_id', '=', admin.id)
      .execute();
    expect(rows).toHaveLength(MAX_SESSIONS_PER_USER);
    expect(rows.every((r) => r.public_id.length > 10)).toBe(true);
    expect((await send('GET', '/api/admin/session', cookies[0])).statusCode).toBe(401);
    expect((await send('GET', '/api/admin/session', cookies[MAX_SESSIONS_PER_USER])).statusCode).toBe(200);
  });

  it('refuses a bad session id with a clear 400', async () => {
    const client = await createClient(t.deps);
    const cookie = await signIn(client.email);
    const res = await send('DELETE', '/api/client/sessions/%20', cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/client/sessions' });
    expect(res.statusCode).toBe(401);
  });
});
