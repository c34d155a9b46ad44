/**
 * Masked callers' numbers: a user without `unmask_numbers` (a Viewer) gets every
 * caller's number masked in every answer: the log, a call, search snippets, the attention list,
 * exports, the live stream; a full number still finds the call, a fragment finds nothing. The
 * privacy setting masks them for everyone until "Show number". The sweep walks Fastify's route
 * table, so a route added later that leaks a number fails here.
 */
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import type { ClientRole } from '../../src/contract/teams';
import { normaliseDigits } from '../../src/server/access/number-text';
import { hashPassword } from '../../src/server/auth/passwords';
import type { ClientRow } from '../../src/server/db/schema';
import { createBlandProvider } from '../../src/server/providers/voice/bland';
import { createClientWithSimCalls } from '../helpers/bland';
import { storeCalls } from '../helpers/calls';
import {
  createAdminUser,
  createSignedInClient,
  loginAdmin,
  loginClient,
  TEST_PASSWORD,
} from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

/** The caller, and the business's own line: both numbers of a call are masked. */
const CALLER = '+12128670100';
const LINE = '+13105550142';
const CALLER_MASKED = '+1 212 ••• 0100';
const LINE_MASKED = '+1 310 ••• 0142';
/** The hidden digits next to the shown ones, however they are written (spaces, dashes, brackets). */
const HIDDEN = [
  /8\D{0,3}6\D{0,3}7\D{0,3}0\D{0,3}1\D{0,3}0\D{0,3}0/,
  /5\D{0,3}5\D{0,3}5\D{0,3}0\D{0,3}1\D{0,3}4\D{0,3}2/,
];
/** The file's cap on searches by number (CAP_NUMBER_SEARCHES_PER_HOUR). */
const NUMBER_SEARCHES = 10;
const leaks = (body: string) => HIDDEN.filter((pattern) => pattern.test(body)).map(String);

