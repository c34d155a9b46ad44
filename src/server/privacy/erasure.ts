/**
 * Erasure by caller (GDPR art. 17): every call from or to a phone number, or mentioning
 * an e-mail address, removed here and, where the platform has a delete API, at the platform, and a
 * receipt of what happened. Started by POST /api/client/erasure (202), run in the background,
 * followed with GET /api/client/erasure/{id}.
 *
 * What goes: the calls (transcript, summary, analysis, variables and stored payload with them,
 * and their search entries, which the database keeps from the row), the delivery log's entries
 * of those calls and kept bodies naming the subject, the outbox's messages about them (queued
 * ones are never sent), and the live events announcing them. What stays: the totals (the rollups
 * and running totals keep their numbers), and each call's provider id in `deleted_calls` so no
 * later sync or delivery brings it back; the receipt names the subject, as the law's record must.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { maskPhoneNumber } from '../../contract/phone-mask';
import type { ErasurePreview, ErasureProviderResult, ErasureStatus } from '../../contract/privacy';
import { parseTranscript } from '../../contract/transcript';
import { removeCallsKeepingTotals, withErasedTextScrubbed } from '../calls/write/personal-data';
import type { AppDeps } from '../context';
import type { ClientRow, Database } from '../db/schema';
import { badRequest } from '../http/errors';
import { voiceOf } from '../providers/voice/registry';
import { type ErasureSubject, excerptAround, subjectMatcher } from './erasure-match';

export type { ErasureSubject } from './erasure-match';

export const INVALID_PHONE =
  'Enter the caller’s phone number with its country code, for example +1 212 555 0100';

/** A phone number in any written form as E.164; a number without a country code is read as US. */
export function normalisePhone(input: string): string {
  const parsed = parsePhoneNumberFromString(input, 'US');
  if (!parsed?.isPossible()) throw badRequest(`phone: ${INVALID_PHONE}`, { phone: INVALID_PHONE });
  return parsed.number;
}

/** One call's answer from its platform, as the receipt lists it. */
interface CallAnswer {
  providerCallId: string;
  answer: 'deleted' | 'not_found' | 'failed' | 'unsupported' | 'not_at_provider';
  detail?: string;
}

interface StoredProviders {
  results: ErasureProviderResult[];
  calls: CallAnswer[];
  copies: { deliveries: number; messages: number; liveEvents: number };
}

const likePattern = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The columns an e-mail address is looked for in. */
const TEXT_COLUMNS = ['transcript', 'summary', 'analysis_json', 'variables_json', 'raw_payload'] as const;
const PAGE = 500;

export interface SubjectCall {
  id: string;
  provider_call_id: string;
  source: string;
  created_at: number;
  from_number: string;
}

/**
 * The client's calls of this subject, oldest id first: by their numbers, or (an e-mail) by the
 * texts that name it whole (erasure-match.ts). The preview and the erasure both ask this, so the
 * erasure takes exactly the calls the preview counted (as they stand when it runs). The database
 * narrows by a substring first (`lower()` on both: LIKE is case-sensitive on PostgreSQL); the
 * whole-address rule then drops `max@example.com` for `x@example.com`, page by page.
 */
