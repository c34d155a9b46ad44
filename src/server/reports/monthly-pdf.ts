/**
 * The monthly report as a PDF: the month's KPIs against the month before, outcomes,
 * completed calls per day, the busiest pathways, and cost and usage against the plan. Drawn with
 * PDFKit's vector operations and its built-in Helvetica, so no font or browser is needed.
 * Branded with the agency's light logo, name, primary colour and footer text
 * (pdf-brand.ts loads them); the page is white, so coloured text uses the palette's primaryText.
 */
import PDFDocument from 'pdfkit';
import { formatCount, formatDuration, formatMoney } from '../../contract/format';
import { formatCalendarDate } from '../../contract/local-time';
import { drawBrandHeader, type PdfBrand } from './pdf-header';
import type { PeriodReport } from './period-report';

const INK = '#0f172a';
const MUTED = '#475569';
const LINE = '#e2e8f0';
const DEFAULT_ACCENT = '#1d4ed8';
const MARGIN = 48;

export function plainPdfBrand(name: string): PdfBrand {
  return { name, primary: DEFAULT_ACCENT, primaryText: DEFAULT_ACCENT, footerText: null, logo: null };
}

export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** "+12.5% vs last month" (or, in a table, "+12.5%"); "no earlier data" when last month had none. */
function change(current: number, previous: number | undefined, short = false): string {
  if (previous === undefined) return '';
  if (previous === 0) return current === 0 ? (short ? '—' : 'no change') : short ? 'new' : 'no earlier data';
  const pct = Math.round(((current - previous) / previous) * 1000) / 10;
  return `${pct > 0 ? '+' : ''}${pct.toFixed(1)}%${short ? '' : ' vs last month'}`;
}

export async function renderMonthlyPdf(
  report: PeriodReport,
  month: string,
  brandOrName: PdfBrand | string,
): Promise<Buffer> {
  const look = typeof brandOrName === 'string' ? plainPdfBrand(brandOrName) : brandOrName;
  const brand = look.name;
  const accent = look.primary;
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    // Footers are drawn on every page once the content is laid out.
    bufferPages: true,
    info: { Title: `${brand} · ${report.clientName} · ${monthLabel(month)}`, Author: brand },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const width = doc.page.width - MARGIN * 2;

  drawBrandHeader(doc, look, MARGIN, 10);
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(22)
    .text(`Monthly report · ${monthLabel(month)}`);
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(10)
    .text(
      `${report.clientName} · ${formatCalendarDate(report.from, report.locale)} to ${formatCalendarDate(report.to, report.locale)} · times in ${report.zoneName}`,
    );
  doc.moveDown(1);

  // KPI tiles
  const s = report.stats;
  const p = s.previousPeriod;
  const tiles: [string, string, string][] = [
    ['Calls', formatCount(s.totalCalls), change(s.totalCalls, p?.totalCalls)],
    ['Minutes', formatCount(report.minutes), ''],
    ['Average duration', formatDuration(s.avgDuration), change(s.avgDuration, p?.avgDuration)],
    ['Transfers', formatCount(s.totalTransfers), change(s.totalTransfers, p?.totalTransfers)],
    ['Call cost', formatMoney(s.totalCost), change(s.totalCost, p?.totalCost)],
    ['Needs attention', formatCount(report.needsAttention), 'still open'],
  ];
  const tileW = (width - 2 * 12) / 3;
  const tileH = 64;
  const top = doc.y;
  tiles.forEach(([label, value, note], i) => {
    const x = MARGIN + (i % 3) * (tileW + 12);
    const y = top + Math.floor(i / 3) * (tileH + 12);
    doc.roundedRect(x, y, tileW, tileH, 6).strokeColor(LINE).lineWidth(1).stroke();
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(9)
      .text(label, x + 10, y + 9, { width: tileW - 20 });
    doc
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(18)
      .text(value, x + 10, y + 22, { width: tileW - 20 });
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(8)
      .text(note, x + 10, y + 46, { width: tileW - 20 });
  });
  doc.y = top + 2 * (tileH + 12) + 6;

  section(doc, 'Completed calls per day', look.primaryText);
  drawBars(doc, report, width, accent);

  const outcomes = report.outcomes.filter((o) => o.count > 0 || o.previousCount > 0);
  // The platform's word for a call's flow is its own term: a client not shown it reads "call type".
  const pathway = report.showPlatform
    ? { title: 'Busiest pathways', column: 'Pathway' }
    : { title: 'Busiest call types', column: 'Call type' };
  sideBySide(
    doc,
    width,
    {
      title: 'Outcomes',
      empty: 'No calls were classified this month.',
      // Short enough for its column beside the call types (the tiles say "vs last month").
      head: ['Outcome', 'Calls', 'Value', 'Change'],
      rows: outcomes.map((o) => [
        o.name,
        formatCount(o.count),
        o.value === null ? '—' : formatMoney(o.value),
        change(o.count, o.previousCount, true),
      ]),
    },
    {
      title: pathway.title,
      empty: 'No calls this month.',
      head: [pathway.column, 'Calls'],
      rows: report.topPathways.map((t) => [t.pathway || '—', formatCount(t.calls)]),
    },
    look.primaryText,
  );

  section(doc, 'Cost and usage', look.primaryText);
  if (report.plan) {
    const { plan } = report;
    const used = plan.minutesIncluded > 0 ? Math.min(1, report.minutes / plan.minutesIncluded) : 0;
    doc
      .fillColor(INK)
      .font('Helvetica')
      .fontSize(10)
      .text(
        `${plan.name} plan: ${formatCount(report.minutes)} of ${formatCount(plan.minutesIncluded)} minutes used (${Math.round(
          (report.minutes / Math.max(1, plan.minutesIncluded)) * 100,
        )}%), ${formatMoney(plan.monthlyPrice)} a month. Call cost this month: ${formatMoney(s.totalCost)}.`,
        { width },
      );
    const y = doc.y + 6;
    doc.roundedRect(MARGIN, y, width, 8, 4).fillColor(LINE).fill();
    if (used > 0)
      doc
        .roundedRect(MARGIN, y, Math.max(8, width * used), 8, 4)
        .fillColor(used >= 1 ? '#b91c1c' : accent)
        .fill();
    doc.y = y + 16;
  } else {
    note(
      doc,
      `No plan this month. Call cost: ${formatMoney(s.totalCost)} for ${formatCount(report.minutes)} minutes.`,
    );
  }

  drawFooters(doc, width, [
    look.footerText,
    'Numbers as the dashboard shows them, in your time zone. Minutes leave sample calls out.',
  ]);
  doc.end();
  return done;
}

