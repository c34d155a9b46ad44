/**
 * The caller's data export as a readable PDF: the agency's brand, then every call of
 * the number with its time, length and outcome, summary, transcript and what the agent noted, in
 * the words a caller reads (no ids of the platform's). PDFKit's built-in Helvetica; pages follow
 * the text.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import PDFDocument from 'pdfkit';
import type { PdfBrand } from '../reports/pdf-header';
import { drawBrandHeader } from '../reports/pdf-header';
import { detailsOf, type SubjectExport, utcTime } from './subject-export';

const INK = '#0f172a';
const MUTED = '#475569';
const MARGIN = 56;

/** "2 min 5 s": a caller reads lengths, not clock times. */
const length = (seconds: number) => {
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m > 0 ? `${m} min ${s} s` : `${s} s`;
};
const readable = (number: string) => parsePhoneNumberFromString(number)?.formatInternational() ?? number;

export function renderSubjectExportPdf(data: SubjectExport, brand: PdfBrand): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `${brand.name} · Your data held by ${data.business}`, Author: brand.name },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  drawBrandHeader(doc, brand, MARGIN);

  doc.fillColor(INK).font('Helvetica-Bold').fontSize(20).text(`Your data held by ${data.business}`);
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(10)
    .text(
      `Every call with the phone number ${readable(data.phone)}, as kept on ${utcTime(data.exportedAt)}. ` +
        'Words replaced by a label in brackets, such as [CARD], were never kept.',
      { lineGap: 2 },
    );

  if (data.calls.length === 0) {
    doc.moveDown();
    doc.fillColor(INK).fontSize(10.5).text('No call with this number is kept.');
  }
  for (const call of data.calls) {
    doc.moveDown(1.2);
    doc
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(12)
      .text(`Call on ${utcTime(call.createdAt)}`);
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(10)
      .text(
        `From ${readable(call.fromNumber)} to ${readable(call.toNumber)} · ${length(call.durationSeconds)} · ${call.outcome ?? call.status}` +
          (call.hasRecording ? ' · a recording is kept' : ''),
      );
    const section = (title: string, lines: string[]) => {
      if (lines.length === 0) return;
      doc.moveDown(0.4);
      doc.fillColor(INK).font('Helvetica-Bold').fontSize(10.5).text(title);
      doc.font('Helvetica').fontSize(10);
      for (const line of lines) doc.text(line, { lineGap: 1.5 });
    };
    section('Summary', call.summary ? [call.summary] : []);
    section(
      'Conversation',
      call.transcript.map((l) => `${l.speaker}: ${l.text}`),
    );
    section('Details noted during the call', [...detailsOf(call.analysis), ...detailsOf(call.variables)]);
  }

  doc.moveDown(1.5);
  doc.fillColor(MUTED).font('Helvetica').fontSize(9);
  doc.text(`Prepared for the person with this number by ${data.business}.`);
  if (brand.footerText) doc.text(brand.footerText);
  doc.end();
  return done;
}
