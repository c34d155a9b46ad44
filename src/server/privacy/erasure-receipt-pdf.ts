/**
 * An erasure's two documents, each one page or more of PDFKit's
 * built-in Helvetica under the agency's brand (logo or name, reports/pdf-header.ts):
 * - the caller's confirmation (`renderCallerReceiptPdf`): what was erased in plain words, what the
 *   service that handled the calls may still hold and how to ask for it, what is kept and why. It
 *   names nothing internal (no logs, events or ids of ours or the platform's) and names the voice
 *   platform only when the agency shows it to this client;
 * - the internal report (`renderErasureReportPdf`) for the business and the agency: who asked,
 *   the copies removed by kind, each platform's answer per call.
 * Dates are written as the JSON receipt has them (UTC).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import PDFDocument from 'pdfkit';
import { formatCount } from '../../contract/format';
import type { PdfBrand } from '../reports/pdf-header';
import { drawBrandHeader } from '../reports/pdf-header';
import type { ErasureReceipt } from './erasure';

const INK = '#0f172a';
const MUTED = '#475569';
const MARGIN = 56;

type Doc = InstanceType<typeof PDFDocument>;

const ANSWER_WORDS: Record<string, string> = {
  deleted: 'deleted at the platform',
  not_found: 'already gone at the platform',
  failed: 'the platform refused or did not answer',
  unsupported: 'the platform offers no way to delete it',
  not_at_provider: 'sample data, never at a platform',
};

interface Options {
  /** Whether the voice platform may be named (the client's "show platform details"). */
  showPlatform?: boolean;
}

function startDoc(title: string, brand: PdfBrand): { doc: Doc; done: Promise<Buffer> } {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: title, Author: brand.name } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  drawBrandHeader(doc, brand, MARGIN);
  return { doc, done };
}

const utc = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—');
const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

function heading(doc: Doc, text: string) {
  doc.moveDown(0.8);
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(12).text(text);
  doc.moveDown(0.2);
}

function paragraph(doc: Doc, text: string) {
  doc.fillColor(INK).font('Helvetica').fontSize(10.5).text(text, { lineGap: 2 });
  doc.moveDown(0.4);
}

function footer(doc: Doc, brand: PdfBrand, reference: string) {
  doc.moveDown();
  doc.fillColor(MUTED).font('Helvetica').fontSize(9).text(`Reference ${reference}`);
  if (brand.footerText) doc.text(brand.footerText);
}

/** What the service that handled the calls may still hold: calls it cannot delete, or did not. */
export function stillHeldElsewhere(receipt: ErasureReceipt): { unsupported: number; failed: number } {
  let unsupported = 0;
  let failed = 0;
  for (const p of receipt.providers) {
    unsupported += p.unsupported;
    failed += p.failed;
  }
  return { unsupported, failed };
}

