/**
 * Exports of a call log's filtered view as CSV or Excel, streamed from the database:
 * rows are read in keyset batches (never OFFSET, never all at once) and written as they arrive,
 * and the writer waits while the connection is slow, so memory stays flat whatever the row count.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { type Kysely, sql } from 'kysely';
import type { CallFilterQuery, ExportFormat } from '../../../contract/calls';
import { formatLocalDateTime } from '../../../contract/local-time';
import { maskPhoneNumber } from '../../../contract/phone-mask';
import { numberMasker } from '../../access/number-masking';
import { agencyClientIds } from '../../clients/clients-repository';
import type { Database } from '../../db/schema';
import { safeCell } from '../../http/csv-cell';
import { file, XLSX } from '../../http/route-docs';
import { localDateTime } from '../../time/time-zones';
import { filteredCalls, type LogWindow, logOrder, SORT_COLUMNS } from './call-log';
import { logSearchOf } from './call-search';
import { type XlsxColumn, type XlsxRow, xlsxStream } from './xlsx-stream';

/** The log's download as the API description shows it. */
export const CALL_LOG_DOWNLOAD = { 200: file('The call log as CSV or XLSX (`format`).', 'text/csv', XLSX) };

const BATCH = 2_000;

/** One exported call as the database gives it. */
interface ExportRow {
  id: string;
  client_id: string;
  created_at: number;
  from_number: string;
  to_number: string;
  duration_seconds: number;
  status: string;
  outcome: string | null;
  pathway: string;
  cost_micros: number;
  summary: string | null;
  quality_latency_p90_ms: number | null;
  quality_interruptions_caller: number | null;
  quality_dead_air_ms: number | null;
}

/** Whose calls an export holds: one client's, or (the admin's) every client's. */
export interface ExportScope {
  /** null: every one of the agency's clients (clients-repository `agencyClientIds`). */
  clientId: string | null;
  /** Each client's name, zone and date locale, by id (one entry for a single client). */
  clients: Map<string, { name: string; timezone: string; locale: string }>;
  window: LogWindow;
  /** The link to a call, for the spreadsheet's last column. */
  callLink: (clientId: string, callId: string) => string;
  /** The reader sees masked numbers: numbers searched only whole, and masked in every row. */
  numbersMasked?: boolean;
  /**
   * Told the rows read once the file is complete (before its last bytes leave) or broken off: the
   * activity line of a client user's export.
   */
  finished?: (rows: number, complete: boolean) => Promise<void>;
}

/** The calls of the view in keyset batches, in the view's order (relevance exports newest first). */
async function* exportBatches(
  db: Kysely<Database>,
  scope: ExportScope,
  query: CallFilterQuery,
): AsyncGenerator<ExportRow[]> {
  const search = query.search ? logSearchOf(query.search, scope.numbersMasked === true) : null;
  const { sort, order } = logOrder(query, search);
  const column = SORT_COLUMNS[sort === 'relevance' ? 'created' : sort];
  const direction = sort === 'relevance' ? 'desc' : order;
  const past = direction === 'desc' ? sql.raw('<') : sql.raw('>');
  let after: { key: number; id: string } | null = null;
  for (;;) {
    let q = filteredCalls(db, scope.clientId, query, scope.window, search)
      // Every client's export is the agency's clients' calls: not the demo's, not a draft's.
      .$if(scope.clientId === null, (q) => q.where('calls.client_id', 'in', agencyClientIds(db)))
      .select([
        'calls.id',
        'calls.client_id',
        'calls.created_at',
        'calls.from_number',
        'calls.to_number',
        'calls.duration_seconds',
        'calls.status',
        'calls.outcome',
        'calls.pathway',
        'calls.cost_micros',
        'calls.summary',
        'calls.quality_latency_p90_ms',
        'calls.quality_interruptions_caller',
        'calls.quality_dead_air_ms',
      ])
      .orderBy(`calls.${column}`, direction)
      .orderBy('calls.id', direction)
      .limit(BATCH);
    if (after) {
      const { key, id } = after;
      // The plain bound lets the index seek; the row comparison breaks ties by id.
      q = q
        .where(`calls.${column}`, direction === 'desc' ? '<=' : '>=', key)
        .where(sql<boolean>`(${sql.ref(`calls.${column}`)}, calls.id) ${past} (${key}, ${id})`);
    }
    // Kysely cannot type the keyset where clauses' query; it selects ExportRow's columns
    const rows = (await q.execute()) as ExportRow[];
    if (rows.length === 0) return;
    yield scope.numbersMasked ? rows.map(maskedRow) : rows;
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1];
    after = { key: Number(last[column]), id: last.id };
  }
}