export async function callsOf(
  db: Kysely<Database>,
  clientId: string,
  subject: ErasureSubject,
): Promise<SubjectCall[]> {
  const columns = ['id', 'provider_call_id', 'source', 'created_at', 'from_number'] as const;
  if (subject.kind === 'phone') {
    const numbers = [subject.value, subject.value.slice(1)];
    return db
      .selectFrom('calls')
      .select(columns)
      .where('client_id', '=', clientId)
      .where((eb) => eb.or([eb('from_number', 'in', numbers), eb('to_number', 'in', numbers)]))
      .orderBy('id')
      .execute();
  }
  const pattern = likePattern(subject.value.toLowerCase());
  const names = subjectMatcher(subject);
  const found: SubjectCall[] = [];
  for (let after = ''; ; ) {
    const page = await db
      .selectFrom('calls')
      .select([...columns, ...TEXT_COLUMNS])
      .where('client_id', '=', clientId)
      .where('id', '>', after)
      .where((eb) => eb.or(TEXT_COLUMNS.map((c) => eb(eb.fn('lower', [c]), 'like', pattern))))
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const row of page)
      if (names(...TEXT_COLUMNS.map((c) => row[c])))
        found.push({
          id: row.id,
          provider_call_id: row.provider_call_id,
          source: row.source,
          created_at: Number(row.created_at),
          from_number: row.from_number,
        });
    if (page.length < PAGE) return found;
    after = page[page.length - 1].id;
  }
}

const SAMPLE_SIZE = 5;

/**
 * What an erasure would remove, shown before it is confirmed: how many calls, and the newest few
 * (time, masked caller, a line of what was said around the subject) to recognise them by.
 */
export async function previewErasure(
  db: Kysely<Database>,
  clientId: string,
  subject: ErasureSubject,
): Promise<ErasurePreview> {
  const calls = await callsOf(db, clientId, subject);
  const newest = [...calls].sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1));
  const ids = newest.slice(0, SAMPLE_SIZE).map((c) => c.id);
  const texts =
    ids.length === 0
      ? []
      : await db
          .selectFrom('calls')
          .select(['id', 'summary', 'transcript', 'analysis_json', 'variables_json'])
          .where('client_id', '=', clientId)
          .where('id', 'in', ids)
          .execute();
  const byId = new Map(texts.map((t) => [t.id, t]));
  return {
    count: calls.length,
    sample: newest.slice(0, SAMPLE_SIZE).map((call) => {
      const t = byId.get(call.id);
      const spoken = (parseTranscript(t?.transcript ?? null) ?? []).map((l) => l.text).join(' ');
      const candidates = [t?.summary ?? '', spoken, t?.analysis_json ?? '', t?.variables_json ?? ''];
      const names = subjectMatcher(subject);
      const text = candidates.find((c) => c !== '' && names(c)) ?? candidates.find((c) => c !== '') ?? '';
      return {
        id: call.id,
        createdAt: call.created_at,
        caller: maskPhoneNumber(call.from_number),
        excerpt: text === '' ? null : excerptAround(text, subject),
      };
    }),
  };
}

export async function startErasure(
  deps: Pick<AppDeps, 'db' | 'now'>,
  client: Pick<ClientRow, 'id'>,
  subject: ErasureSubject,
  requestedBy: string,
): Promise<string> {
  const id = randomUUID();
  await deps.db
    .insertInto('erasure_requests')
    .values({
      id,
      client_id: client.id,
      subject_kind: subject.kind,
      subject: subject.value,
      requested_by: requestedBy,
      state: 'running',
      providers_json: JSON.stringify({
        results: [],
        calls: [],
        copies: { deliveries: 0, messages: 0, liveEvents: 0 },
      }),
      created_at: deps.now(),
    })
    .execute();
  return id;
}

/** Asks the platform to delete each call where it can; answers per call, never throws. */
async function deleteAtProvider(
  deps: Pick<AppDeps, 'voices' | 'secrets'>,
  client: ClientRow,
  calls: { provider_call_id: string; source: string }[],
): Promise<{ result: ErasureProviderResult; answers: CallAnswer[] }> {
  const voice = voiceOf(deps.voices, client);
  const result: ErasureProviderResult = {
    provider: voice.id,
    name: voice.name,
    deleted: 0,
    failed: 0,
    unsupported: 0,
  };
  const answers: CallAnswer[] = [];
  const key = client.bland_api_key_enc ? deps.secrets.decrypt(client.bland_api_key_enc) : null;
  for (const call of calls) {
    const providerCallId = call.provider_call_id;
    // Sample calls never existed at the platform.
    if (call.source === 'sample') {
      answers.push({ providerCallId, answer: 'not_at_provider' });
      continue;
    }
    if (!voice.deleteCall) {
      result.unsupported++;
      answers.push({ providerCallId, answer: 'unsupported' });
      continue;
    }
    if (!key) {
      result.failed++;
      answers.push({ providerCallId, answer: 'failed', detail: 'No API key is set for this client' });
      continue;
    }
    try {
      const answer = await voice.deleteCall(key, providerCallId);
      result.deleted++;
      answers.push({ providerCallId, answer });
    } catch (error) {
      result.failed++;
      answers.push({
        providerCallId,
        answer: 'failed',
        detail: error instanceof Error ? error.message.slice(0, 200) : 'failed',
      });
    }
  }
  return { result, answers };
}

