/**
 * Issue 12's sample-data rules and issue 21's creation caps, on the server: sample calls are free,
 * marked, removable together, offered only before the first real call, and nobody can create
 * sample sets or wizard drafts without bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minutesUsedThisMonth } from '../../src/server/call-rows/usage';
import { SAMPLE_MESSAGES, SEED_CALL_COUNT } from '../../src/server/demo/sample-data-routes';
import { blandCallBody } from '../helpers/bland';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

// The defaults (config.ts): the README lists them with their environment variables.
const SEEDS_PER_DAY = 5;
const DRAFTS_PER_HOUR = 60;

describe(`sample data and creation caps (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const as = (cookie: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie } });

  it('sample calls are free, never reach usage or revenue, and go away together', async () => {
    const client = await createClient(t.deps, { per_minute_rate_cents: 20 });
    const cookie = await loginClient(t.app, client.email);
    expect((await as(cookie, 'POST', '/api/demo/seed')).json()).toEqual({ success: true, inserted: 25 });

    expect(await minutesUsedThisMonth(t.deps.db, client, t.deps.now())).toBe(0);
    const admin = await createAdminUser(t.deps);
    const adminCookie = await loginAdmin(t.app, admin.username, admin.password);
    const listed = (await as(adminCookie, 'GET', '/api/admin/clients')).json();
    const row = listed.find((c: { id: string }) => c.id === client.id);
    expect(row.totalCost).toBe(0);
    expect((await as(adminCookie, 'GET', '/api/admin/stats')).json().totalRevenue ?? 0).toBe(0);

    const removed = await as(cookie, 'DELETE', '/api/client/sample-calls');
    expect(removed.json()).toEqual({ success: true, deleted: 25 });
    expect((await as(cookie, 'GET', '/api/client/calls?status=all')).json().pagination.total).toBe(0);
    expect((await as(cookie, 'GET', '/api/client/stats?dateRange=7d')).json().totalCalls).toBe(0);
  });

  it('is offered only before the first real call', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const delivered = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/voice/${client.webhook_token}`,
      payload: blandCallBody(),
    });
    expect(delivered.statusCode).toBe(200);
    const seed = await as(cookie, 'POST', '/api/demo/seed');
    expect(seed.statusCode).toBe(409);
    expect(seed.json().message).toMatch(/before your first real call/);
    // The real call is usage; 90 s is 2 minutes rounded.
    expect(await minutesUsedThisMonth(t.deps.db, client, t.deps.now())).toBe(2);
    // Removing samples never touches real calls.
    expect((await as(cookie, 'DELETE', '/api/client/sample-calls')).json()).toEqual({
      success: true,
      deleted: 0,
    });
    expect((await as(cookie, 'GET', '/api/client/calls?status=all')).json().pagination.total).toBe(1);
  });

  it('adds one sample set when the button is pressed many times at once', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const answers = await Promise.all(Array.from({ length: 4 }, () => as(cookie, 'POST', '/api/demo/seed')));
    const statuses = answers.map((a) => a.statusCode).sort();
    // Four presses stay under the day's cap of five, so each refusal is the one-set rule.
    expect(statuses).toEqual([200, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) {
      expect(refused.json()).toEqual({ message: SAMPLE_MESSAGES.alreadySeeded });
    }
    const listed = (await as(cookie, 'GET', '/api/client/calls?status=all')).json();
    expect(listed.pagination.total).toBe(SEED_CALL_COUNT);
  });

  it(`caps sample sets at ${SEEDS_PER_DAY} a day per client, with Retry-After`, async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    for (let i = 0; i < SEEDS_PER_DAY; i++) {
      expect((await as(cookie, 'POST', '/api/demo/seed')).statusCode).toBe(200);
      expect((await as(cookie, 'DELETE', '/api/client/sample-calls')).statusCode).toBe(200);
    }
    const over = await as(cookie, 'POST', '/api/demo/seed');
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await as(cookie, 'GET', '/api/client/calls?status=all')).json().pagination.total).toBe(0);
  });

  it(`caps wizard drafts at ${DRAFTS_PER_HOUR} an hour per admin`, async () => {
    const admin = await createAdminUser(t.deps, 'drafter');
    const cookie = await loginAdmin(t.app, admin.username, admin.password);
    const draft = (n: number) =>
      as(cookie, 'POST', '/api/admin/generate-webhook', {
        firstName: 'Draft',
        lastName: `Number${n}`,
        email: `draft-${n}@example.com`,
      });
    for (let n = 0; n < DRAFTS_PER_HOUR; n++) expect((await draft(n)).statusCode).toBe(201);
    const over = await draft(DRAFTS_PER_HOUR);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/at most 60 client drafts per hour/);
    const drafts = await t.deps.db
      .selectFrom('clients')
      .select('id')
      .where('email', 'like', 'draft-%@example.com')
      .execute();
    expect(drafts).toHaveLength(DRAFTS_PER_HOUR);
  });
});
