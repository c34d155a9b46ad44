/**
 * A one-sheet Excel workbook written as a stream (the exports): the sheet's XML is produced
 * row by row, as yazl's deflater asks for more, so a million rows take the memory of a few.
 *
 * Why not ExcelJS: its streaming writer keeps every hyperlink and formula cell until the sheet
 * ends, feeds its compressor without waiting, and builds several objects per cell; a million rows
 * grew the server by hundreds of megabytes (bench/RESULTS.md). What a call export needs of
 * SpreadsheetML is small: inline strings, numbers, dates and amounts with a number format, a bold
 * frozen header row and column widths. The tests read the files back with ExcelJS's reader.
 */
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';

export type XlsxCellKind = 'text' | 'number' | 'date' | 'money';

export interface XlsxColumn {
  header: string;
  kind: XlsxCellKind;
  /** In characters, as Excel measures widths. */
  width: number;
}

/** A row's values in column order: text, numbers, and for dates epoch milliseconds of the wall time. */
export type XlsxRow = (string | number | null)[];

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Style indexes of styles.xml's cellXfs, in its order. */
const STYLE = { plain: 0, header: 1, date: 2, money: 3 } as const;
/** Excel's date serial: days since 1899-12-30, the day fraction the time. */
const EXCEL_EPOCH_DAYS = 25_569;
const DAY_MS = 86_400_000;
/** Excel's limit for a cell's text. */
const MAX_CELL_CHARS = 32_767;

const STYLES = `${XML}<styleSheet xmlns="${MAIN}"><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/><numFmt numFmtId="165" formatCode="&quot;$&quot;#,##0.00"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

function packageParts(sheetName: string): [string, string][] {
  return [
    [
      '[Content_Types].xml',
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `${XML}<Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELS}"><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML}<Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELS}/styles" Target="styles.xml"/></Relationships>`,
    ],
    ['xl/styles.xml', STYLES],
  ];
}

/**
 * Text as XML character data: markup escaped, and the characters XML 1.0 cannot hold at all (most
 * control characters, lone surrogates) dropped, since one of them would make the file unreadable.
 */
export function escapeXml(text: string): string {
  return text
    .replace(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to drop
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      '',
    )
    .replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** A, B, … Z, AA, … */
function columnLetter(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

function textCell(ref: string, value: string, style: number = STYLE.plain): string {
  const text = escapeXml(value.length > MAX_CELL_CHARS ? value.slice(0, MAX_CELL_CHARS) : value);
  return `<c r="${ref}" t="inlineStr"${style ? ` s="${style}"` : ''}><is><t xml:space="preserve">${text}</t></is></c>`;
}

function cell(ref: string, kind: XlsxCellKind, value: string | number | null): string {
  if (value === null || value === '') return '';
  if (kind === 'text' || typeof value === 'string') return textCell(ref, String(value));
  if (!Number.isFinite(value)) return '';
  if (kind === 'date')
    return `<c r="${ref}" s="${STYLE.date}"><v>${value / DAY_MS + EXCEL_EPOCH_DAYS}</v></c>`;
  if (kind === 'money') return `<c r="${ref}" s="${STYLE.money}"><v>${value}</v></c>`;
  return `<c r="${ref}"><v>${value}</v></c>`;
}

async function* sheetXml(columns: XlsxColumn[], rows: AsyncIterable<XlsxRow[]>): AsyncGenerator<string> {
  const letters = columns.map((_, i) => columnLetter(i));
  const widths = columns.map(
    (c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`,
  );
  const header = columns.map((c, i) => textCell(`${letters[i]}1`, c.header, STYLE.header)).join('');
  yield `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${RELS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols>${widths.join('')}</cols><sheetData><row r="1">${header}</row>`;
  let r = 1;
  for await (const batch of rows) {
    // One string per batch (the caller sends a hundred rows at a time).
    let xml = '';
    for (const row of batch) {
      r++;
      xml += `<row r="${r}">`;
      for (let i = 0; i < columns.length; i++)
        xml += cell(`${letters[i]}${r}`, columns[i].kind, row[i] ?? null);
      xml += '</row>';
    }
    yield xml;
  }
  yield '</sheetData></worksheet>';
}

/**
 * The workbook's bytes. Rows come in batches from `rows` (pulled only as fast as the reader takes
 * the file); a failure while reading them destroys the stream, so a download never ends looking
 * complete.
 */
export function xlsxStream(
  columns: XlsxColumn[],
  rows: AsyncIterable<XlsxRow[]>,
  sheetName = 'Sheet1',
): Readable {
  const zip = new ZipFile();
  for (const [name, content] of packageParts(sheetName)) zip.addBuffer(Buffer.from(content), name);
  const sheet = Readable.from(sheetXml(columns, rows));
  // yazl types outputStream as a plain stream; it is a Readable
  const output = zip.outputStream as Readable;
  sheet.on('error', (error) => output.destroy(error));
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml');
  zip.end();
  return output;
}