/** Runs one erasure to its end; the row says 'done' (or 'failed' if the database refused). */
export async function runErasure(
  deps: Pick<AppDeps, 'db' | 'now' | 'voices' | 'secrets'>,
  client: ClientRow,
  erasureId: string,
): Promise<void> {
  const { db } = deps;
  const row = await db
    .selectFrom('erasure_requests')
    .selectAll()
    .where('id', '=', erasureId)
    .where('client_id', '=', client.id)
    .executeTakeFirstOrThrow();
  // kind and value were stored together from one ErasureSubject
  const subject = { kind: row.subject_kind, value: row.subject } as ErasureSubject;
  try {
    const calls = await callsOf(db, client.id, subject);
    const { result, answers } = await deleteAtProvider(deps, client, calls);
    const { removed, copies } = await withErasedTextScrubbed(
      db,
      async () => {
        const removed = await removeCallsKeepingTotals(
          db,
          client.id,
          { ids: calls.map((c) => c.id) },
          deps.now(),
        );
        return { removed, copies: await removeCopies(db, client.id, removed, subject) };
      },
      ({ removed }) => removed.length > 0,
    );
    const stored: StoredProviders = { results: calls.length > 0 ? [result] : [], calls: answers, copies };
    await db
      .updateTable('erasure_requests')
      .set({
        state: 'done',
        calls: removed.length,
        copies: copies.deliveries + copies.messages + copies.liveEvents,
        providers_json: JSON.stringify(stored),
        finished_at: deps.now(),
      })
      .where('id', '=', erasureId)
      .execute();
  } catch (error) {
    await db
      .updateTable('erasure_requests')
      .set({ state: 'failed', finished_at: deps.now() })
      .where('id', '=', erasureId)
      .execute();
    throw error;
  }
}

/** The copies of the erased calls kept elsewhere: delivery log entries, messages, live events. */
async function removeCopies(
  db: Kysely<Database>,
  clientId: string,
  calls: { id: string; provider_call_id: string }[],
  subject: ErasureSubject,
): Promise<StoredProviders['copies']> {
  let deliveries = 0;
  let messages = 0;
  let liveEvents = 0;
  for (let i = 0; i < calls.length; i += 200) {
    const batch = calls.slice(i, i + 200);
    deliveries += Number(
      (
        await db
          .deleteFrom('webhook_deliveries')
          .where('client_id', '=', clientId)
          .where(
            'provider_call_id',
            'in',
            batch.map((c) => c.provider_call_id),
          )
          .executeTakeFirst()
      ).numDeletedRows,
    );
    for (const call of batch) {
      messages += Number(
        (
          await db
            .deleteFrom('outbox')
            .where('client_id', '=', clientId)
            .where('payload_json', 'like', likePattern(`"callId":"${call.id}"`))
            .executeTakeFirst()
        ).numDeletedRows,
      );
      liveEvents += Number(
        (
          await db
            .deleteFrom('live_events')
            .where('client_id', '=', clientId)
            .where('payload', 'like', likePattern(call.id))
            .executeTakeFirst()
        ).numDeletedRows,
      );
    }
  }
  // Kept bodies that name the subject without a call of ours (refused deliveries), by the same
  // rule as the calls: narrowed by a substring, then only those naming the subject whole.
  const needle = subject.kind === 'phone' ? subject.value.slice(1) : subject.value.toLowerCase();
  const names = subjectMatcher(subject);
  const kept = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'raw_body'])
    .where('client_id', '=', clientId)
    .where((eb) => eb(eb.fn('lower', ['raw_body']), 'like', likePattern(needle)))
    .execute();
  const naming = kept.filter((d) => names(d.raw_body)).map((d) => d.id);
  for (let i = 0; i < naming.length; i += 200)
    deliveries += Number(
      (
        await db
          .deleteFrom('webhook_deliveries')
          .where('client_id', '=', clientId)
          .where('id', 'in', naming.slice(i, i + 200))
          .executeTakeFirst()
      ).numDeletedRows,
    );
  return { deliveries, messages, liveEvents };
}

