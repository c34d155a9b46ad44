import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderMonthlyPdf } from './monthly-pdf';
import type { PeriodReport } from './period-report';

/** Each page's text, in order: PDFKit writes the standard fonts' text as hex strings in Tj/TJ. */
function pdfPages(pdf: Buffer): string[] {
  const pages: string[] = [];
  for (const m of pdf.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1], 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    // A page's content stream draws; the fonts' streams do not.
    if (!/\b(re|l|Tj|TJ)\b/.test(content)) continue;
    const lines: string[] = [];
    for (const op of content.matchAll(/\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]+)>\s*Tj/g)) {
      const hexes = op[1] ? [...op[1].matchAll(/<([0-9a-fA-F]+)>/g)].map((h) => h[1]) : [op[2]];
      lines.push(hexes.map((h) => Buffer.from(h, 'hex').toString('latin1')).join(''));
    }
    pages.push(lines.join('\n'));
  }
  return pages;
}

const outcome = (name: string, count: number) => ({
  id: name,
  name,
  count,
  previousCount: count - 1,
  value: null,
});

/** A full month: every section drawn, as many outcomes and pathways as a busy client has. */
function octoberReport(showPlatform: boolean, outcomeCount = 6): PeriodReport {
  return {
    clientName: 'Bright Smiles Dental',
    timezone: 'America/New_York',
    locale: 'en-US',
    zoneName: 'EDT/EST',
    from: '2026-10-01',
    to: '2026-10-31',
    showPlatform,
    stats: {
      totalCalls: 240,
      avgDuration: 150,
      totalTransfers: 12,
      totalCost: 91.5,
      previousPeriod: { totalCalls: 200, avgDuration: 140, totalTransfers: 10, totalCost: 80 },
    } as unknown as PeriodReport['stats'], // the fields the PDF prints
    minutes: 600,
    outcomes: Array.from({ length: outcomeCount }, (_, i) =>
      outcome(`Outcome ${i + 1}`, 10 + i),
    ) as unknown as PeriodReport['outcomes'], // the fields the PDF prints
    needsAttention: 3,
    perDay: Array.from({ length: 31 }, (_, i) => ({
      date: `2026-10-${String(i + 1).padStart(2, '0')}`,
      count: (i * 7) % 13,
    })) as unknown as PeriodReport['perDay'],
    topPathways: ['Booking', 'Support', 'Sales', 'Billing', 'After hours'].map((pathway, i) => ({
      pathway,
      calls: 50 - i,
    })),
    plan: { name: 'Starter', minutesIncluded: 500, monthlyPrice: 49 },
  };
}

describe('the monthly report PDF', () => {
  it('never leaves a page holding a single line, however many outcomes', async () => {
    for (const outcomes of [0, 6, 12, 24]) {
      const pages = pdfPages(
        await renderMonthlyPdf(octoberReport(false, outcomes), '2026-10', 'Northwind Voice'),
      );
      for (const [i, page] of pages.entries()) {
        expect(page.split('\n').length, `${outcomes} outcomes, page ${i + 1}: ${page}`).toBeGreaterThan(3);
      }
    }
  });

  it('labels the chart’s axes: what is counted, its scale from zero, and the days', async () => {
    const text = pdfPages(await renderMonthlyPdf(octoberReport(false), '2026-10', 'Northwind Voice')).join(
      '\n',
    );
    const chart = text.slice(text.indexOf('Completed calls per day'), text.indexOf('Outcomes'));
    expect(chart).toContain('Calls');
    expect(chart).toContain('Day of the month');
    expect(chart.split('\n')).toEqual(expect.arrayContaining(['0', '6', '12']));
  });

  it('names the busiest call types without the platform’s word unless the agency shows it', async () => {
    const unnamed = pdfPages(await renderMonthlyPdf(octoberReport(false), '2026-10', 'Northwind Voice')).join(
      '\n',
    );
    expect(unnamed).toContain('Busiest call types');
    expect(unnamed).not.toMatch(/pathway/i);
    const named = pdfPages(await renderMonthlyPdf(octoberReport(true), '2026-10', 'Northwind Voice')).join(
      '\n',
    );
    expect(named).toContain('Busiest pathways');
  });
});
