import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../tests/helpers/pdf-text';
import { plainPdfBrand } from '../reports/monthly-pdf';
import type { ErasureReceipt } from './erasure';
import { renderCallerReceiptPdf, renderErasureReportPdf } from './erasure-receipt-pdf';

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

const INTERNALS = /delivery log|live event|platform id|provider|webhook|Bland|Vapi|Retell|Voice platforms/i;

describe('the erasure documents', () => {
  it('tells the caller in plain words what went and what the unnamed call service may still hold', async () => {
    const text = pdfText(
      await renderCallerReceiptPdf(receipt, plainPdfBrand('Northwind Voice'), { showPlatform: false }),
    );
    expect(text).toContain('Northwind Voice');
    expect(text).toContain('Confirmation of erasure');
    expect(text).toMatch(/Acme Dental erased 2 calls/);
    expect(text).toMatch(/may still hold 2 calls/);
    expect(text).toMatch(/ask Acme Dental: it will pass your request on/);
    expect(text).not.toMatch(INTERNALS);
    expect(text).not.toMatch(/no personal data remains/i);
    expect(text).not.toContain('owner@example.com');
  });

  it('names the platform to the caller only when the agency shows it to this client', async () => {
    const named = pdfText(
      await renderCallerReceiptPdf(receipt, plainPdfBrand('Northwind Voice'), { showPlatform: true }),
    );
    expect(named).toMatch(/ask Bland AI directly/);
  });

  it('says nothing is held elsewhere only when the platform deleted every call', async () => {
    const deleted = {
      ...receipt,
      providers: [{ provider: 'vapi', name: 'Vapi', deleted: 2, failed: 0, unsupported: 0 }],
    } as ErasureReceipt;
    const text = pdfText(await renderCallerReceiptPdf(deleted, plainPdfBrand('Northwind Voice')));
    expect(text).not.toMatch(/may still/);
    expect(text).toMatch(/nothing from these calls remains with Acme Dental/);
    expect(text).not.toMatch(INTERNALS);
  });

  it('keeps the counts, who asked and the ids in the internal report', async () => {
    const internal = pdfText(await renderErasureReportPdf(receipt, plainPdfBrand('Northwind Voice')));
    expect(internal).toContain('Erasure report (internal)');
    expect(internal).toContain('owner@example.com');
    expect(internal).toMatch(/delivery log 0, messages 0, live events 1/);
    expect(internal).toContain('Bland AI');
    const unnamed = pdfText(
      await renderErasureReportPdf(receipt, plainPdfBrand('Northwind Voice'), { showPlatform: false }),
    );
    expect(unnamed).not.toMatch(/Bland|Vapi|Retell/);
  });
});