describe(`masked numbers (${TEST_DB})`, () => {
  let t: TestApp;
  let sim: VoiceSim;
  beforeAll(async () => {
    sim = await startVoiceSim();
    t = await createTestApp({
      env: { BLAND_API_URL: sim.url, CAP_NUMBER_SEARCHES_PER_HOUR: String(NUMBER_SEARCHES) },
      voice: createBlandProvider({ baseUrl: sim.url, timeoutMs: 1_000, retryBaseMs: 20, maxRetries: 2 }),
    });
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });

  const get = (url: string, cookie: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { cookie, ...headers } });
  const send = (method: 'POST' | 'PUT', url: string, cookie: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie } });

  /** A person of the client, active with a password, signed in: the Cookie header. */
  async function signedInUser(client: ClientRow, role: ClientRole, permissions: string[] = []) {
    const email = `${role}-${randomUUID().slice(0, 8)}@masked.test`;
    const at = t.deps.now();
    await t.deps.db
      .insertInto('client_users')
      .values({
        id: randomUUID(),
        client_id: client.id,
        email,
        name: `A ${role}`,
        password_hash: await hashPassword(TEST_PASSWORD),
        role,
        permissions: JSON.stringify(permissions),
        status: 'active',
        is_account_login: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return loginClient(t.app, email);
  }

  /** An Owner (the account login) with one call that says its caller's number everywhere. */
  async function clientWithCall() {
    const { client, cookie: owner } = await createSignedInClient(t);
    await storeCalls(t.deps, client, [
      {
        fromNumber: CALLER,
        toNumber: LINE,
        createdAt: t.deps.now() - 60_000,
        transcript: [
          { role: 'agent', text: 'Thanks for calling. How can we reach you?' },
          { role: 'user', text: 'My number is 212-867-0100, or just 867 0100 locally.' },
        ],
        insights: {
          summary: 'The caller at (212) 867-0100 wants a quote for a kitchen.',
          answeredBy: 'human',
          endedBy: 'user',
          errorMessage: null,
          dispositionTag: null,
          analysis: { callback: '+1 212 867 0100' },
          variables: {
            from: CALLER,
            to: LINE,
            phone_digits: 12128670100,
            // Another number of the caller's, and values that are not numbers.
            callback_alt: '+12135550127',
            alt_local: '(213) 555-0127',
            note: 'Or try +12135550127 after six',
            date: '2026-11-27',
            ticket: 'T-4821',
          },
        },
      },
    ]);
    const call = await t.deps.db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    return { client, owner, callId: call.id };
  }

  it('shows a Viewer every number masked in the log and the call; the Owner sees them as before', async () => {
    const { client, owner, callId } = await clientWithCall();
    const viewer = await signedInUser(client, 'viewer');

    const log = await get('/api/client/calls', viewer);
    expect(log.statusCode).toBe(200);
    expect(log.json().calls[0]).toMatchObject({ fromNumber: CALLER_MASKED, toNumber: LINE_MASKED });
    const detail = await get(`/api/client/calls/${callId}`, viewer);
    expect(detail.json()).toMatchObject({
      id: callId,
      fromNumber: CALLER_MASKED,
      toNumber: LINE_MASKED,
      summary: `The caller at ${CALLER_MASKED} wants a quote for a kitchen.`,
      analysis: { callback: CALLER_MASKED },
      variables: {
        from: CALLER_MASKED,
        to: LINE_MASKED,
        phone_digits: CALLER_MASKED,
        callback_alt: '+1 213 ••• 0127',
        alt_local: '••• 0127',
        note: 'Or try +1 213 ••• 0127 after six',
        date: '2026-11-27',
        ticket: 'T-4821',
      },
    });
    // The transcript is still the JSON of its lines, the number masked inside.
    expect(JSON.parse(detail.json().transcript)[1].text).toBe(
      `My number is ${CALLER_MASKED}, or just ${CALLER_MASKED} locally.`,
    );
    expect(leaks(log.body)).toEqual([]);
    expect(leaks(detail.body)).toEqual([]);

    // The account login (an Owner), with the privacy setting off: the SPEC's answers, unchanged.
    const full = await get(`/api/client/calls/${callId}`, owner);
    expect(full.json()).toMatchObject({
      fromNumber: CALLER,
      toNumber: LINE,
      summary: 'The caller at (212) 867-0100 wants a quote for a kitchen.',
    });
    // A Manager holds unmask_numbers by role; a Viewer granted it sees full numbers too.
    const manager = await signedInUser(client, 'manager');
    expect((await get('/api/client/calls', manager)).json().calls[0].fromNumber).toBe(CALLER);
    const trusted = await signedInUser(client, 'viewer', ['unmask_numbers']);
    expect((await get('/api/client/calls', trusted)).json().calls[0].fromNumber).toBe(CALLER);
  });

  it('finds a call by its full number for a Viewer, answered masked; a fragment finds nothing', async () => {
    const { client, owner } = await clientWithCall();
    const viewer = await signedInUser(client, 'viewer');
    const found = (cookie: string, search: string) =>
      get(`/api/client/calls?search=${encodeURIComponent(search)}`, cookie).then((res) => {
        expect(res.statusCode, res.body).toBe(200);
        return res.json().calls as { fromNumber: string; snippet?: { text: string }[] }[];
      });
    for (const whole of [CALLER, '+1 (212) 867-0100', '2128670100', LINE]) {
      const calls = await found(viewer, whole);
      expect(calls, whole).toHaveLength(1);
      expect(calls[0].fromNumber).toBe(CALLER_MASKED);
    }
    // Each of these would confirm hidden digits to someone who sees only "+1 212 ••• 0100".
    for (const fragment of ['867', '8670100', '212867', '+1212867', '867 0100', '"867"'])
      expect(await found(viewer, fragment), fragment).toEqual([]);
    // The Owner searches fragments as before.
    expect(await found(owner, '867')).toHaveLength(1);
    expect(await found(owner, '212867')).toHaveLength(1);

    // A word search's snippet may hold the number: masked, never the digits.
    const [byWord] = await found(viewer, 'quote');
    const snippet = byWord.snippet?.map((p) => p.text).join('') ?? '';
    expect(snippet).toContain(CALLER_MASKED);
    expect(leaks(snippet)).toEqual([]);
  });

  it("caps and records a Viewer's searches by number; the same number again, and the Owner, are free", async () => {
    const { client, owner } = await clientWithCall();
    const viewer = await signedInUser(client, 'viewer', ['export']);
    const search = (cookie: string, text: string, path = '/api/client/calls') =>
      get(
        `${path}?${path.endsWith('export') ? 'format=csv&' : ''}search=${encodeURIComponent(text)}`,
        cookie,
      );
    // A guess at the hidden digits is one search each: "+1 212 000 0100", "+1 212 001 0100", …
    const guesses = Array.from(
      { length: NUMBER_SEARCHES },
      (_, i) => `+1 212 ${String(i).padStart(3, '0')} 0100`,
    );
    for (const guess of guesses) expect((await search(viewer, guess)).statusCode, guess).toBe(200);
    // Paging or refreshing the same search costs nothing; words are not numbers.
    expect((await search(viewer, guesses[0])).statusCode).toBe(200);
    expect((await search(viewer, 'kitchen')).statusCode).toBe(200);
    expect((await search(viewer, '867')).statusCode).toBe(200);

    const refused = await search(viewer, CALLER);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/searches by phone number/);
    expect(leaks(refused.body)).toEqual([]);
    for (const path of ['/api/client/dashboard', '/api/client/calls/export'])
      expect((await search(viewer, CALLER, path)).statusCode, path).toBe(429);

    // One line per number searched, the number masked; the refused searches wrote none.
    const lines = await activity(client.id, 'number_search');
    expect(lines).toHaveLength(NUMBER_SEARCHES);
    expect(lines[1]).toEqual({ action: 'number_search', detail: { number: '+1 212 ••• 0100' } });
    expect(leaks(JSON.stringify(lines))).toEqual([]);

    // Someone who sees numbers in full learns nothing by searching: neither capped nor recorded.
    for (const guess of [...guesses, CALLER]) expect((await search(owner, guess)).statusCode).toBe(200);
    expect(await activity(client.id, 'number_search')).toHaveLength(NUMBER_SEARCHES);
  });

  it('masks the number spelled, in parts, with any separator or digits, and in variable keys', async () => {
    const { client } = await createSignedInClient(t);
    await storeCalls(t.deps, client, [
      {
        fromNumber: CALLER,
        toNumber: LINE,
        createdAt: t.deps.now() - 60_000,
        transcript: [
          { role: 'user', text: 'It is two one two, eight six seven, oh one hundred.' },
          { role: 'user', text: 'Area code 212, then 867' },
          { role: 'user', text: 'and 0100. Or 212/867/0100, 212_867_0100, 212\u2013867\u20140100.' },
          {
            role: 'user',
            text: 'Written wide: \uff12\uff11\uff12\uff18\uff16\uff17\uff10\uff11\uff10\uff10.',
          },
        ],
        insights: {
          summary: 'Caller gave 212, 867, 0100 and later eight-six-seven.',
          answeredBy: 'human',
          endedBy: 'user',
          errorMessage: null,
          dispositionTag: null,
          analysis: null,
          variables: { caller_2128670100: 'yes', '+1 212 867 0100': 'line', nested: { '212_867_0100': 1 } },
        },
      },
    ]);
    const viewer = await signedInUser(client, 'viewer');
    const log = await get('/api/client/calls', viewer);
    const [row] = log.json().calls;
    const detail = await get(`/api/client/calls/${row.id}`, viewer);
    expect(detail.statusCode).toBe(200);
    const body = detail.body;
    // The hidden digits in any script, however separated, or spelled.
    expect(leaks(normaliseDigits(body))).toEqual([]);
    expect(body).not.toMatch(/eight\W+six\W+seven/i);
    expect(normaliseDigits(body)).not.toMatch(/867/);
    expect(detail.json().variables).toEqual({
      'caller_+1 212 ••• 0100': 'yes',
      '+1 212 ••• 0100': 'line',
      nested: { '••• 0100': 1 },
    });
    const csv = await get('/api/client/calls/export?format=csv', viewer);
    expect(normaliseDigits(csv.body)).not.toMatch(/867/);
  });

  it('leaks no hidden digit to a Viewer on any client GET route, export or live stream', async () => {
    const { client, owner, callId } = await clientWithCall();
    // Needs attention, so the attention list carries it too.
    await t.deps.db
      .updateTable('calls')
      .set({ attention_reasons: JSON.stringify(['Caller asked for a callback']) })
      .where('id', '=', callId)
      .execute();
    // The Viewer may export (granted), but not see full numbers.
    const viewer = await signedInUser(client, 'viewer', ['export']);
    const routes = t.app.routeTable.filter(
      (r) => r.access === 'client' && r.method === 'GET' && r.url !== '/api/client/events',
    );
    expect(routes.length).toBeGreaterThan(20);
    const checked: string[] = [];
    for (const route of routes) {
      const path = route.url.replace(/:id\b/g, callId).replace(/:\w+/g, 'some-id');
      const urls = path.endsWith('/export')
        ? [`${path}?format=csv`, `${path}?format=xlsx`, `${path}?format=csv&search=kitchen`]
        : [path];
      for (const url of urls) {
        const res = await get(url, viewer);
        const spreadsheet = String(res.headers['content-type']).includes('spreadsheetml');
        const body = spreadsheet ? await xlsxText(res.rawPayload) : res.body;
        expect(leaks(body), `${url}: ${res.statusCode}`).toEqual([]);
        checked.push(`${url} ${res.statusCode}`);
      }
    }
    // The sweep reached the answers that carry numbers.
    for (const seen of [
      '/api/client/calls 200',
      `/api/client/calls/${callId} 200`,
      '/api/client/attention 200',
      '/api/client/calls/export?format=csv 200',
      '/api/client/calls/export?format=xlsx 200',
    ])
      expect(checked).toContain(seen);
    const csv = (await get('/api/client/calls/export?format=csv', viewer)).body;
    expect(csv).toContain(CALLER_MASKED);
    expect(csv).toContain(`The caller at ${CALLER_MASKED} wants a quote`);
    const attention = (await get('/api/client/attention', viewer)).json();
    expect(attention.calls[0].fromNumber).toBe(CALLER_MASKED);

    // The live stream, resumed from the start so the stored call's event comes again.
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const viewerEvents = await liveCallEvents(`${url}/api/client/events?lastEventId=0`, viewer);
    expect(viewerEvents).toContain(CALLER_MASKED);
    expect(leaks(viewerEvents)).toEqual([]);
    expect(await liveCallEvents(`${url}/api/client/events?lastEventId=0`, owner)).toContain(CALLER);
  });

  it('privacy: an Owner hides numbers from everyone until "Show number", which is recorded', async () => {
    const { client, owner, callId } = await clientWithCall();
    const manager = await signedInUser(client, 'manager');
    const viewer = await signedInUser(client, 'viewer');

    expect((await get('/api/client/privacy', owner)).json()).toMatchObject({ hideNumbersUntilShown: false });
    // Only Owners hold `privacy`.
    const refused = await send('PUT', '/api/client/privacy', manager, { hideNumbersUntilShown: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('privacy');
    for (const bad of [{}, { hideNumbersUntilShown: 'yes' }, { hideNumbersUntilShown: true, other: 1 }]) {
      const res = await send('PUT', '/api/client/privacy', owner, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    const on = await send('PUT', '/api/client/privacy', owner, { hideNumbersUntilShown: true });
    expect(on.json()).toMatchObject({ hideNumbersUntilShown: true });
    expect((await get('/api/client/privacy', owner)).json()).toMatchObject({ hideNumbersUntilShown: true });

    // Even those holding unmask_numbers now get masked answers...
    for (const cookie of [owner, manager]) {
      expect((await get(`/api/client/calls/${callId}`, cookie)).json().fromNumber).toBe(CALLER_MASKED);
      expect((await get(`/api/client/calls?search=867`, cookie)).json().calls).toEqual([]);
    }
    // ...and show one call's numbers when they ask.
    const shown = await send('POST', `/api/client/calls/${callId}/unmask`, manager);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ id: callId, fromNumber: CALLER, toNumber: LINE });
    const denied = await send('POST', `/api/client/calls/${callId}/unmask`, viewer);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toContain('unmask_numbers');
    const other = await clientWithCall();
    expect((await send('POST', `/api/client/calls/${other.callId}/unmask`, manager)).statusCode).toBe(404);

    const lines = await activity(client.id);
    expect(lines).toContainEqual({
      action: 'unmask',
      detail: { callId, number: CALLER_MASKED },
    });
    expect(lines.filter((l) => l.action === 'unmask')).toHaveLength(1);
    expect(lines).toContainEqual({
      action: 'settings_change',
      detail: {
        settings: 'privacy',
        before: { hideNumbersUntilShown: false },
        after: { hideNumbersUntilShown: true },
      },
    });

    // Off again: holders see full numbers, the Viewer still does not.
    await send('PUT', '/api/client/privacy', owner, { hideNumbersUntilShown: false });
    expect((await get(`/api/client/calls/${callId}`, manager)).json().fromNumber).toBe(CALLER);
    expect((await get(`/api/client/calls/${callId}`, viewer)).json().fromNumber).toBe(CALLER_MASKED);
  });

  it('records exports with their format, rows and filters; admins are neither masked nor recorded', async () => {
    const { client, owner, callId } = await clientWithCall();
    const res = await get('/api/client/calls/export?format=csv&status=completed&search=kitchen', owner);
    expect(res.statusCode).toBe(200);
    expect(await activity(client.id, 'export')).toEqual([
      {
        action: 'export',
        detail: {
          format: 'csv',
          rows: 1,
          complete: true,
          filters: { status: 'completed', search: 'kitchen' },
        },
      },
    ]);

    const admin = await createAdminUser(t.deps);
    const adminCookie = await loginAdmin(t.app, admin.username, admin.password);
    const seen = await get(`/api/admin/client-calls/${client.id}/${callId}`, adminCookie);
    expect(seen.json().fromNumber).toBe(CALLER);
    await get(`/api/admin/clients/${client.id}/calls/export?format=csv`, adminCookie);
    expect(await activity(client.id, 'export')).toHaveLength(1);
  });

  it('records a play once per start of a recording (no Range, or from byte 0), and a download', async () => {
    const { client, cookie } = await createClientWithSimCalls(t, sim, 1);
    await send('POST', '/api/client/calls/sync', cookie);
    const call = await t.deps.db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    const viewer = await signedInUser(client, 'viewer');
    const play = (range?: string) => get(`/api/client/recording/${call.id}`, viewer, range ? { range } : {});
    expect((await play()).statusCode).toBe(200);
    // The audio element's further requests while it plays and seeks add nothing.
    expect((await play('bytes=100-199')).statusCode).toBe(206);
    expect((await play('bytes=5000-')).statusCode).toBe(206);
    expect(await activity(client.id, 'recording_play')).toHaveLength(1);
    // Played again from the start: a second play.
    expect((await play('bytes=0-')).statusCode).toBe(206);
    expect(await activity(client.id, 'recording_play')).toEqual([
      { action: 'recording_play', detail: { callId: call.id } },
      { action: 'recording_play', detail: { callId: call.id } },
    ]);
    expect((await get(`/api/recording/${call.id}`, viewer)).statusCode).toBe(200);
    expect(await activity(client.id, 'recording_download')).toEqual([
      { action: 'recording_download', detail: { callId: call.id } },
    ]);

    // An admin listening adds no line to the client's log.
    const admin = await createAdminUser(t.deps);
    const adminCookie = await loginAdmin(t.app, admin.username, admin.password);
    expect((await get(`/api/admin/client-recording/${client.id}/${call.id}`, adminCookie)).statusCode).toBe(
      200,
    );
    expect((await get(`/api/recording/${call.id}`, adminCookie)).statusCode).toBe(200);
    expect(await activity(client.id, 'recording_play')).toHaveLength(2);
    expect(await activity(client.id, 'recording_download')).toHaveLength(1);
  });

  /** The client's activity lines of the calls side, oldest first. */
  async function activity(clientId: string, action?: string) {
    const rows = await t.deps.db
      .selectFrom('client_activity')
      .select(['action', 'detail', 'at'])
      .where('client_id', '=', clientId)
      .$if(action !== undefined, (q) => q.where('action', '=', action ?? ''))
      .where('action', 'not in', ['sign_in'])
      .orderBy('at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ action: r.action, detail: r.detail ? JSON.parse(r.detail) : null }));
  }
});

/** Every cell of a workbook's sheets as text, one per line. */
async function xlsxText(payload: Buffer): Promise<string> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(payload as unknown as ArrayBuffer);
  const cells: string[] = [];
  book.eachSheet((sheet) =>
    sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value ?? '')))),
  );
  expect(cells.length).toBeGreaterThan(10);
  return cells.join('\n');
}

/** The `call` events a live stream sends until the first of them, as text. */
async function liveCallEvents(url: string, cookie: string): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { cookie }, signal: controller.signal });
  expect(res.status).toBe(200);
  const reader = res.body?.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    while (reader && !/event: call\ndata: .*\n\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  } finally {
    controller.abort();
  }
  return text;
}
