/**
 * The activity log the client reads: Owners only; newest first, paged, filtered by
 * person and action; bad queries are 400s; another client's lines never show; a removed user keeps
 * their name; the CSV of the same filter (formula cells guarded) is itself an `export` line; lines
 * past 365 days are deleted; an agency admin's view is one line per visit; settings, key and
 * password changes are recorded.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../src/contract/activity';
import { paginationOf } from '../../src/contract/common';
import { ACTIVITY_RETENTION_DAYS, activityPage, pruneActivity } from '../../src/server/activity/read';
import { VIEW_QUIET_MS } from '../../src/server/activity/record';
import { hashPassword } from '../../src/server/auth/passwords';
import {
  createAdminUser,
  createSignedInClient,
  loginAdmin,
  loginClient,
  TEST_PASSWORD,
} from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;
let clock = Date.UTC(2026, 5, 10, 15, 0);

describe(`client activity log (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(() => t.close());

  const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const tick = () => {
    clock += 1_000;
  };

  /** A person of the client, active, signed in. */
  async function addUser(clientId: string, role: 'owner' | 'manager' | 'viewer', name: string) {
    const id = randomUUID();
    const email = `${id.slice(0, 8)}@people.test`;
    await t.deps.db
      .insertInto('client_users')
      .values({
        id,
        client_id: clientId,
        email,
        name,
        password_hash: await hashPassword(TEST_PASSWORD),
        role,
        permissions: '[]',
        status: 'active',
        is_account_login: 0,
        invite_token_hash: null,
        invite_expires_at: null,
        invited_by: null,
        created_at: clock,
        updated_at: clock,
        last_sign_in_at: null,
      })
      .execute();
    tick();
    return { id, email, cookie: await loginClient(t.app, email) };
  }

  async function page(cookie: string, query = '') {
    const res = await get(`/api/client/activity${query}`, cookie);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: ActivityItem[]; pagination: Record<string, number> };
  }

  it('lists sign-ins newest first with the person’s name, paged', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const viewer = await addUser(client.id, 'viewer', 'Vera Viewer');
    tick();
    await t.app.inject({
      method: 'POST',
      url: '/api/client/login',
      payload: { email: viewer.email, password: 'wrong password!' },
    });
    const all = await page(cookie);
    expect(all.items.map((i) => [i.action, i.userName])).toEqual([
      ['sign_in_failed', 'Vera Viewer'],
      ['sign_in', 'Vera Viewer'],
      ['sign_in', 'Test Client'],
    ]);
    expect(all.items[0]).toEqual({
      at: new Date(clock).toISOString(),
      userId: viewer.id,
      userName: 'Vera Viewer',
      action: 'sign_in_failed',
      detail: { email: viewer.email },
    });
    expect(all.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
    const second = await page(cookie, '?page=2&limit=2');
    expect(second.items.map((i) => i.userName)).toEqual(['Test Client']);
    expect(second.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
  });

  it('counts lines only up to a bound, and pages on past it', async () => {
    const { client } = await createSignedInClient(t);
    const lines = Array.from({ length: 7 }, (_, i) => ({
      id: randomUUID(),
      client_id: client.id,
      at: clock - i * 1_000,
      user_id: null,
      action: 'export',
      detail: null,
    }));
    await t.deps.db.insertInto('client_activity').values(lines).execute();
    const exact = await activityPage(t.deps.db, client.id, { action: 'export' }, 1, 2, 10);
    expect([exact.total, exact.totalIsLowerBound]).toEqual([7, false]);
    const bounded = await activityPage(t.deps.db, client.id, { action: 'export' }, 1, 2, 4);
    expect([bounded.total, bounded.totalIsLowerBound]).toEqual([4, true]);
    // Page 3 (lines 5 and 6) is past the bound: full, so a next page is offered, and it is read.
    const past = await activityPage(t.deps.db, client.id, { action: 'export' }, 3, 2, 4);
    expect(past.items.map((i) => i.at)).toEqual(
      [lines[4], lines[5]].map((l) => new Date(l.at).toISOString()),
    );
    expect(paginationOf(3, 2, past.total, { lowerBound: true, fullPage: true })).toEqual({
      page: 3,
      limit: 2,
      total: 4,
      totalPages: 4,
      totalIsLowerBound: true,
    });
    const last = await activityPage(t.deps.db, client.id, { action: 'export' }, 4, 2, 4);
    expect(last.items).toHaveLength(1);
  });

  it('filters by person and by action', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const manager = await addUser(client.id, 'manager', 'Max Manager');
    tick();
    await t.app.inject({
      method: 'PUT',
      url: '/api/client/outcomes',
      headers: { cookie: manager.cookie },
      payload: { outcomes: [] },
    });
    const mine = await page(cookie, `?userId=${manager.id}`);
    expect(mine.items.every((i) => i.userId === manager.id)).toBe(true);
    expect(mine.items.map((i) => i.action)).toEqual(['settings_change', 'sign_in']);
    expect(mine.items[0].detail).toEqual({ what: 'outcomes' });
    const signIns = await page(cookie, '?action=sign_in');
    expect(signIns.items.map((i) => i.userName)).toEqual(['Max Manager', 'Test Client']);
    const both = await page(cookie, `?action=sign_in&userId=${manager.id}`);
    expect(both.pagination.total).toBe(1);
  });

  it('refuses bad queries with a 400 naming the parameter', async () => {
    const { cookie } = await createSignedInClient(t);
    for (const query of ['?page=0', '?limit=500', '?limit=abc', '?action=bogus', '?userId=']) {
      const res = await get(`/api/client/activity${query}`, cookie);
      expect(res.statusCode, query).toBe(400);
      const name = query.slice(1).split('=')[0];
      expect(Object.keys(res.json().fields ?? {}), query).toContain(name);
    }
    const csv = await get('/api/client/activity/export?action=nope', cookie);
    expect(csv.statusCode).toBe(400);
  });

  it('is for Owners only', async () => {
    const { client } = await createSignedInClient(t);
    const manager = await addUser(client.id, 'manager', 'Max Manager');
    const viewer = await addUser(client.id, 'viewer', 'Vera Viewer');
    const owner = await addUser(client.id, 'owner', 'Olga Owner');
    for (const cookie of [manager.cookie, viewer.cookie]) {
      for (const url of ['/api/client/activity', '/api/client/activity/export']) {
        const res = await get(url, cookie);
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toContain('users');
      }
    }
    expect((await get('/api/client/activity', owner.cookie)).statusCode).toBe(200);
  });

  it('never shows another client’s lines, whatever the filter', async () => {
    const mine = await createSignedInClient(t);
    const other = await createSignedInClient(t);
    const theirs = await addUser(other.client.id, 'manager', 'Other Person');
    const all = await page(mine.cookie);
    expect(all.items).toHaveLength(1);
    expect(JSON.stringify(all)).not.toContain('Other Person');
    const filtered = await page(mine.cookie, `?userId=${theirs.id}`);
    expect(filtered.items).toEqual([]);
    const csv = await get(`/api/client/activity/export?userId=${theirs.id}`, mine.cookie);
    expect(csv.body).not.toContain('Other Person');
  });

  it('keeps a removed person’s name on their lines', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const gone = await addUser(client.id, 'viewer', 'Gus Gone');
    tick();
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/client/users/${gone.id}`,
      headers: { cookie },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const lines = await page(cookie, `?userId=${gone.id}`);
    expect(lines.items.map((i) => [i.action, i.userName])).toEqual([['sign_in', 'Gus Gone']]);
  });

  it('downloads the filtered log as CSV, guards formula cells, and records the export', async () => {
    const { client, cookie } = await createSignedInClient(t);
    await addUser(client.id, 'viewer', '=HYPERLINK("http://evil.test")');
    tick();
    const res = await get('/api/client/activity/export?action=sign_in', cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="activity-2026-06-10.csv"');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('Date and time,Time zone,Person,Action,Details');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(lines[1]).toContain('Signed in');
    expect(lines[2]).toContain('Test Client');
    const exports = await page(cookie, '?action=export');
    expect(exports.items).toEqual([
      expect.objectContaining({
        userName: 'Test Client',
        detail: { what: 'activity log', action: 'sign_in' },
      }),
    ]);
  });

  it(`deletes lines older than ${ACTIVITY_RETENTION_DAYS} days, in batches, and keeps the rest`, async () => {
    const { client, cookie } = await createSignedInClient(t);
    const old = clock - (ACTIVITY_RETENTION_DAYS + 1) * DAY_MS;
    const rows = Array.from({ length: 1_205 }, (_, i) => ({
      id: randomUUID(),
      client_id: client.id,
      at: old - i,
      user_id: null,
      action: 'sign_in_failed',
      detail: null,
    }));
    for (let i = 0; i < rows.length; i += 400)
      await t.deps.db
        .insertInto('client_activity')
        .values(rows.slice(i, i + 400))
        .execute();
    await t.deps.db
      .insertInto('client_activity')
      .values({
        id: randomUUID(),
        client_id: client.id,
        at: clock - (ACTIVITY_RETENTION_DAYS - 1) * DAY_MS,
        user_id: null,
        action: 'sign_in_failed',
        detail: null,
      })
      .execute();
    expect(await pruneActivity(t.deps.db, clock)).toBeGreaterThanOrEqual(1_205);
    const left = await page(cookie);
    expect(left.items.map((i) => i.action)).toEqual(['sign_in', 'sign_in_failed']);
  });

  it('records an agency admin’s view of the dashboard once per visit, per admin', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const ada = await createAdminUser(t.deps);
    const bob = await createAdminUser(t.deps);
    const adaCookie = await loginAdmin(t.app, ada.username);
    const bobCookie = await loginAdmin(t.app, bob.username);
    const open = (c: string) => get(`/api/admin/client-data/${client.id}`, c);
    expect((await open(adaCookie)).statusCode).toBe(200);
    tick();
    await open(adaCookie);
    await open(bobCookie);
    let views = await page(cookie, '?action=view_as_client');
    expect(views.items).toHaveLength(2);
    expect(views.items.map((i) => i.userName).sort()).toEqual(['Ada Admin (agency)', 'Ada Admin (agency)']);
    expect(views.items.every((i) => i.userId === null)).toBe(true);
    expect(views.items.map((i) => i.detail?.adminUsername).sort()).toEqual(
      [ada.username, bob.username].sort(),
    );
    clock += VIEW_QUIET_MS + 1;
    await open(adaCookie);
    views = await page(cookie, '?action=view_as_client');
    expect(views.items).toHaveLength(3);
    // Another client's log has none of it.
    const other = await createSignedInClient(t);
    expect((await page(other.cookie, '?action=view_as_client')).items).toEqual([]);
  });

  it('records settings, key and password changes', async () => {
    const { cookie } = await createSignedInClient(t);
    const send = (method: 'PUT' | 'POST', url: string, payload: object) =>
      t.app.inject({ method, url, payload, headers: { cookie } });
    expect((await send('PUT', '/api/client/notifications', { emailAlerts: false })).statusCode).toBe(200);
    tick();
    expect((await send('PUT', '/api/client/account', { jobTitle: 'Boss' })).statusCode).toBe(200);
    tick();
    expect(
      (await send('PUT', '/api/client/webhook-signing-secret', { secret: 'whsec_abcdefghijklmnop' }))
        .statusCode,
    ).toBe(200);
    tick();
    const changed = await send('POST', '/api/client/change-password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'another long password',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const lines = (await page(cookie)).items.filter((i) => i.action !== 'sign_in');
    expect(lines.map((i) => [i.action, i.detail])).toEqual([
      ['password_change', expect.any(Object)],
      ['key_change', { what: 'webhook signing secret', change: 'set' }],
      ['settings_change', { what: 'profile', fields: ['jobTitle'] }],
      ['settings_change', { what: 'notifications' }],
    ]);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/client/activity' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/client/activity/export' })).statusCode).toBe(401);
  });
});
