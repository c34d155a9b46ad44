/**
 * Per-client settings (outcomes, quality thresholds, privacy, erasure) are each written once and
 * mounted twice (server/clients/client-scope.ts): the client's own under /api/client/ and an
 * admin's naming the client under /api/admin/. Neither mount lets a client reach another client's
 * settings: the client's takes its client from the session only, the admin's refuses a client
 * session whichever client it names.
 */
import { setTimeout } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/contract/outcomes';
import { storeCalls } from '../helpers/calls';
import { createAdminUser, createSignedInClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

type Method = 'GET' | 'POST' | 'PUT';

const CALLER = '+14155550123';
const booked: Outcome = {
  name: 'Booked appointment',
  color: '#16a34a',
  value: 120,
  needsAttention: false,
  notify: true,
  rules: [{ field: 'disposition_tag', op: 'equals', value: 'APPOINTMENT_BOOKED' }],
};

/** Every per-client settings endpoint: its method, its two mounts, and a body that passes validation. */
const ENDPOINTS: { method: Method; client: string; admin: string; body?: object }[] = [
  { method: 'GET', client: '/api/client/outcomes', admin: '/api/admin/client-outcomes/:clientId' },
  {
    method: 'PUT',
    client: '/api/client/outcomes',
    admin: '/api/admin/client-outcomes/:clientId',
    body: { outcomes: [booked] },
  },
  {
    method: 'POST',
    client: '/api/client/outcomes/preview',
    admin: '/api/admin/client-outcomes/:clientId/preview',
    body: { outcomes: [booked] },
  },
  {
    method: 'GET',
    client: '/api/client/quality/thresholds',
    admin: '/api/admin/client-quality/:clientId/thresholds',
  },
  {
    method: 'PUT',
    client: '/api/client/quality/thresholds',
    admin: '/api/admin/client-quality/:clientId/thresholds',
    body: { deadAirMs: 6000 },
  },
  { method: 'GET', client: '/api/client/privacy', admin: '/api/admin/client-privacy/:clientId' },
  {
    method: 'PUT',
    client: '/api/client/privacy',
    admin: '/api/admin/client-privacy/:clientId',
    body: { redaction: { dates: true } },
  },
  {
    method: 'POST',
    client: '/api/client/erasure',
    admin: '/api/admin/client-erasure/:clientId',
    body: { phone: CALLER },
  },
  {
    method: 'POST',
    client: '/api/client/erasure/preview',
    admin: '/api/admin/client-erasure/:clientId/preview',
    body: { phone: CALLER },
  },
  { method: 'GET', client: '/api/client/erasure', admin: '/api/admin/client-erasure/:clientId' },
  { method: 'GET', client: '/api/client/erasure/:id', admin: '/api/admin/client-erasure/:clientId/:id' },
  {
    method: 'GET',
    client: '/api/client/erasure/:id/receipt',
    admin: '/api/admin/client-erasure/:clientId/:id/receipt',
  },
  {
    method: 'GET',
    client: '/api/client/erasure/:id/report',
    admin: '/api/admin/client-erasure/:clientId/:id/report',
  },
  {
    method: 'POST',
    client: '/api/client/subject-export',
    admin: '/api/admin/client-subject-export/:clientId',
    body: { phone: CALLER },
  },
];

describe(`client scope: one client never reaches another's settings (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    const user = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, user.username, user.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const send = async (method: Method, url: string, cookie: string, payload?: object) => {
    const res = await t.app.inject({ method, url, payload, headers: { cookie } });
    return { status: res.statusCode, body: res.body, json: () => res.json() };
  };
  /** Polls an erasure until its background work is done. */
  async function erasureDone(url: string, cookie: string) {
    for (let i = 0; i < 200; i++) {
      const res = await send('GET', url, cookie);
      if (res.json().state === 'done') return res.json();
      await setTimeout(25);
    }
    throw new Error('erasure did not finish');
  }

  it('mounts every settings endpoint for both audiences', () => {
    const routes = new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`));
    for (const { method, client, admin: adminPath } of ENDPOINTS) {
      expect(routes, client).toContain(`${method} ${client}`);
      expect(routes, adminPath).toContain(`${method} ${adminPath}`);
    }
  });

  it('refuses a client session on every admin mount, naming another client or its own, and changes nothing', async () => {
    const a = await createSignedInClient(t);
    const b = await createSignedInClient(t);
    const before = await send('GET', `/api/admin/client-privacy/${b.client.id}`, admin);
    expect(before.status, before.body).toBe(200);
    for (const { method, admin: path, body } of ENDPOINTS)
      for (const named of [b.client.id, a.client.id]) {
        const url = path.replace(':clientId', named).replace(':id', 'some-erasure');
        const res = await send(method, url, a.cookie, body);
        expect(res.status, `${method} ${url}: ${res.body}`).toBe(403);
      }
    expect((await send('GET', `/api/admin/client-privacy/${b.client.id}`, admin)).json()).toEqual(
      before.json(),
    );
    expect((await send('GET', `/api/admin/client-erasure/${b.client.id}`, admin)).json().erasures).toEqual(
      [],
    );
    const outcomes = await send('GET', `/api/admin/client-outcomes/${b.client.id}`, admin);
    expect(outcomes.json().outcomes.map((o: Outcome) => o.name)).not.toContain(booked.name);
  });

  it("answers the client's mount with the session's client only", async () => {
    const a = await createSignedInClient(t);
    const b = await createSignedInClient(t);
    await storeCalls(t.deps, b.client, [{ fromNumber: CALLER, createdAt: Date.now() - 60_000 }]);

    // The agency sets b's settings apart from the defaults, through the admin's mount.
    const bOutcomes = `/api/admin/client-outcomes/${b.client.id}`;
    const bThresholds = `/api/admin/client-quality/${b.client.id}/thresholds`;
    const bPrivacy = `/api/admin/client-privacy/${b.client.id}`;
    expect((await send('PUT', bOutcomes, admin, { outcomes: [booked] })).status).toBe(200);
    expect((await send('PUT', bThresholds, admin, { deadAirMs: 6000 })).status).toBe(200);
    expect((await send('PUT', bPrivacy, admin, { redaction: { dates: true } })).status).toBe(200);
    const asked = await send('POST', `/api/admin/client-erasure/${b.client.id}`, admin, {
      phone: '+14155550999',
    });
    expect(asked.status, asked.body).toBe(202);
    const erasureId: string = asked.json().id;
    await erasureDone(`/api/admin/client-erasure/${b.client.id}/${erasureId}`, admin);

    // a reads its own, never b's.
    const names = (await send('GET', '/api/client/outcomes', a.cookie))
      .json()
      .outcomes.map((o: Outcome) => o.name);
    expect(names).not.toContain(booked.name);
    expect(
      (await send('GET', '/api/client/quality/thresholds', a.cookie)).json().thresholds.deadAirMs,
    ).not.toBe(6000);
    expect((await send('GET', '/api/client/privacy', a.cookie)).json().redaction.dates).toBe(false);
    expect((await send('GET', '/api/client/erasure', a.cookie)).json().erasures).toEqual([]);
    for (const url of [
      `/api/client/erasure/${erasureId}`,
      `/api/client/erasure/${erasureId}/receipt`,
      `/api/client/erasure/${erasureId}/report`,
    ])
      expect((await send('GET', url, a.cookie)).status, url).toBe(404);
    // b's caller is not a's: the preview and the caller's export find none of b's calls.
    const preview = await send('POST', '/api/client/erasure/preview', a.cookie, { phone: CALLER });
    expect(preview.json().count).toBe(0);
    const exported = await send('POST', '/api/client/subject-export', a.cookie, { phone: CALLER });
    expect(exported.status, exported.body).toBe(200);
    expect(JSON.parse(exported.body).calls).toEqual([]);
    const bPreview = await send('POST', `/api/admin/client-erasure/${b.client.id}/preview`, admin, {
      phone: CALLER,
    });
    expect(bPreview.json().count).toBe(1);

    // a's writes change a's settings only.
    const own = { ...booked, name: 'Callback promised' };
    expect((await send('PUT', '/api/client/outcomes', a.cookie, { outcomes: [own] })).status).toBe(200);
    expect((await send('PUT', '/api/client/quality/thresholds', a.cookie, { deadAirMs: 9000 })).status).toBe(
      200,
    );
    const privacy = await send('PUT', '/api/client/privacy', a.cookie, { redaction: { emails: true } });
    expect(privacy.status, privacy.body).toBe(200);
    const bNames = (await send('GET', bOutcomes, admin)).json().outcomes.map((o: Outcome) => o.name);
    expect(bNames).toContain(booked.name);
    expect(bNames).not.toContain(own.name);
    expect((await send('GET', bThresholds, admin)).json().thresholds.deadAirMs).toBe(6000);
    const bRedaction = (await send('GET', bPrivacy, admin)).json().redaction;
    expect(bRedaction).toMatchObject({ dates: true, emails: false });
    expect((await send('GET', '/api/client/privacy', a.cookie)).json().redaction.emails).toBe(true);
  });
});