type Doc = InstanceType<typeof PDFDocument>;

/** Room kept at the bottom of each page for its footer (two lines). */
const FOOTER_ROOM = 32;

function ensureRoom(doc: Doc, height: number) {
  if (doc.y + height > bottomOf(doc)) doc.addPage();
}

function bottomOf(doc: Doc) {
  return doc.page.height - MARGIN - FOOTER_ROOM;
}

/**
 * The footer lines at the foot of every page, and "Page 1 of 2" when there are more. They are drawn
 * inside the bottom margin, where PDFKit would otherwise start a page of its own for them (the
 * lone footer line a second page used to hold).
 */
function drawFooters(doc: Doc, width: number, texts: (string | null)[]) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const lines = texts.filter((line): line is string => Boolean(line));
    if (range.count > 1) lines.push(`Page ${i - range.start + 1} of ${range.count}`);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    lines.forEach((line, n) => {
      doc
        .fillColor(MUTED)
        .font('Helvetica')
        .fontSize(8)
        .text(line, MARGIN, doc.page.height - MARGIN - 10 - (lines.length - 1 - n) * 11, {
          width,
          lineBreak: false,
          ellipsis: true,
        });
    });
    doc.page.margins.bottom = bottom;
  }
}

interface TableBlock {
  title: string;
  /** Said instead of the table when it has no rows. */
  empty: string;
  head: string[];
  rows: string[][];
}

const ROW_HEIGHT = 16;

/** The height a section with this table takes: its heading, the header row and every row. */
function blockHeight(block: TableBlock) {
  return 40 + (block.rows.length === 0 ? 14 : (block.rows.length + 1) * ROW_HEIGHT);
}

/**
 * Two tables side by side when both fit on what is left of the page (a month of outcomes and
 * call types then stays on one page), else one after the other at full width, each breaking
 * where it must.
 */