/** The confirmation the business sends the caller: plain words, nothing internal. */
export function renderCallerReceiptPdf(
  receipt: ErasureReceipt,
  brand: PdfBrand,
  { showPlatform = false }: Options = {},
): Promise<Buffer> {
  const { doc, done } = startDoc(`${brand.name} · Confirmation of erasure`, brand);
  const business = receipt.client;
  const what = receipt.subject.kind === 'phone' ? 'phone number' : 'e-mail address';
  const subject =
    receipt.subject.kind === 'phone'
      ? (parsePhoneNumberFromString(receipt.subject.value)?.formatInternational() ?? receipt.subject.value)
      : receipt.subject.value;
  const platformNames = [...new Set(receipt.providers.map((p) => p.name))].join(' and ');
  const service = showPlatform && platformNames ? platformNames : 'a call service';
  const serviceShort = showPlatform && platformNames ? platformNames : 'that service';
  const { unsupported, failed } = stillHeldElsewhere(receipt);
  const deletedThere = receipt.providers.reduce((n, p) => n + p.deleted, 0);

  doc.fillColor(INK).font('Helvetica-Bold').fontSize(20).text('Confirmation of erasure');
  doc.fillColor(MUTED).font('Helvetica').fontSize(10).text(`From ${business}`);

  heading(doc, 'Your request');
  paragraph(
    doc,
    `You asked ${business} to erase the personal data it holds about the ${what} ${subject}. ` +
      `The request was received on ${utc(receipt.requestedAt)} and completed on ${utc(receipt.finishedAt)}.`,
  );

  heading(doc, 'What was erased');
  if (receipt.calls > 0) {
    paragraph(
      doc,
      `${business} erased ${plural(receipt.calls, 'call', 'calls')} linked to this ${what}, with everything kept ` +
        'from them: recordings, transcripts, summaries and the details given during the calls, together with ' +
        'every other copy its systems kept of them, such as notifications and records of their arrival.',
    );
    if (deletedThere > 0)
      paragraph(
        doc,
        `${showPlatform && platformNames ? platformNames : 'The call service that answered the calls'} deleted its own ${deletedThere === 1 ? 'copy' : 'copies'} of ${plural(deletedThere, 'call', 'calls')} as well.`,
      );
  } else if (receipt.copies.total > 0) {
    paragraph(
      doc,
      `No call linked to this ${what} was found. ${plural(receipt.copies.total, 'other record', 'other records')} naming it ${receipt.copies.total === 1 ? 'was' : 'were'} erased.`,
    );
  } else {
    paragraph(
      doc,
      `No call or other record linked to this ${what} was found, so there was nothing to erase.`,
    );
  }

  const heldElsewhere = unsupported + failed > 0;
  if (heldElsewhere) {
    heading(doc, 'What may still be held elsewhere');
    if (unsupported > 0)
      paragraph(
        doc,
        `${business}’s calls are answered by ${service}, which keeps its own copy of each call and gives ` +
          `${business} no way to delete it. It may still hold ${plural(unsupported, 'call', 'calls')} with you, ` +
          'including the recording and the transcript.',
      );
    if (failed > 0)
      paragraph(
        doc,
        `${showPlatform && platformNames ? platformNames : 'The call service that answers the calls'} did not confirm that it deleted its copy of ${plural(failed, 'call', 'calls')}, so it may still hold ${failed === 1 ? 'it' : 'them'}. ${business} will ask it again.`,
      );
    paragraph(
      doc,
      showPlatform && platformNames
        ? `To have ${platformNames}’s copy erased, ask ${platformNames} directly, or ask ${business} to pass your request on and tell you the answer.`
        : `To have ${serviceShort}’s copy erased, ask ${business}: it will pass your request on and tell you the answer.`,
    );
  }

  heading(doc, 'What is kept');
  paragraph(
    doc,
    `${business} keeps this confirmation, which names your ${what} because the law asks for a record of the ` +
      'request; counts of calls (how many, how long) with nothing that identifies you; and a reference to ' +
      'each erased call, without any of its content, so that it is never brought back.',
  );
  paragraph(
    doc,
    heldElsewhere
      ? `Apart from these and the copies described under "What may still be held elsewhere", ${business} holds nothing more from these calls.`
      : `Apart from these, nothing from these calls remains with ${business} or the services it uses.`,
  );

  footer(doc, brand, receipt.id);
  doc.end();
  return done;
}

/**
 * The internal report for the business and the agency: what was searched, who asked and when,
 * how many calls and copies of each kind were removed, and each platform's answer per call.
 * `showPlatform`: off for a client the agency does not name its platform to.
 */
export function renderErasureReportPdf(
  receipt: ErasureReceipt,
  brand: PdfBrand,
  { showPlatform = true }: Options = {},
): Promise<Buffer> {
  const { doc, done } = startDoc(`${brand.name} · Erasure report ${receipt.id}`, brand);
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(20).text('Erasure report (internal)');
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(10)
    .text(
      `Report ${receipt.id} · for the records of ${receipt.client} and ${receipt.agency}; the caller gets the confirmation`,
    );
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
  line('Asked at:', utc(receipt.requestedAt));
  line('Finished at:', utc(receipt.finishedAt));
  doc.moveDown();
  line('Calls removed:', formatCount(receipt.calls));
  line(
    'Other copies removed:',
    `${formatCount(receipt.copies.total)} (delivery log ${receipt.copies.deliveries}, messages ${receipt.copies.messages}, live events ${receipt.copies.liveEvents})`,
  );
  doc.moveDown();
  const service = (name: string) => (showPlatform ? name : 'The call service');
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(12)
    .text(showPlatform ? 'Voice platforms' : 'The call service');
  if (receipt.providers.length === 0)
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(10)
      .text('No call of this caller was found, so nothing was asked of a platform.');
  for (const p of receipt.providers) {
    const kept = showPlatform
      ? `(${p.name} has no delete API; the caller may ask ${p.name} directly)`
      : '(the call service cannot delete calls; the caller may ask through the business)';
    doc
      .fillColor(INK)
      .font('Helvetica')
      .fontSize(10)
      .text(
        `${service(p.name)}: ${p.deleted} deleted, ${p.failed} failed${p.unsupported ? `, ${p.unsupported} not deletable ${kept}` : ''}`,
      );
  }
  if (receipt.perCall.length > 0) {
    doc.moveDown(0.5);
    doc.fillColor(MUTED).font('Helvetica').fontSize(9);
    const words = (answer: string) =>
      showPlatform
        ? (ANSWER_WORDS[answer] ?? answer)
        : (ANSWER_WORDS[answer] ?? answer).replace(/platform/g, 'call service');
    // A platform's own error text may name it: shown only where the platform may be named.
    for (const c of receipt.perCall.slice(0, 40))
      doc.text(`${c.providerCallId}: ${words(c.answer)}${c.detail && showPlatform ? ` (${c.detail})` : ''}`);
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
