/**
 * The caller's data export (subject access; readable forms): every verified
 * call from or to one number, as JSON (the default, the whole record), as a CSV with one row per
 * call for a spreadsheet, or as a readable PDF (subject-export-pdf.ts). Reads calls only; the
 * route caps, records and sends.
 */
import { stringify } from 'csv-stringify/sync';
import type { Kysely } from 'kysely';
import { parseTranscript } from '../../contract/transcript';
import type { Database } from '../db/schema';
import { safeCell } from '../http/csv-cell';
import { parseJsonObject } from '../http/json-body';

export async function subjectExportOf(
  db: Kysely<Database>,
  client: { id: string; company_name: string | null; email: string },
  number: string,
  now: number,
) {
  const rows = await db
    .selectFrom('calls')
    .selectAll()
    .where('client_id', '=', client.id)
    .where('verified', '=', 1)
    .where((eb) =>
      eb.or([
        eb('from_number', 'in', [number, number.slice(1)]),
        eb('to_number', 'in', [number, number.slice(1)]),
      ]),
    )
    .orderBy('created_at')
    .execute();
  return {
    export: 'caller-data',
    phone: number,
    business: client.company_name ?? client.email,
    exportedAt: new Date(now).toISOString(),
    calls: rows.map((r) => ({
      id: r.id,
      providerCallId: r.provider_call_id,
      createdAt: new Date(Number(r.created_at)).toISOString(),
      fromNumber: r.from_number,
      toNumber: r.to_number,
      durationSeconds: Number(r.duration_seconds),
      status: r.status,
      outcome: r.outcome,
      summary: r.summary,
      transcript: parseTranscript(r.transcript) ?? [],
      analysis: parseJsonObject(r.analysis_json),
      variables: parseJsonObject(r.variables_json),
      hasRecording: r.recording_url !== null,
    })),
  };
}
export type SubjectExport = Awaited<ReturnType<typeof subjectExportOf>>;

/** "2026-06-10 19:00 UTC", as the erasure receipt writes its times. */
export const utcTime = (iso: string) => iso.replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC');

/** What the agent noted, as "name: value" lines (values that are objects as compact JSON). */
export function detailsOf(values: Record<string, unknown> | null): string[] {
  if (!values) return [];
  return Object.entries(values)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
}

const CSV_HEADER = [
  'Call',
  'Time',
  'From',
  'To',
  'Duration (seconds)',
  'Status',
  'Outcome',
  'Summary',
  'Transcript',
  'Details collected',
  'Recording kept',
];

/** One row per call; the transcript as "Speaker: words" lines inside its cell. */
export function subjectExportCsv(data: SubjectExport): string {
  const rows = data.calls.map((c) => [
    c.id,
    utcTime(c.createdAt),
    c.fromNumber,
    c.toNumber,
    String(c.durationSeconds),
    c.status,
    c.outcome ?? '',
    safeCell(c.summary ?? ''),
    safeCell(c.transcript.map((l) => `${l.speaker}: ${l.text}`).join('\n')),
    safeCell([...detailsOf(c.analysis), ...detailsOf(c.variables)].join('\n')),
    c.hasRecording ? 'yes' : 'no',
  ]);
  // A byte-order mark, so spreadsheet programs read accents right (as the calls export).
  return `\uFEFF${stringify([CSV_HEADER, ...rows])}`;
}
