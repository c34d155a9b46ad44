/**
 * GET /api/client/reports/monthly?month=YYYY-MM: the month's report as a PDF, the
 * same one the 1st's e-mail attaches. The current month reads "to date"; a month to come is a 400.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireClient } from '../auth/guards';
import { badRequest } from '../http/errors';
import { apiDoc, file } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { monthDays } from '../time/date-windows';
import { localDate } from '../time/time-zones';
import { renderMonthlyPdf } from './monthly-pdf';
import { loadPdfBrand } from './pdf-brand';
import { periodReport } from './period-report';

const MonthlyReportQuery = z.object({
  month: z.string().regex(/^(20\d\d)-(0[1-9]|1[0-2])$/, 'month must look like 2026-10'),
});

export default async function reportRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;

  app.get(
    '/api/client/reports/monthly',
    {
      config: { permission: 'reports' },
      schema: {
        summary: 'Download a month’s report',
        tags: ['client'],
        ...apiDoc({ responses: { 200: file('The month’s report.', 'application/pdf') } }),
        querystring: MonthlyReportQuery,
      },
      compress: false,
    },
    async (request, reply) => {
      const client = requireClient(request);
      const { month } = request.query;
      const today = localDate(now(), client.timezone);
      if (month > today.slice(0, 7))
        throw badRequest('That month has not started yet', { month: 'That month has not started yet' });
      // The current month reads up to today.
      const days = monthDays(month, today);
      const report = await periodReport(db, client, days.from, days.to);
      const pdf = await renderMonthlyPdf(report, month, await loadPdfBrand(app.deps));
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="report-${month}.pdf"`)
        .send(pdf);
    },
  );
}
