/**
 * Erasure by caller and the caller's data export, for Owners (permission `privacy`)
 * and for an admin naming the client:
 * - POST /api/client/erasure/preview {phone | email} → 200 {count, sample}: what an erasure would
 *   remove, by the same rule (erasure.ts `callsOf`), shown before it is confirmed.
 * - POST /api/client/erasure {phone | email} → 202 {id}; the work runs in the background.
 * - GET /api/client/erasure (the latest 50), GET /api/client/erasure/{id} (where it stands),
 *   GET /api/client/erasure/{id}/receipt?format=pdf|json (once done): the PDF is the caller's
 *   confirmation in plain words, the JSON the whole record; GET /api/client/erasure/{id}/report:
 *   the internal report (PDF) for the business and the agency.
 * - POST /api/client/subject-export?format=json|csv|pdf {phone} → every call of that number as a
 *   download: the whole record as JSON (the default), a CSV row per call, or a readable PDF.
 * - The admin's: /api/admin/client-erasure/{clientId}[/preview | /{id}[/receipt | /report]] and
 *   /api/admin/client-subject-export/{clientId}: each endpoint is written once and mounted for the
 *   client and for an admin naming the client (clients/client-scope.ts).
 * Each erasure and export is a line of the client's activity log, or of the agency's audit log
 * when an admin asked. Erasing a number with no calls is a receipt with 0, not an error.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  ErasureAccepted,
  ErasureList,
  ErasureParams,
  ErasurePreview,
  ErasureRequestBody,
  ErasureStatus,
  ReceiptQuery,
  SubjectExportBody,
  type SubjectExportFormat,
  SubjectExportQuery,
} from '../../contract/privacy';
import { type Asker, type ClientScope, clientScopes, type ScopedLine } from '../auth/client-scope';
import { loadBrand } from '../brand/brand-store';
import type { AppDeps } from '../context';
import type { ClientRow } from '../db/schema';
import { enforceCreationCap } from '../http/creation-caps';
import { conflict, notFound } from '../http/errors';
import { file, jsonDownload } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { loadPdfBrand } from '../reports/pdf-brand';
import {
  type ErasureSubject,
  erasureReceiptOf,
  erasureStatusOf,
  findErasure,
  listErasures,
  normalisePhone,
  previewErasure,
  runErasure,
  startErasure,
} from './erasure';
import { renderCallerReceiptPdf, renderErasureReportPdf } from './erasure-receipt-pdf';
import { subjectExportCsv, subjectExportOf } from './subject-export';
import { renderSubjectExportPdf } from './subject-export-pdf';

/** The caller's calls: the record as JSON (the default), a CSV row per call, or a readable PDF. */
const SUBJECT_EXPORT = {
  description: 'The caller’s calls in the `format` asked for (JSON unless csv or pdf).',
  content: {
    'application/json': { schema: { type: 'object' } },
    'text/csv': { schema: { type: 'string' } },
    'application/pdf': { schema: { type: 'string', format: 'binary' } },
  },
};

const PRIVACY = { config: { permission: 'privacy' as const } };
const HOUR_MS = 60 * 60 * 1000;
const NOT_FOUND = 'No such erasure';
const NOT_DONE = 'The receipt is ready once the erasure is done';