function parseProviders(text: string): StoredProviders {
  try {
    // JSON.parse returns any; we wrote this text from a StoredProviders
    const value = JSON.parse(text) as StoredProviders;
    return { results: value.results ?? [], calls: value.calls ?? [], copies: value.copies };
  } catch {
    return { results: [], calls: [], copies: { deliveries: 0, messages: 0, liveEvents: 0 } };
  }
}

export type ErasureRow = Awaited<ReturnType<typeof findErasure>>;

export function findErasure(db: Kysely<Database>, clientId: string, id: string) {
  return db
    .selectFrom('erasure_requests')
    .selectAll()
    .where('id', '=', id)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

export async function listErasures(db: Kysely<Database>, clientId: string, limit = 50) {
  return db
    .selectFrom('erasure_requests')
    .selectAll()
    .where('client_id', '=', clientId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

type Row = NonNullable<ErasureRow>;

export function erasureStatusOf(row: Row, receiptBase: string): ErasureStatus {
  const stored = parseProviders(row.providers_json);
  return {
    id: row.id,
    state: row.state,
    subject: { kind: row.subject_kind, value: row.subject },
    requestedBy: row.requested_by,
    requestedAt: Number(row.created_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    calls: Number(row.calls),
    copies: Number(row.copies),
    providers: stored.results,
    receiptUrl: row.state === 'done' ? `${receiptBase}/${row.id}/receipt` : null,
    reportUrl: row.state === 'done' ? `${receiptBase}/${row.id}/report` : null,
  };
}

/** What stays after an erasure; never "nothing remains" while a platform may still hold a call. */
function keptText(results: ErasureProviderResult[]): string {
  const held = results.reduce((n, p) => n + p.unsupported + p.failed, 0);
  const base =
    'Totals, charts, usage and invoices keep their numbers. Each call’s platform id is kept so that no later import brings it back.';
  return held === 0
    ? `${base} No personal data of these calls remains here or at the platform.`
    : `${base} No personal data of these calls remains here; the platform may still hold ${held} ${held === 1 ? 'call' : 'calls'} (no delete there, or it failed).`;
}

/** The receipt as JSON: what was searched, what was removed, each platform's answer per call. */
export function erasureReceiptOf(row: Row, agency: string, clientName: string) {
  const stored = parseProviders(row.providers_json);
  return {
    receipt: 'erasure',
    id: row.id,
    agency,
    client: clientName,
    subject: { kind: row.subject_kind, value: row.subject },
    requestedBy: row.requested_by,
    requestedAt: new Date(Number(row.created_at)).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(Number(row.finished_at)).toISOString(),
    state: row.state,
    calls: Number(row.calls),
    copies: { total: Number(row.copies), ...stored.copies },
    providers: stored.results,
    perCall: stored.calls,
    kept: keptText(stored.results),
  };
}
export type ErasureReceipt = ReturnType<typeof erasureReceiptOf>;