/** A row as a user who sees masked numbers gets it: the numbers, and the texts that may say them. */
function maskedRow(row: ExportRow): ExportRow {
  const mask = numberMasker([row.from_number, row.to_number]);
  return {
    ...row,
    from_number: maskPhoneNumber(row.from_number),
    to_number: maskPhoneNumber(row.to_number),
    summary: row.summary === null ? null : mask(row.summary),
    outcome: row.outcome === null ? null : mask(row.outcome),
    pathway: mask(row.pathway),
  };
}

/** The batches of an export, counted: `finished` hears the total when the reading ends. */
async function* countedBatches(
  db: Kysely<Database>,
  scope: ExportScope,
  query: CallFilterQuery,
): AsyncGenerator<ExportRow[]> {
  let rows = 0;
  let complete = false;
  try {
    for await (const batch of exportBatches(db, scope, query)) {
      rows += batch.length;
      yield batch;
    }
    complete = true;
  } finally {
    // A download broken off is recorded too, with the rows read so far: they may have left.
    await scope.finished?.(rows, complete);
  }
}

/** What a row's columns are made of. */
function cells(row: ExportRow, scope: ExportScope) {
  const client = scope.clients.get(row.client_id);
  const timezone = client?.timezone ?? 'UTC';
  const createdAt = Number(row.created_at);
  return {
    clientName: client?.name ?? row.client_id,
    local: localDateTime(createdAt, timezone),
    /** As the client's e-mails write it: its locale's date format and the zone's short name. */
    written: formatLocalDateTime(createdAt, { timeZone: timezone, locale: client?.locale ?? 'en-US' }),
    timezone,
    from: row.from_number,
    to: row.to_number,
    duration: Number(row.duration_seconds),
    status: row.status,
    outcome: row.outcome ?? '',
    pathway: row.pathway,
    cents: Math.round(Number(row.cost_micros) / 10_000),
    summary: row.summary ?? '',
    id: row.id,
    link: scope.callLink(row.client_id, row.id),
    latencyP90Ms: row.quality_latency_p90_ms,
    interruptionsCaller: row.quality_interruptions_caller,
    deadAirMs: row.quality_dead_air_ms,
  };
}
type Cells = ReturnType<typeof cells>;

/** A column of both files: its heading and Excel layout, and its value in each format. */
interface ExportColumn extends XlsxColumn {
  csv: (c: Cells) => string | number;
  xlsx: (c: Cells) => string | number | null;
}

/** A text column; `typed` says the value may hold what the client or the provider wrote (safeCell). */
const text = (header: string, width: number, value: (c: Cells) => string, typed = true): ExportColumn => ({
  header,
  kind: 'text',
  width,
  csv: (c) => (typed ? safeCell(value(c)) : value(c)),
  xlsx: value,
});

/** A number column from milliseconds, in seconds to a tenth. */
const seconds = (header: string, ms: (c: Cells) => number | null): ExportColumn => ({
  header,
  kind: 'number',
  width: 12,
  csv: (c) => {
    const v = ms(c);
    return v === null ? '' : (v / 1000).toFixed(1);
  },
  xlsx: (c) => {
    const v = ms(c);
    return v === null ? null : Math.round(v / 100) / 10;
  },
});