export default async function erasureRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps: AppDeps = app.deps;
  const { db, now } = deps;
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    while (running.size > 0) await Promise.allSettled([...running]);
  });

  /** Erasures and caller exports share one hourly budget per client (each reads all its calls). */
  const capErasures = (client: ClientRow, reply: FastifyReply) =>
    enforceCreationCap(deps, reply, {
      key: `erasure:${client.id}`,
      max: deps.config.creationCaps.erasuresPerHour,
      windowMs: HOUR_MS,
      what: 'erasures and caller exports',
    });

  /** What an erasure or a caller's export is, as the asker's log keeps it. */
  const lineOf = (action: 'erasure' | 'export', detail: Record<string, unknown>): ScopedLine =>
    action === 'erasure'
      ? { client: { action: 'caller_erased', detail }, admin: { action: 'client.erasure', detail } }
      : { client: { action: 'subject_export', detail }, admin: { action: 'client.subject_export', detail } };

  const subjectOf = (body: z.output<typeof ErasureRequestBody>): ErasureSubject =>
    body.phone ? { kind: 'phone', value: normalisePhone(body.phone) } : { kind: 'email', value: body.email! };

  async function start(
    scope: ClientScope,
    client: ClientRow,
    who: Asker,
    body: z.output<typeof ErasureRequestBody>,
    reply: FastifyReply,
  ) {
    const subject = subjectOf(body);
    await capErasures(client, reply);
    const id = await startErasure(deps, client, subject, who.label);
    const work = runErasure(deps, client, id)
      .then(async () => {
        const row = await findErasure(db, client.id, id);
        if (row)
          await scope.record(
            who,
            client,
            lineOf('erasure', { erasureId: id, calls: row.calls, copies: row.copies }),
          );
      })
      .catch((error) => app.log.error({ err: error, erasureId: id }, 'erasure failed'))
      .finally(() => running.delete(work));
    running.add(work);
    return reply.code(202).send({ id });
  }

  async function status(client: ClientRow, id: string, base: string) {
    const row = await findErasure(db, client.id, id);
    if (!row) throw notFound(NOT_FOUND);
    return erasureStatusOf(row, base);
  }

  async function doneReceipt(client: ClientRow, id: string) {
    const row = await findErasure(db, client.id, id);
    if (!row) throw notFound(NOT_FOUND);
    if (row.state !== 'done') throw conflict(NOT_DONE);
    const brand = await loadBrand(deps);
    return erasureReceiptOf(row, brand.settings.name, client.company_name ?? client.email);
  }

  const sendPdf = (reply: FastifyReply, name: string, pdf: Buffer) =>
    reply
      .header('content-disposition', `attachment; filename="${name}.pdf"`)
      .type('application/pdf')
      .send(pdf);

  /** The caller's confirmation as a PDF, or the whole record as JSON (as it always was). */
  async function receipt(client: ClientRow, id: string, format: 'pdf' | 'json', reply: FastifyReply) {
    const body = await doneReceipt(client, id);
    const name = `erasure-receipt-${body.id}`;
    if (format === 'json')
      return reply
        .header('content-disposition', `attachment; filename="${name}.json"`)
        .type('application/json')
        .send(JSON.stringify(body, null, 2));
    // It goes to the caller: the platform is named only where the agency names it to this client.
    const pdf = await renderCallerReceiptPdf(body, await loadPdfBrand(deps), {
      showPlatform: client.show_platform_details === 1,
    });
    return sendPdf(reply, name, pdf);
  }

  /** The internal report; the agency always reads its platform's name, a client as the agency chose. */
  async function report(client: ClientRow, id: string, forAgency: boolean, reply: FastifyReply) {
    const body = await doneReceipt(client, id);
    const pdf = await renderErasureReportPdf(body, await loadPdfBrand(deps), {
      showPlatform: forAgency || client.show_platform_details === 1,
    });
    return sendPdf(reply, `erasure-report-${body.id}`, pdf);
  }

  async function subjectExport(
    scope: ClientScope,
    client: ClientRow,
    who: Asker,
    phone: string,
    format: SubjectExportFormat,
    reply: FastifyReply,
  ) {
    const number = normalisePhone(phone);
    await capErasures(client, reply);
    const body = await subjectExportOf(db, client, number, now());
    await scope.record(who, client, lineOf('export', { calls: body.calls.length, format }));
    const name = `caller-data-${number.slice(1)}`;
    const attachment = (ext: string) => `attachment; filename="${name}.${ext}"`;
    if (format === 'csv')
      return reply
        .header('content-disposition', attachment('csv'))
        .type('text/csv; charset=utf-8')
        .send(subjectExportCsv(body));
    if (format === 'pdf')
      return reply
        .header('content-disposition', attachment('pdf'))
        .type('application/pdf')
        .send(await renderSubjectExportPdf(body, await loadPdfBrand(deps)));
    return reply
      .header('content-disposition', attachment('json'))
      .type('application/json')
      .send(JSON.stringify(body, null, 2));
  }

  for (const scope of clientScopes(deps)) {
    const params = scope.params ? { params: scope.params } : {};
    const erasureParams = scope.params ? scope.params.merge(ErasureParams) : ErasureParams;
    const erasures = { client: '/api/client/erasure', admin: '/api/admin/client-erasure/:clientId' };
    app.post(
      scope.path(erasures),
      {
        ...PRIVACY,
        schema: {
          ...scope.doc(
            {
              client: {
                summary: 'Erase every call of a caller (phone number or e-mail), here and at the platform',
              },
              admin: { summary: 'Erase every call of a client’s caller, here and at the platform' },
            },
            { errors: [429] },
          ),
          ...params,
          body: ErasureRequestBody,
          response: { 202: ErasureAccepted },
        },
      },
      async (request, reply) => {
        const asker = scope.askerOf(request);
        return start(scope, await scope.clientOf(request), asker, request.body, reply);
      },
    );
    app.post(
      scope.path({
        client: '/api/client/erasure/preview',
        admin: '/api/admin/client-erasure/:clientId/preview',
      }),
      {
        ...PRIVACY,
        schema: {
          ...scope.doc({
            client: { summary: 'How many calls erasing a caller would remove, and a few' },
            admin: { summary: 'How many calls erasing a client’s caller would remove, and a few' },
          }),
          ...params,
          body: ErasureRequestBody,
          response: { 200: ErasurePreview },
        },
      },
      async (request) => {
        const asker = scope.askerOf(request);
        const client = await scope.clientOf(request);
        const preview = await previewErasure(db, client.id, subjectOf(request.body));
        // The sample shows what callers said: an admin's read of the client's calls.
        await scope.readCalls(asker, client);
        return preview;
      },
    );
    app.get(
      scope.path(erasures),
      {
        ...PRIVACY,
        schema: {
          ...scope.doc({
            client: { summary: 'The latest caller erasures' },
            admin: { summary: 'A client’s latest caller erasures' },
          }),
          ...params,
          response: { 200: ErasureList },
        },
      },
      async (request) => {
        const client = await scope.clientOf(request);
        const rows = await listErasures(db, client.id);
        return { erasures: rows.map((r) => erasureStatusOf(r, scope.link(erasures, client))) };
      },
    );
    app.get(
      scope.path({ client: '/api/client/erasure/:id', admin: '/api/admin/client-erasure/:clientId/:id' }),
      {
        ...PRIVACY,
        schema: {
          ...scope.doc({
            client: { summary: 'Where a caller erasure stands' },
            admin: { summary: 'Where a client’s caller erasure stands' },
          }),
          params: erasureParams,
          response: { 200: ErasureStatus },
        },
      },
      async (request) => {
        const client = await scope.clientOf(request);
        return status(client, request.params.id, scope.link(erasures, client));
      },
    );
    app.get(
      scope.path({
        client: '/api/client/erasure/:id/receipt',
        admin: '/api/admin/client-erasure/:clientId/:id/receipt',
      }),
      {
        ...PRIVACY,
        schema: {
          ...scope.doc(
            {
              client: { summary: 'Download an erasure’s receipt (PDF or JSON)' },
              admin: { summary: 'Download a client’s erasure receipt (PDF or JSON)' },
            },
            {
              errors: [409],
              responses: {
                200: jsonDownload(
                  'The caller’s confirmation as a PDF, or (format=json) the whole record.',
                  true,
                ),
              },
            },
          ),
          params: erasureParams,
          querystring: ReceiptQuery,
        },
      },
      async (request, reply) =>
        receipt(await scope.clientOf(request), request.params.id, request.query.format, reply),
    );
    app.get(
      scope.path({
        client: '/api/client/erasure/:id/report',
        admin: '/api/admin/client-erasure/:clientId/:id/report',
      }),
      {
        ...PRIVACY,
        schema: {
          ...scope.doc(
            {
              client: { summary: 'Download an erasure’s internal report (PDF)' },
              admin: { summary: 'Download a client’s erasure report for the agency (PDF)' },
            },
            {
              errors: [409],
              responses: {
                200: file(
                  'What was removed, by kind, and each platform’s answer per call.',
                  'application/pdf',
                ),
              },
            },
          ),
          params: erasureParams,
        },
      },
      async (request, reply) => {
        // The agency always reads its platform's name in the report.
        const forAgency = scope.audience === 'admin';
        return report(await scope.clientOf(request), request.params.id, forAgency, reply);
      },
    );
    app.post(
      scope.path({
        client: '/api/client/subject-export',
        admin: '/api/admin/client-subject-export/:clientId',
      }),
      {
        ...PRIVACY,
        schema: {
          ...scope.doc(
            {
              client: { summary: 'Download every call of a caller’s number (JSON, CSV or PDF)' },
              admin: { summary: 'Download every call of a client’s caller (JSON, CSV or PDF)' },
            },
            { errors: [429], responses: { 200: SUBJECT_EXPORT } },
          ),
          ...params,
          body: SubjectExportBody,
          querystring: SubjectExportQuery,
        },
      },
      async (request, reply) => {
        const asker = scope.askerOf(request);
        const client = await scope.clientOf(request);
        return subjectExport(scope, client, asker, request.body.phone, request.query.format, reply);
      },
    );
  }
}
