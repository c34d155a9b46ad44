/**
 * An erasure's receipt as a one-page PDF (issue 38), for the client to send to the caller: what
 * was searched, who asked and when, how many calls and copies were removed, and each platform's
 * answer. Drawn with PDFKit's built-in Helvetica like the monthly report, under the agency's brand.
 */
import PDFDocument from 'pdfkit';
import { formatCount } from '../../contract/format';
import type { PdfBrand } from '../reports/monthly-pdf';
import type { ErasureReceipt } from './erasure';

const INK = '#0f172a';
const MUTED = '#475569';
const MARGIN = 56;

const ANSWER_WORDS: Record<string, string> = {
  deleted: 'deleted at the platform',
  not_found: 'already gone at the platform',
  failed: 'the platform refused or did not answer',
  unsupported: 'the platform offers no way to delete it',
  not_at_provider: 'sample data, never at a platform',
};

/**
 * `showPlatform`: the receipt goes to the caller; unless the agency names its voice platform to
 * this client, it speaks of "the call service" and never names the vendor.
 */
export function renderErasureReceiptPdf(
  receipt: ErasureReceipt,
  brand: PdfBrand,
  { showPlatform = true }: { showPlatform?: boolean } = {},
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `${brand.name} · Erasure receipt ${receipt.id}`, Author: brand.name },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));

  doc.fillColor(brand.primaryText).font('Helvetica-Bold').fontSize(11).text(brand.name);
  doc.moveDown(0.5);
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(20).text('Erasure receipt');
  doc.fillColor(MUTED).font('Helvetica').fontSize(10).text(`Receipt ${receipt.id}`);
  doc.moveDown();

  const line = (label: string, value: string) => {
    doc.fillColor(MUTED).font('Helvetica').fontSize(10).text(label, { continued: true });
    doc.fillColor(INK).font('Helvetica-Bold').text(`  ${value}`);
  };
  line('Business:', receipt.client);
  line(
    receipt.subject.kind === 'phone' ? 'Phone number searched:' : 'E-mail address searched:',
    receipt.subject.value,
  );
  line('Asked by:', receipt.requestedBy);
  line('Asked at:', receipt.requestedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'));
  line(
    'Finished at:',
    receipt.finishedAt ? receipt.finishedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—',
  );
  doc.moveDown();
  line('Calls removed:', formatCount(receipt.calls));
  line(
    'Other copies removed:',
    `${formatCount(receipt.copies.total)} (delivery log ${receipt.copies.deliveries}, messages ${receipt.copies.messages}, live events ${receipt.copies.liveEvents})`,
  );
  doc.moveDown();
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(12)
    .text(showPlatform ? 'Voice platforms' : 'The call service');
  if (receipt.providers.length === 0) {
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(10)
      .text('No call of this caller was found, so nothing was asked of a platform.');
  }
  for (const p of receipt.providers) {
    const kept = showPlatform
      ? `(${p.name} has no delete API; ask ${p.name} directly)`
      : '(the call service cannot delete calls; ask us how to request it there)';
    doc
      .fillColor(INK)
      .font('Helvetica')
      .fontSize(10)
      .text(
        `${showPlatform ? p.name : 'The call service'}: ${p.deleted} deleted, ${p.failed} failed${p.unsupported ? `, ${p.unsupported} not deletable ${kept}` : ''}`,
      );
  }
  if (receipt.perCall.length > 0) {
    doc.moveDown(0.5);
    doc.fillColor(MUTED).font('Helvetica').fontSize(9);
    for (const c of receipt.perCall.slice(0, 40))
      doc.text(
        `${c.providerCallId}: ${ANSWER_WORDS[c.answer] ?? c.answer}${c.detail ? ` (${c.detail})` : ''}`,
      );
    if (receipt.perCall.length > 40)
      doc.text(`… and ${receipt.perCall.length - 40} more (see the JSON receipt)`);
  }
  doc.moveDown();
  doc.fillColor(MUTED).font('Helvetica').fontSize(9).text(receipt.kept);
  if (brand.footerText) {
    doc.moveDown();
    doc.text(brand.footerText);
  }
  doc.end();
  return done;
}