const count = (header: string, value: (c: Cells) => number | null): ExportColumn => ({
  header,
  kind: 'number',
  width: 12,
  csv: (c) => value(c) ?? '',
  xlsx: (c) => value(c),
});

const COLUMNS: ExportColumn[] = [
  {
    header: 'Date and time',
    kind: 'date',
    width: 20,
    csv: (c) => c.local,
    // A date cell holds wall time: the local time, read as if it were UTC.
    xlsx: (c) => Date.parse(`${c.local.replace(' ', 'T')}Z`),
  },
  text('Time zone', 20, (c) => c.timezone, false),
  text('From', 16, (c) => c.from),
  text('To', 16, (c) => c.to),
  {
    header: 'Duration (seconds)',
    kind: 'number',
    width: 10,
    csv: (c) => c.duration,
    xlsx: (c) => c.duration,
  },
  text('Status', 12, (c) => c.status, false),
  text('Outcome', 18, (c) => c.outcome),
  text('Pathway', 14, (c) => c.pathway),
  {
    header: 'Cost (USD)',
    kind: 'money',
    width: 10,
    csv: (c) => (c.cents / 100).toFixed(2),
    xlsx: (c) => c.cents / 100,
  },
  text('Summary', 60, (c) => c.summary),
  text('Call ID', 24, (c) => c.id, false),
  text('Link', 40, (c) => c.link, false),
  // Conversation quality, last so the earlier columns keep their places; empty when
  // the call was not measured or its timing cannot say.
  seconds('Response p90 (seconds)', (c) => c.latencyP90Ms),
  count('Caller interruptions', (c) => c.interruptionsCaller),
  seconds('Longest dead air (seconds)', (c) => c.deadAirMs),
  // The first column stays machine-readable (sortable, a date cell in Excel); this one reads as
  // the client's e-mails and reports write the time, and is last so no column moves.
  text('Local time', 26, (c) => c.written, false),
];
/** The all-clients export names each row's client first. */
const CLIENT_COLUMN = text('Client', 24, (c) => c.clientName);

function columnsOf(scope: ExportScope): ExportColumn[] {
  return scope.clientId === null ? [CLIENT_COLUMN, ...COLUMNS] : COLUMNS;
}

/** CSV (UTF-8 with a byte-order mark, so spreadsheet programs read accents right). */
function csvStream(db: Kysely<Database>, scope: ExportScope, query: CallFilterQuery): Readable {
  const columns = columnsOf(scope);
  const record = (row: ExportRow) => {
    const c = cells(row, scope);
    return columns.map((column) => column.csv(c));
  };
  // One chunk per batch: the response's compressor costs a thread-pool round trip per chunk, so
  // a chunk per row (csv-stringify's stream) ran at a tenth of the speed.
  async function* chunks() {
    yield stringify([columns.map((column) => column.header)], { bom: true });
    for await (const batch of countedBatches(db, scope, query)) yield stringify(batch.map(record));
  }
  return Readable.from(chunks());
}

/** Excel: real dates (the local wall time, formatted) and amounts as numbers in a currency format. */
function excelStream(db: Kysely<Database>, scope: ExportScope, query: CallFilterQuery): Readable {
  const columns = columnsOf(scope);
  const record = (row: ExportRow): XlsxRow => {
    const c = cells(row, scope);
    return columns.map((column) => column.xlsx(c));
  };
  async function* rows(): AsyncGenerator<XlsxRow[]> {
    // A hundred rows at a time: what waits for the compressor stays small enough to die young.
    for await (const batch of countedBatches(db, scope, query))
      for (let i = 0; i < batch.length; i += 100) yield batch.slice(i, i + 100).map(record);
  }
  return xlsxStream(columns, rows(), 'Calls');
}

export const EXPORT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The export as a stream of the file's bytes. */
export function exportCalls(
  db: Kysely<Database>,
  scope: ExportScope,
  query: CallFilterQuery,
  format: ExportFormat,
): Readable {
  return format === 'csv' ? csvStream(db, scope, query) : excelStream(db, scope, query);
}
