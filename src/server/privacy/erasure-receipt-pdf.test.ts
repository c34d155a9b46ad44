import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { plainPdfBrand } from '../reports/monthly-pdf';
import type { ErasureReceipt } from './erasure';
import { renderErasureReceiptPdf } from './erasure-receipt-pdf';

/** The text a PDF shows: PDFKit writes the standard fonts' text as hex strings in Tj/TJ. */
function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const m of pdf.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1], 'latin1')).toString('latin1');
    } catch {
      content = m[1];
    }
    for (const op of content.matchAll(/\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]+)>\s*Tj/g)) {
      const hexes = op[1] ? [...op[1].matchAll(/<([0-9a-fA-F]+)>/g)].map((h) => h[1]) : [op[2]];
      lines.push(hexes.map((h) => Buffer.from(h, 'hex').toString('latin1')).join(''));
    }
  }
  return lines.join('\n');
}

const receipt = {
  receipt: 'erasure',
  id: 'er-1',
  agency: 'Northwind Voice',
  client: 'Acme Dental',
  subject: { kind: 'phone', value: '+12125550100' },
  requestedBy: 'owner@example.com',
  requestedAt: '2026-06-10T19:00:00.000Z',
  finishedAt: '2026-06-10T19:00:05.000Z',
  state: 'done',
  calls: 2,
  copies: { total: 1, deliveries: 0, messages: 0, liveEvents: 1 },
  providers: [{ provider: 'bland', name: 'Bland AI', deleted: 0, failed: 0, unsupported: 2 }],
  perCall: [],
  kept: 'Totals keep their numbers.',
} as unknown as ErasureReceipt; // a stored receipt's fields, built by hand for the page alone

describe('the erasure receipt PDF', () => {
  it("does not name the agency's voice platform to the caller unless the agency shows it", async () => {
    const unnamed = pdfText(
      await renderErasureReceiptPdf(receipt, plainPdfBrand('Northwind Voice'), { showPlatform: false }),
    );
    expect(unnamed).toContain('The call service');
    expect(unnamed).not.toMatch(/Bland|Vapi|Retell|Voice platforms/);

    const named = pdfText(
      await renderErasureReceiptPdf(receipt, plainPdfBrand('Northwind Voice'), { showPlatform: true }),
    );
    expect(named).toContain('ask Bland AI directly');
  });
});