function sideBySide(doc: Doc, width: number, left: TableBlock, right: TableBlock, colour: string) {
  const gap = 24;
  const leftW = (width - gap) * 0.6;
  const rightW = width - gap - leftW;
  const height = Math.max(blockHeight(left), blockHeight(right));
  if (doc.y + height > bottomOf(doc)) {
    for (const block of [left, right]) {
      section(doc, block.title, colour);
      if (block.rows.length === 0) note(doc, block.empty);
      table(doc, width, block.head, block.rows);
    }
    return;
  }
  doc.moveDown(0.8);
  const top = doc.y;
  let end = top;
  for (const [block, x, w] of [
    [left, MARGIN, leftW],
    [right, MARGIN + leftW + gap, rightW],
  ] as const) {
    doc.y = top;
    doc.fillColor(colour).font('Helvetica-Bold').fontSize(13).text(block.title, x, top, { width: w });
    doc.moveDown(0.3);
    if (block.rows.length === 0) doc.fillColor(MUTED).font('Helvetica').fontSize(10).text(block.empty, x);
    table(doc, w, block.head, block.rows, x);
    end = Math.max(end, doc.y);
  }
  doc.x = MARGIN;
  doc.y = end;
}

function section(doc: Doc, title: string, colour: string) {
  ensureRoom(doc, 60);
  doc.moveDown(0.8);
  doc.fillColor(colour).font('Helvetica-Bold').fontSize(13).text(title, MARGIN);
  doc.moveDown(0.3);
}

function note(doc: Doc, text: string) {
  doc.fillColor(MUTED).font('Helvetica').fontSize(10).text(text, MARGIN);
}

function table(doc: Doc, width: number, head: string[], rows: string[][], left = MARGIN) {
  if (rows.length === 0) return;
  const first = width * (head.length > 2 ? 0.4 : 0.6);
  const rest = (width - first) / (head.length - 1);
  const colX = (i: number) => left + (i === 0 ? 0 : first + (i - 1) * rest);
  const colW = (i: number) => (i === 0 ? first : rest) - 8;
  const row = (cells: string[], bold: boolean) => {
    ensureRoom(doc, ROW_HEIGHT + 2);
    const y = doc.y;
    cells.forEach((cell, i) => {
      doc
        .fillColor(bold ? MUTED : INK)
        .font(bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(9.5)
        .text(cell, colX(i), y, {
          width: colW(i),
          align: i === 0 ? 'left' : 'right',
          lineBreak: false,
          ellipsis: true,
        });
    });
    doc.y = y + ROW_HEIGHT;
    doc
      .moveTo(left, doc.y - 3)
      .lineTo(left + width, doc.y - 3)
      .strokeColor(LINE)
      .lineWidth(0.5)
      .stroke();
  };
  row(head, true);
  for (const cells of rows) row(cells, false);
}

/** The chart's scale: a round top at or above the busiest day, halved once for a middle line. */
function chartScale(max: number): number[] {
  const top = Math.max(2, max % 2 === 0 ? max : max + 1);
  return [0, top / 2, top];
}

/**
 * Completed calls per day as bars: a y axis titled "Calls" with its scale from zero (and light
 * lines across at each step), an x axis titled "Day of the month" with every seventh day.
 */
function drawBars(doc: Doc, report: PeriodReport, width: number, fill: string) {
  const height = 110;
  const axisRoom = 24;
  ensureRoom(doc, height + 44);
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(7)
    .text('Calls', MARGIN, doc.y + 2);
  const top = doc.y + 6;
  const left = MARGIN + axisRoom;
  const plotW = width - axisRoom;
  const points = report.perDay;
  const ticks = chartScale(Math.max(0, ...points.map((pt) => pt.count)));
  const max = ticks[ticks.length - 1];
  const slot = plotW / Math.max(1, points.length);
  for (const tick of ticks) {
    const y = top + height - (tick / max) * height;
    doc
      .moveTo(left, y)
      .lineTo(left + plotW, y)
      .strokeColor(LINE)
      .lineWidth(tick === 0 ? 1 : 0.5)
      .stroke();
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(7)
      .text(formatCount(tick), MARGIN, y - 3, { width: axisRoom - 6, align: 'right', lineBreak: false });
  }
  doc
    .moveTo(left, top)
    .lineTo(left, top + height)
    .strokeColor(LINE)
    .lineWidth(1)
    .stroke();
  points.forEach((pt, i) => {
    const h = (pt.count / max) * height;
    if (h > 0)
      doc
        .rect(left + i * slot + slot * 0.15, top + height - h, slot * 0.7, h)
        .fillColor(fill)
        .fill();
    // The day under the first one and every seventh.
    if (i % 7 === 0)
      doc
        .fillColor(MUTED)
        .font('Helvetica')
        .fontSize(7)
        .text(String(Number(pt.date.slice(8, 10))), left + i * slot, top + height + 4, {
          width: slot,
          align: 'center',
          lineBreak: false,
        });
  });
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(7)
    .text('Day of the month', left, top + height + 14, { width: plotW, align: 'center', lineBreak: false });
  doc.x = MARGIN;
  doc.y = top + height + 26;
}
