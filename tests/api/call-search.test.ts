/**
 * Full-text search with snippets, custom ranges in the client's zone, sorting, and the
 * call log's CSV and Excel exports, read back with a real CSV parser and an XLSX reader.
 */
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { searchTermKey } from '../../src/server/calls/read/call-search';
import { createCallsRepository } from '../../src/server/calls/write/calls-repository';
import { NO_INSIGHTS } from '../../src/server/providers/voice/types';
import { storeCalls } from '../helpers/calls';
import { createAdminUser, createClient, createSignedInClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 2, 20, 15, 0, 0);

const said = (...lines: string[]) => lines.map((text, i) => ({ role: i % 2 === 0 ? 'agent' : 'user', text }));
const withSummary = (summary: string) => ({ insights: { ...NO_INSIGHTS, summary } });

describe(`call search, ranges and export (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
  });
  afterAll(async () => {
    await t.close();
  });

  const clientWithCookie = (overrides: Parameters<typeof createSignedInClient>[1] = {}) =>
    createSignedInClient(t, overrides);
  const get = async (cookie: string, url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  const download = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const ids = (body: { calls: { providerCallId: string }[] }) => body.calls.map((c) => c.providerCallId);

  describe('full-text search', () => {
    let cookie: string;
    let clientId: string;
    beforeAll(async () => {
      const owner = await clientWithCookie();
      cookie = owner.cookie;
      clientId = owner.client.id;
      await storeCalls(t.deps, owner.client, [
        {
          providerCallId: 'once',
          createdAt: NOW - 3 * HOUR,
          transcript: said('Hello, how can I help?', 'I would like a refund for my order please.'),
        },
        {
          providerCallId: 'thrice',
          createdAt: NOW - 5 * HOUR,
          transcript: said(
            'Refunds take five days.',
            'So the refund is coming?',
            'Yes, the refund is on its way.',
          ),
        },
        {
          providerCallId: 'policy',
          createdAt: NOW - 6 * HOUR,
          transcript: said('Our refund policy is thirty days.', 'Thanks.'),
        },
        {
          providerCallId: 'summary-only',
          createdAt: NOW - 7 * HOUR,
          transcript: said('Good morning.'),
          ...withSummary('The caller booked an appointment for Tuesday.'),
        },
        {
          providerCallId: 'other-words',
          createdAt: NOW - 8 * HOUR,
          fromNumber: '+14155550123',
          transcript: said('Policy questions about the refrigerator warranty.'),
        },
      ]);
      // Another client says the same words: never found by this one.
      const stranger = await createClient(t.deps);
      await storeCalls(t.deps, stranger, [
        {
          providerCallId: 'stranger',
          createdAt: NOW - HOUR,
          transcript: said('refund refund refund policy'),
        },
      ]);
    });
    const search = (q: string, extra = '') =>
      get(cookie, `/api/client/calls?status=all&search=${encodeURIComponent(q)}${extra}`);

    it('finds words in any form, ranks the best match first, and shows the matching passage', async () => {
      const { status, body } = await search('refund', '&sort=relevance');
      expect(status).toBe(200);
      // Three mentions rank first; bm25 then prefers the shorter of the one-mention calls.
      expect(ids(body)).toEqual(['thrice', 'policy', 'once']);
      expect(body.pagination.total).toBe(3);
      const snippet = body.calls[2].snippet as { text: string; match: boolean }[];
      expect(snippet.filter((p) => p.match).map((p) => p.text)).toEqual(['refund']);
      expect(snippet.map((p) => p.text).join('')).toContain('I would like a refund for my order');
      // "Refunds" in the first line of the best match is the same word.
      expect(body.calls[0].snippet.find((p: { match: boolean }) => p.match).text).toBe('Refunds');
    });

    it('finds phrases, prefixes, either word, and summaries; a newest-first sort still applies', async () => {
      expect(ids((await search('"refund policy"')).body)).toEqual(['policy']);
      expect(ids((await search('refri*')).body)).toEqual(['other-words']);
      expect(ids((await search('appointment OR warranty')).body).sort()).toEqual([
        'other-words',
        'summary-only',
      ]);
      const bySummary = (await search('tuesday')).body;
      expect(ids(bySummary)).toEqual(['summary-only']);
      expect(bySummary.calls[0].snippet.find((p: { match: boolean }) => p.match).text).toBe('Tuesday');
      // Newest first unless best match is asked for, as with sort=created.
      for (const extra of ['', '&sort=created&order=desc'])
        expect(ids((await search('refund', extra)).body)).toEqual(['once', 'thrice', 'policy']);
    });

    it('finds a call by phone number as shown on screen, and by id', async () => {
      expect(ids((await search('(415) 555-0123')).body)).toEqual(['other-words']);
      const one = (await search('other-words')).body.calls[0];
      expect(ids((await search(one.id)).body)).toEqual(['other-words']);
      expect(ids((await search('other-words')).body)).toEqual(['other-words']);
    });

    it('answers bad syntax with a 400 that says what to fix, never a 500', async () => {
      for (const [q, words] of [
        ['"refund policy', 'Close the quote'],
        ['re*und', '* goes at the end'],
        ['re*', 'at least 3 letters'],
        ['the* OR you* OR and* OR wha* OR its*', 'at most 4 words ending in *'],
        ['refund OR', 'OR goes between'],
        ['""', 'no words'],
      ] as const) {
        const { status, body } = await search(q);
        expect(status, q).toBe(400);
        expect(body.fields.search, q).toContain(words);
      }
      // Index syntax typed as text is just text.
      for (const q of ['NEAR(refund policy)', 'refund AND -policy', "o'brien:*", 'a & b | !c', '^refund']) {
        expect((await search(q)).status, q).toBe(200);
      }
    });

    it("reads only the client's own terms: best match, prefixes and absent words cost what its own calls cost", async () => {
      if (TEST_DB === 'postgres') return; // PostgreSQL's index is keyed by client (018): the test above.
      // Which terms and how many documents each MATCH the client's searches send can read, in the
      // index's own vocabulary: what bm25 counts, what a prefix merges, what an AND seeks through.
      await sql`create virtual table if not exists temp.calls_fts_terms using fts5vocab(main, calls_fts, row)`.execute(
        t.deps.db,
      );
      const other = await createClient(t.deps);
      const addOthers = (from: number, count: number) =>
        storeCalls(
          t.deps,
          other,
          Array.from({ length: count }, (_, i) => ({
            providerCallId: `other-${from + i}`,
            createdAt: NOW - HOUR - from - i,
            // Words this client never said, and the ones it did.
            transcript: said('Zebrafish zebras and a refund policy, thanks.', 'Zebrafish again.'),
          })),
        );
      const executor = t.deps.db.getExecutor();
      const readable = async () => {
        const spy = vi.spyOn(executor, 'executeQuery');
        const texts: string[] = [];
        try {
          for (const extra of ['', '&sort=relevance'])
            for (const q of [
              'zebrafish',
              'zebr*',
              'zeb*',
              'refund',
              'refu*',
              '"refund policy"',
              'zebra OR thanks',
            ]) {
              spy.mockClear();
              expect((await search(q, extra)).status, q).toBe(200);
              for (const [query] of spy.mock.calls) {
                const at = query.sql.indexOf('calls_fts match ?');
                if (at >= 0)
                  texts.push(String(query.parameters[query.sql.slice(0, at).split('?').length - 1]));
              }
            }
        } finally {
          spy.mockRestore();
        }
        expect(texts.length).toBeGreaterThan(0);
        const words = texts.flatMap((text) =>
          [...text.matchAll(/"([^"]*)"/g)].flatMap((m) => m[1].split(' ')),
        );
        // Every word the index is asked for is one of this client's terms, its key in front.
        const keys = new Set(words.map((word) => word.slice(0, 22)));
        expect([...keys]).toEqual([searchTermKey(clientId)]);
        // And the terms under that key hold this client's calls only (five with text).
        const { rows } = await sql<{ term: string; doc: number }>`select term, doc from temp.calls_fts_terms
          where term >= ${[...keys][0]} and term < ${`${[...keys][0]}~`} order by term`.execute(t.deps.db);
        expect(Math.max(...rows.map((r) => Number(r.doc)))).toBeLessThanOrEqual(5);
        return rows;
      };
      await addOthers(0, 20);
      const before = await readable();
      // Twenty times as many of another client's calls saying those words: nothing this client's
      // searches read has grown.
      await addOthers(20, 400);
      expect(await readable()).toEqual(before);
    });

    it("asks the word index only for the client's own entries, however many matches other clients have", async () => {
      // Another client with many calls saying the same words (they used to be read
      // and then dropped, so this client's search cost what theirs did).
      const busy = await createClient(t.deps);
      await storeCalls(
        t.deps,
        busy,
        Array.from({ length: 300 }, (_, i) => ({
          providerCallId: `busy-${i}`,
          createdAt: NOW - HOUR - i,
          transcript: said('A refund, thanks. Our refund policy is thirty days.', 'Refunds, policy, thanks.'),
        })),
      );
      const executor = t.deps.db.getExecutor();
      const spy = vi.spyOn(executor, 'executeQuery');
      if (TEST_DB === 'postgres') {
        // PostgreSQL keys its GIN index by client (migration 018): the plan of the log's search
        // finds the client's matches inside the index, with client_id in the index condition.
        try {
          for (const [q, extra] of ['', '&sort=relevance'].flatMap((e) =>
            ['refund', 'refu*', '"refund policy"', 'refund OR thanks'].map((w) => [w, e]),
          )) {
            spy.mockClear();
            expect((await search(q, extra)).status, q).toBe(200);
            const searches = spy.mock.calls
              .map(([query]) => query)
              .filter((query) => query.sql.includes('@@') && /\blimit\b/.test(query.sql));
            expect(searches.length, q).toBeGreaterThan(0);
            for (const query of searches) {
              const plan = await t.deps.db.connection().execute(async (conn) => {
                await sql`set enable_seqscan = off`.execute(conn);
                try {
                  const explained = await conn.executeQuery<{ 'QUERY PLAN': string }>({
                    ...query,
                    sql: `explain ${query.sql}`,
                  });
                  return explained.rows.map((r) => r['QUERY PLAN']).join('\n');
                } finally {
                  await sql`reset enable_seqscan`.execute(conn);
                }
              });
              // Whichever index the planner picks for so few rows (the client-keyed word index or
              // the client's own rows), the calls are reached through the client id, never by
              // reading every client's matches.
              expect(plan, q).toMatch(/Index Cond: \(+client_id = /);
              expect(plan, q).not.toMatch(/Seq Scan on calls/);
            }
          }
        } finally {
          spy.mockRestore();
        }
        expect(ids((await search('refund', '&sort=relevance')).body)).toEqual(['thrice', 'policy', 'once']);
        return;
      }
      try {
        for (const [q, extra] of ['', '&sort=relevance'].flatMap((e) =>
          ['refund', 'ref*', 'refu*', '"refund policy"', 'refund OR thanks', 'policy refund'].map((w) => [
            w,
            e,
          ]),
        )) {
          spy.mockClear();
          expect((await search(q, extra)).status, q).toBe(200);
          // Every MATCH the search asked FTS5 for, with its text as bound.
          const matches = spy.mock.calls.flatMap(([query]) => {
            const at = query.sql.indexOf('calls_fts match ?');
            if (at < 0) return [];
            const index = query.sql.slice(0, at).split('?').length - 1;
            return [String(query.parameters[index])];
          });
          expect(matches.length, q).toBeGreaterThan(0);
          for (const text of matches) {
            const { rows } = await sql<{
              n: number;
            }>`select count(*) as n from calls_fts where calls_fts match ${text}`.execute(t.deps.db);
            // The owner has five calls with text; the index hands back no more than those.
            expect(Number(rows[0].n), `${q}: ${text}`).toBeLessThanOrEqual(5);
          }
        }
      } finally {
        spy.mockRestore();
      }
      // The answers are the owner's as before.
      expect(ids((await search('refund', '&sort=relevance')).body)).toEqual(['thrice', 'policy', 'once']);
    });

    it('keeps the index in step with the call: a new transcript replaces the old words, a deleted call goes', async () => {
      const { client, cookie: own } = await clientWithCookie();
      await storeCalls(t.deps, client, [
        { providerCallId: 'changing', createdAt: NOW - HOUR, transcript: said('The parcel is missing.') },
      ]);
      const find = async (q: string) =>
        ids((await get(own, `/api/client/calls?status=all&search=${q}`)).body);
      expect(await find('parcel')).toEqual(['changing']);
      await storeCalls(t.deps, client, [
        {
          providerCallId: 'changing',
          createdAt: NOW - HOUR,
          transcript: said('The invoice was paid twice.'),
        },
      ]);
      expect(await find('parcel')).toEqual([]);
      expect(await find('invoice')).toEqual(['changing']);
      const call = (await get(own, '/api/client/calls?status=all&search=invoice')).body.calls[0];
      await createCallsRepository(t.deps.db).deleteCall(client.id, call.id);
      expect(await find('invoice')).toEqual([]);
    });
  });

  describe('issue 41: newest first, counted up to 1,000, paged by keyset past it', () => {
    const MATCHES = 1_030;
    let cookie: string;
    let strangerCookie: string;
    beforeAll(async () => {
      const owner = await clientWithCookie();
      cookie = owner.cookie;
      // 1,030 calls about a parcel a minute apart (m-0 the newest; m-500 says it twice, the best
      // of the newest 1,000), one that says it three times (the best match, but old), and calls
      // about something else between them.
      await storeCalls(t.deps, owner.client, [
        ...Array.from({ length: MATCHES }, (_, i) => ({
          providerCallId: `m-${i}`,
          createdAt: NOW - HOUR - i * 60_000,
          transcript:
            i === 500
              ? said('Hello, how can I help?', 'Parcel, my parcel has not arrived.')
              : said('Hello, how can I help?', `My parcel number ${i} has not arrived, can you look?`),
        })),
        {
          providerCallId: 'best',
          createdAt: NOW - 40 * DAY,
          transcript: said('Parcel.', 'Parcel parcel.'),
        },
        ...Array.from({ length: 40 }, (_, i) => ({
          providerCallId: `x-${i}`,
          createdAt: NOW - HOUR - i * 60_000 - 30_000,
          fromNumber: '+14155550199',
          transcript: said('I want to book an appointment.'),
        })),
      ]);
      // Another client's 1,200 parcels, newer than every one of the owner's: never counted, never listed.
      const stranger = await clientWithCookie();
      strangerCookie = stranger.cookie;
      await storeCalls(
        t.deps,
        stranger.client,
        Array.from({ length: 1_200 }, (_, i) => ({
          providerCallId: `s-${i}`,
          createdAt: NOW - 30 * 60_000 - i * 1_000,
          fromNumber: '+14155550199',
          transcript: said('Where is my parcel?'),
        })),
      );
    });
    const log = (extra: string, who = cookie) => get(who, `/api/client/calls?status=all&${extra}`);

    it('lists the newest match first and counts 1,000+ rather than every match', async () => {
      const { status, body } = await log('search=parcel&limit=25');
      expect(status).toBe(200);
      expect(ids(body).slice(0, 3)).toEqual(['m-0', 'm-1', 'm-2']);
      expect(body.pagination).toMatchObject({
        page: 1,
        limit: 25,
        total: 1000,
        totalIsLowerBound: true,
        totalPages: 40,
      });
      expect(typeof body.pagination.nextAfter).toBe('string');
      // Each row still shows its passage.
      expect(body.calls[0].snippet.find((p: { match: boolean }) => p.match).text).toBe('parcel');
      // Under the bound the count is exact and says so by leaving the flag out.
      const few = (await log('search=appointment')).body;
      expect(few.pagination.total).toBe(40);
      expect(few.pagination.totalIsLowerBound).toBeUndefined();
      expect(ids(few)[0]).toBe('x-0');
      // The other client counts its own 1,000+ and sees none of the owner's.
      const theirs = (await log('search=parcel&limit=100', strangerCookie)).body;
      expect(theirs.pagination).toMatchObject({ total: 1000, totalIsLowerBound: true });
      expect(ids(theirs).every((id: string) => id.startsWith('s-'))).toBe(true);
    });

    it('ranks the newest 1,000 matches best first with sort=relevance, its snippet first', async () => {
      // Past 1,000 matches the newest 1,000 are ranked (ranking every match cost
      // seconds), so the old call that says "parcel" three times is not among them: m-500 leads.
      const { status, body } = await log('search=parcel&sort=relevance&limit=5');
      expect(status).toBe(200);
      expect(ids(body)[0]).toBe('m-500');
      const marked = body.calls[0].snippet
        .filter((p: { match: boolean }) => p.match)
        .map((p: { text: string }) => p.text);
      expect(marked).toEqual(['Parcel', 'parcel']);
      expect(body.pagination).toMatchObject({ total: 1000, totalIsLowerBound: true, totalPages: 200 });
      expect(body.pagination.nextAfter).toBeUndefined();
      // Its ten pages of 100 are the newest 1,000 matches, each once.
      const ranked: string[] = [];
      for (let page = 1; page <= 10; page++) {
        const { status: pageStatus, body: pageBody } = await log(
          `search=parcel&sort=relevance&limit=100&page=${page}`,
        );
        expect(pageStatus, `page ${page}`).toBe(200);
        ranked.push(...ids(pageBody));
      }
      expect(ranked.toSorted()).toEqual(Array.from({ length: 1000 }, (_, i) => `m-${i}`).toSorted());
      const past = await log('search=parcel&sort=relevance&limit=5&page=201');
      expect(past.status).toBe(400);
      expect(past.body.fields.page).toBeDefined();
      // A window with fewer than 1,000 matches ranks them all: there the old call leads.
      const window = `startDate=${new Date(NOW - 41 * DAY).toISOString()}&endDate=${new Date(NOW - HOUR - 100 * 60_000).toISOString()}`;
      const all = (await log(`search=parcel&sort=relevance&limit=5&${window}`)).body;
      expect(ids(all).slice(0, 2)).toEqual(['best', 'm-500']);
      expect(all.pagination.total).toBe(MATCHES - 100 + 1);
      expect(all.pagination.totalIsLowerBound).toBeUndefined();
      // A page past the last match still counts them; a word nobody said counts none.
      const beyond = (await log('search=appointment&sort=relevance&limit=25&page=3')).body;
      expect(beyond.calls).toEqual([]);
      expect(beyond.pagination.total).toBe(40);
      expect((await log('search=zebra&sort=relevance')).body.pagination.total).toBe(0);
    });

    it('pages past the bound by keyset: every match once, in order, none of another client', async () => {
      const seen: string[] = [];
      let after: string | undefined;
      for (let page = 1; page <= 20; page++) {
        const { status, body } = await log(
          `search=parcel&limit=100&page=${page}${after ? `&after=${after}` : ''}`,
        );
        expect(status, `page ${page}`).toBe(200);
        seen.push(...ids(body));
        after = body.pagination.nextAfter;
        if (!after) break;
      }
      expect(seen).toEqual([...Array.from({ length: MATCHES }, (_, i) => `m-${i}`), 'best']);
      // Pages past the bound are not read by OFFSET.
      const deep = await log('search=parcel&limit=100&page=11');
      expect(deep.status).toBe(400);
      expect(deep.body.message).toContain('after');
      // A cursor of another order, or one made up, is a 400 too.
      const first = (await log('search=parcel&limit=100')).body.pagination.nextAfter;
      const other = await log(`search=parcel&limit=100&page=2&sort=duration&after=${first}`);
      expect(other.status).toBe(400);
      for (const bad of ['nonsense!', 'eyJhIjoxfQ', 'W10'])
        expect((await log(`search=parcel&after=${bad}`)).status, bad).toBe(400);
    });

    it('pages an older-first and a duration order past the bound the same way', async () => {
      for (const sort of ['sort=created&order=asc', 'sort=duration&order=desc']) {
        const seen: string[] = [];
        let after: string | undefined;
        for (let page = 1; page <= 20; page++) {
          const { body } = await log(
            `search=parcel&limit=100&${sort}&page=${page}${after ? `&after=${after}` : ''}`,
          );
          seen.push(...ids(body));
          after = body.pagination.nextAfter;
          if (!after) break;
        }
        expect(seen.length, sort).toBe(MATCHES + 1);
        expect(new Set(seen).size, sort).toBe(MATCHES + 1);
      }
    });

    it('pages a search under the bound among its matches: newest first and by duration, each once; none for a word nobody said', async () => {
      for (const sort of ['', '&sort=duration&order=asc']) {
        const seen: string[] = [];
        let after: string | undefined;
        for (let page = 1; page <= 5; page++) {
          const { status, body } = await log(
            `search=appointment&limit=15${sort}&page=${page}${after ? `&after=${after}` : ''}`,
          );
          expect(status, `${sort} page ${page}`).toBe(200);
          expect(body.pagination).toMatchObject({ total: 40 });
          expect(body.pagination.totalIsLowerBound ?? false).toBe(false);
          seen.push(...ids(body));
          after = body.pagination.nextAfter;
          if (!after) break;
        }
        expect(new Set(seen).size, sort).toBe(40);
        if (!sort) expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => `x-${i}`));
      }
      const none = await log('search=zebra&limit=15');
      expect(none.status).toBe(200);
      expect(none.body.calls).toEqual([]);
      expect(none.body.pagination.total).toBe(0);
    });

    it("finds a number written any way, and only the client's own calls with it", async () => {
      for (const written of [
        '+14155550199',
        '+1 415 555 0199',
        '(415) 555-0199',
        '415.555.0199',
        '1-415-555-0199',
        '4155550199',
      ]) {
        const { status, body } = await log(`search=${encodeURIComponent(written)}&limit=100`);
        expect(status, written).toBe(200);
        expect(body.pagination.total, written).toBe(40);
        expect(ids(body)[0], written).toBe('x-0');
        expect(
          ids(body).every((id: string) => id.startsWith('x-')),
          written,
        ).toBe(true);
      }
      const theirs = (await log('search=4155550199', strangerCookie)).body;
      expect(theirs.pagination).toMatchObject({ total: 1000, totalIsLowerBound: true });
      expect(ids(theirs).every((id: string) => id.startsWith('s-'))).toBe(true);
    });
  });

  describe('custom ranges and sorting', () => {
    it('reads from/to as local days, and a range totals the sum of its days', async () => {
      const { client, cookie } = await clientWithCookie({ timezone: 'America/New_York' });
      await storeCalls(t.deps, client, [
        { createdAt: Date.UTC(2026, 2, 10, 3, 59), durationSeconds: 60 }, // 23:59 Mar 9 local: outside
        { createdAt: Date.UTC(2026, 2, 10, 4, 0), durationSeconds: 120 }, // 00:00 Mar 10 local
        { createdAt: Date.UTC(2026, 2, 11, 12, 0), durationSeconds: 30, status: 'transferred' },
        { createdAt: Date.UTC(2026, 2, 13, 3, 59), durationSeconds: 90, status: 'failed' }, // 23:59 Mar 12
        { createdAt: Date.UTC(2026, 2, 13, 4, 0), durationSeconds: 45 }, // 00:00 Mar 13: outside
      ]);
      const range = await get(cookie, '/api/client/stats?from=2026-03-10&to=2026-03-12');
      expect(range.status).toBe(200);
      expect(range.body.totalCalls).toBe(3);
      let sum = 0;
      let cost = 0;
      for (const day of ['2026-03-10', '2026-03-11', '2026-03-12']) {
        const one = (await get(cookie, `/api/client/stats?from=${day}&to=${day}`)).body;
        sum += one.totalCalls;
        cost += one.totalCost;
      }
      expect(sum).toBe(range.body.totalCalls);
      // Each day's cost is rounded to the cent on its own: within a cent per day of the range's.
      expect(Math.abs(cost - range.body.totalCost)).toBeLessThanOrEqual(0.03);
      // The previous period is the three days before: only the 23:59 call of Mar 9.
      expect(range.body.previousPeriod.totalCalls).toBe(1);
      const log = (await get(cookie, '/api/client/calls?status=all&from=2026-03-10&to=2026-03-12')).body;
      expect(log.pagination.total).toBe(3);
      const chart = (await get(cookie, '/api/client/calls-over-time?from=2026-03-10&to=2026-03-12')).body;
      expect(chart).toEqual([
        { date: '2026-03-10', count: 1 },
        { date: '2026-03-11', count: 0 },
        { date: '2026-03-12', count: 0 },
      ]);
      const outcomes = (await get(cookie, '/api/client/outcomes/summary?from=2026-03-10&to=2026-03-12')).body;
      expect(outcomes.reduce((n: number, o: { count: number }) => n + o.count, 0)).toBe(3);
    });

    it('refuses ranges that cannot be read, with the field named', async () => {
      const { cookie } = await clientWithCookie();
      for (const q of [
        'from=2026-03-10',
        'from=2026-03-12&to=2026-03-10',
        'from=2024-01-01&to=2026-01-01',
        'from=2026-02-30&to=2026-03-01',
        'from=10/03/2026&to=2026-03-11',
        'from=2026-03-10&to=2026-03-11&startDate=2026-03-10&endDate=2026-03-11',
      ]) {
        for (const path of [
          '/api/client/stats',
          '/api/client/calls',
          '/api/client/calls/export?format=csv&',
        ]) {
          const url = path.includes('?') ? `${path}${q}` : `${path}?${q}`;
          const { status, body } = await get(cookie, url);
          expect(status, url).toBe(400);
          expect(Object.keys(body.fields), url).toEqual(['from']);
        }
      }
    });

    it('sorts a window of more than 5,000 calls by duration from either end, by page number and by keyset', async () => {
      // Past 5,000 calls the page walks the duration index (call-log.ts DURATION_WALK_ABOVE).
      const { client, cookie } = await clientWithCookie();
      const COUNT = 5_100;
      await storeCalls(
        t.deps,
        client,
        Array.from({ length: COUNT }, (_, i) => ({
          providerCallId: `long-${i + 1}`,
          createdAt: NOW - HOUR - i * 60_000,
          durationSeconds: i + 1,
        })),
      );
      const page = async (q: string) => {
        const { status, body } = await get(cookie, `/api/client/calls?status=all&dateRange=7d&limit=5&${q}`);
        expect(status, q).toBe(200);
        expect(body.pagination.total, q).toBe(COUNT);
        return body;
      };
      const names = (from: number, step: number) =>
        Array.from({ length: 5 }, (_, k) => `long-${from + k * step}`);
      const longest = await page('sort=duration&order=desc');
      expect(longest.calls.map((c: { providerCallId: string }) => c.providerCallId)).toEqual(
        names(COUNT, -1),
      );
      const next = await page(`sort=duration&order=desc&page=2&after=${longest.pagination.nextAfter}`);
      expect(next.calls.map((c: { providerCallId: string }) => c.providerCallId)).toEqual(
        names(COUNT - 5, -1),
      );
      const last = await page(`sort=duration&order=desc&page=${COUNT / 5}`);
      expect(last.calls.map((c: { providerCallId: string }) => c.providerCallId)).toEqual(names(5, -1));
      const shortest = await page('sort=duration&order=asc');
      expect(shortest.calls.map((c: { providerCallId: string }) => c.providerCallId)).toEqual(names(1, 1));
    });

    it('sorts by duration and cost either way, paging through the same order', async () => {
      const { client, cookie } = await clientWithCookie();
      await storeCalls(
        t.deps,
        client,
        [30, 300, 90, 600, 10, 120].map((durationSeconds, i) => ({
          providerCallId: `d${durationSeconds}`,
          createdAt: NOW - (i + 1) * HOUR,
          durationSeconds,
        })),
      );
      const order = async (q: string) => {
        const first = (await get(cookie, `/api/client/calls?limit=4&${q}`)).body;
        const second = (await get(cookie, `/api/client/calls?limit=4&page=2&${q}`)).body;
        return [...ids(first), ...ids(second)];
      };
      expect(await order('sort=duration&order=asc')).toEqual(['d10', 'd30', 'd90', 'd120', 'd300', 'd600']);
      expect(await order('sort=cost&order=desc')).toEqual(['d600', 'd300', 'd120', 'd90', 'd30', 'd10']);
      expect(await order('sort=created&order=asc')).toEqual(['d120', 'd10', 'd600', 'd90', 'd300', 'd30']);
      expect((await get(cookie, '/api/client/calls?sort=price')).status).toBe(400);
      expect((await get(cookie, '/api/client/calls?order=up')).status).toBe(400);
    });
  });

  describe('export', () => {
    it('streams the filtered view as CSV with local times, amounts, links, and formulas made harmless', async () => {
      const { client, cookie } = await clientWithCookie({
        timezone: 'America/Los_Angeles',
        company_name: 'Acme',
      });
      await storeCalls(t.deps, client, [
        {
          providerCallId: 'csv-1',
          createdAt: Date.UTC(2026, 2, 19, 16, 5, 9), // 09:05:09 PDT
          durationSeconds: 125,
          ...withSummary('=HYPERLINK("http://evil.invalid","Click")'),
          transcript: said('A question about refunds, "quoted", and a comma.'),
        },
        {
          providerCallId: 'csv-2',
          createdAt: Date.UTC(2026, 2, 18, 16, 0),
          status: 'failed',
          durationSeconds: 0,
        },
      ]);
      const stranger = await createClient(t.deps);
      await storeCalls(t.deps, stranger, [{ providerCallId: 'not-mine', createdAt: NOW - HOUR }]);

      const res = await download(
        cookie,
        '/api/client/calls/export?format=csv&status=all&from=2026-03-01&to=2026-03-20',
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="calls-2026-03-20\.csv"$/);
      const rows: Record<string, string>[] = parse(res.rawPayload, { bom: true, columns: true });
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({
        'Date and time': '2026-03-19 09:05:09',
        'Time zone': 'America/Los_Angeles',
        From: '+15550001111',
        'Duration (seconds)': '125',
        Status: 'completed',
        Pathway: 'Sales',
        'Cost (USD)': '0.31',
        Summary: `'=HYPERLINK("http://evil.invalid","Click")`,
      });
      expect(rows[0].Link).toMatch(/\/dashboard\?call=[\w-]+$/);
      expect(rows[0]['Call ID']).toBe(rows[0].Link.split('call=')[1]);
      expect(rows[1].Status).toBe('failed');

      // The log's filters apply: a search narrows the file as it narrows the log.
      const searched = await download(
        cookie,
        '/api/client/calls/export?format=csv&status=all&search=refunds',
      );
      expect(parse(searched.rawPayload, { bom: true, columns: true })).toHaveLength(1);
      expect((await download(cookie, '/api/client/calls/export?format=pdf')).statusCode).toBe(400);
      expect((await download(cookie, '/api/client/calls/export?format=csv&search=%22open')).statusCode).toBe(
        400,
      );
    });

    it('writes an Excel file with real dates and amounts, for the client and for the admin', async () => {
      const { client, cookie } = await clientWithCookie({
        timezone: 'Asia/Kolkata',
        company_name: 'Kolkata Co',
      });
      await storeCalls(t.deps, client, [
        {
          providerCallId: 'x-1',
          createdAt: Date.UTC(2026, 2, 19, 20, 0, 0), // 01:30 Mar 20 IST
          durationSeconds: 600,
          // Markup, a control character XML cannot hold, accents and an emoji: the file still opens.
          ...withSummary('Asked about <b>fees</b> & "VAT"\u0001, café 😀'),
        },
      ]);
      const read = async (payload: Buffer) => {
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(payload as unknown as ArrayBuffer);
        return book.getWorksheet('Calls');
      };
      const own = await download(cookie, '/api/client/calls/export?format=xlsx&status=all');
      expect(own.statusCode).toBe(200);
      expect(own.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      const sheet = await read(own.rawPayload);
      expect(sheet?.getRow(1).getCell(1).value).toBe('Date and time');
      const row = sheet?.getRow(2);
      expect(row?.getCell(1).value).toEqual(new Date('2026-03-20T01:30:00Z'));
      expect(row?.getCell(2).value).toBe('Asia/Kolkata');
      expect(row?.getCell(9).value).toBe(1.5);
      expect(row?.getCell(10).value).toBe('Asked about <b>fees</b> & "VAT", café 😀');
      expect(row?.getCell(12).value).toMatch(/\/dashboard\?call=[\w-]+$/);
      expect(sheet?.rowCount).toBe(2);

      const admin = await createAdminUser(t.deps);
      const adminCookie = await loginAdmin(t.app, admin.username, admin.password);
      const one = await download(
        adminCookie,
        `/api/admin/clients/${client.id}/calls/export?format=xlsx&status=all`,
      );
      expect(one.statusCode).toBe(200);
      expect((await read(one.rawPayload))?.getRow(2).getCell(9).value).toBe(1.5);
      const all = await download(adminCookie, '/api/admin/calls/export?format=csv&status=all');
      const rows: Record<string, string>[] = parse(all.rawPayload, { bom: true, columns: true });
      const mine = rows.filter((r) => r.Client === 'Kolkata Co');
      expect(mine).toHaveLength(1);
      expect(mine[0]['Date and time']).toBe('2026-03-20 01:30:00');
      expect(new Set(rows.map((r) => r.Client)).size).toBeGreaterThan(1);
      // Searched over every client's calls: each call found by its own client's words.
      for (const q of ['fees', 'caf*', '"asked about"']) {
        const searched = await download(
          adminCookie,
          `/api/admin/calls/export?format=csv&status=all&search=${encodeURIComponent(q)}`,
        );
        const found: Record<string, string>[] = parse(searched.rawPayload, { bom: true, columns: true });
        expect(
          found.map((r) => r.Client),
          q,
        ).toEqual(['Kolkata Co']);
      }
      expect(
        (await download(adminCookie, '/api/admin/clients/nobody/calls/export?format=csv')).statusCode,
      ).toBe(404);
      // A client never reaches the admin's exports.
      expect((await download(cookie, '/api/admin/calls/export?format=csv')).statusCode).toBe(403);
      expect(
        (await download(cookie, `/api/admin/clients/${client.id}/calls/export?format=csv`)).statusCode,
      ).toBe(403);
    });

    it('exports every row of a view larger than one batch, in order', async () => {
      const { client, cookie } = await clientWithCookie();
      const calls = Array.from({ length: 4_500 }, (_, i) => ({
        providerCallId: `bulk-${i}`,
        createdAt: NOW - DAY + Math.floor(i / 3) * 1000, // three calls share each second
        durationSeconds: i % 300,
      }));
      for (let i = 0; i < calls.length; i += 500) await storeCalls(t.deps, client, calls.slice(i, i + 500));
      const res = await download(cookie, '/api/client/calls/export?format=csv&status=all');
      const rows: Record<string, string>[] = parse(res.rawPayload, { bom: true, columns: true });
      expect(rows).toHaveLength(4_500);
      expect(new Set(rows.map((r) => r['Call ID'])).size).toBe(4_500);
      const times = rows.map((r) => r['Date and time']);
      expect([...times].sort().reverse()).toEqual(times);
    });
  });

  describe('column preferences', () => {
    it("remembers each person's columns apart, and refuses lists it cannot show", async () => {
      const a = await clientWithCookie();
      const b = await clientWithCookie();
      const admin = await createAdminUser(t.deps);
      const adminCookie = await loginAdmin(t.app, admin.username, admin.password);
      const put = (cookie: string, url: string, body: unknown) =>
        t.app.inject({ method: 'PUT', url, headers: { cookie }, payload: body as object });

      expect((await get(a.cookie, '/api/client/preferences')).body).toEqual({ callLogColumns: null });
      const saved = await put(a.cookie, '/api/client/preferences', { callLogColumns: ['created', 'cost'] });
      expect(saved.statusCode).toBe(200);
      expect((await get(a.cookie, '/api/client/preferences')).body).toEqual({
        callLogColumns: ['created', 'cost'],
      });
      // Another client and the admin keep their own.
      expect((await get(b.cookie, '/api/client/preferences')).body).toEqual({ callLogColumns: null });
      expect((await get(adminCookie, '/api/admin/preferences')).body).toEqual({ callLogColumns: null });
      await put(adminCookie, '/api/admin/preferences', { callLogColumns: ['status'] });
      expect((await get(a.cookie, '/api/client/preferences')).body).toEqual({
        callLogColumns: ['created', 'cost'],
      });

      for (const body of [
        { callLogColumns: [] },
        { callLogColumns: ['secret'] },
        { callLogColumns: ['cost', 'cost'] },
      ])
        expect((await put(a.cookie, '/api/client/preferences', body)).statusCode, JSON.stringify(body)).toBe(
          400,
        );
      // A body without the list keeps the stored one (updates are patches).
      expect((await put(a.cookie, '/api/client/preferences', {})).json()).toEqual({
        callLogColumns: ['created', 'cost'],
      });
      expect((await put(a.cookie, '/api/admin/preferences', { callLogColumns: ['cost'] })).statusCode).toBe(
        403,
      );
      // null goes back to every column.
      await put(a.cookie, '/api/client/preferences', { callLogColumns: null });
      expect((await get(a.cookie, '/api/client/preferences')).body).toEqual({ callLogColumns: null });
    });
  });
});
