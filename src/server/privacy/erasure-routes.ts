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
 *   /api/admin/client-subject-export/{clientId}.
 * Each erasure and export is a line of the client's activity log, or of the agency's audit log
 * when an admin asked. Erasing a number with no calls is a receipt with 0, not an error.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MESSAGES } from '../../contract/admin';
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
import { recordAudit, recordClientRead, recordActivity } from '../activity/record';
import { requireAdmin, requireClient, requireClientUser } from '../auth/guards';
import { loadBrand } from '../brand/brand-store';
import { findClient } from '../clients/clients-repository';
import type { AppDeps } from '../context';
import type { ClientRow } from '../db/schema';
import { enforceCreationCap } from '../http/creation-caps';
import { conflict, notFound } from '../http/errors';
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

const PRIVACY = { config: { permission: 'privacy' as const } };
const ClientIdParam = z.object({ clientId: z.string().trim().min(1).max(100) });
const AdminErasureParams = ClientIdParam.merge(ErasureParams);
const HOUR_MS = 60 * 60 * 1000;
const NOT_FOUND = 'No such erasure';
const NOT_DONE = 'The receipt is ready once the erasure is done';

type Who = { kind: 'user'; id: string; label: string } | { kind: 'admin'; id: string; label: string };

export default async function erasureRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps: AppDeps = app.deps;
  const { db, now } = deps;
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    while (running.size > 0) await Promise.allSettled([...running]);
  });

  const clientWho = (request: FastifyRequest): Who => {
    const user = requireClientUser(request);
    return { kind: 'user', id: user.id, label: `${user.name} <${user.email}>` };
  };
  const adminWho = (request: FastifyRequest): Who => {
    const admin = requireAdmin(request);
    return { kind: 'admin', id: admin.id, label: `Agency: ${admin.name}` };
  };
  const clientOr404 = async (clientId: string) => {
    const client = await findClient(db, clientId);
    if (!client) throw notFound(MESSAGES.clientNotFound);
    return client;
  };

  /** Erasures and caller exports share one hourly budget per client (each reads all its calls). */
  const capErasures = (client: ClientRow, reply: FastifyReply) =>
    enforceCreationCap(deps, reply, {
      key: `erasure:${client.id}`,
      max: deps.config.creationCaps.erasuresPerHour,
      windowMs: HOUR_MS,
      what: 'erasures and caller exports',
    });

  async function record(
    client: ClientRow,
    who: Who,
    action: 'erasure' | 'export',
    detail: Record<string, unknown>,
  ) {
    if (who.kind === 'user')
      await recordActivity(
        db,
        {
          clientId: client.id,
          userId: who.id,
          action: action === 'erasure' ? 'caller_erased' : 'subject_export',
          detail,
        },
        now(),
      );
    else
      await recordAudit(
        db,
        {
          adminId: who.id,
          action: action === 'erasure' ? 'client.erasure' : 'client.subject_export',
          clientId: client.id,
          detail,
        },
        now(),
      );
  }

  const subjectOf = (body: z.output<typeof ErasureRequestBody>): ErasureSubject =>
    body.phone ? { kind: 'phone', value: normalisePhone(body.phone) } : { kind: 'email', value: body.email! };

  async function start(
    client: ClientRow,
    who: Who,
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
          await record(client, who, 'erasure', { erasureId: id, calls: row.calls, copies: row.copies });
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
    client: ClientRow,
    who: Who,
    phone: string,
    format: SubjectExportFormat,
    reply: FastifyReply,
  ) {
    const number = normalisePhone(phone);
    await capErasures(client, reply);
    const body = await subjectExportOf(db, client, number, now());
    await record(client, who, 'export', { calls: body.calls.length, format });
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

  // ---- the client's ----
  app.post(
    '/api/client/erasure',
    { ...PRIVACY, schema: { body: ErasureRequestBody, response: { 202: ErasureAccepted } } },
    async (request, reply) => start(requireClient(request), clientWho(request), request.body, reply),
  );
  app.post(
    '/api/client/erasure/preview',
    { ...PRIVACY, schema: { body: ErasureRequestBody, response: { 200: ErasurePreview } } },
    async (request) => {
      const client = requireClient(request);
      return previewErasure(db, client.id, subjectOf(request.body));
    },
  );
  app.get(
    '/api/client/erasure',
    { ...PRIVACY, schema: { response: { 200: ErasureList } } },
    async (request) => {
      const client = requireClient(request);
      const rows = await listErasures(db, client.id);
      return { erasures: rows.map((r) => erasureStatusOf(r, '/api/client/erasure')) };
    },
  );
  app.get(
    '/api/client/erasure/:id',
    { ...PRIVACY, schema: { params: ErasureParams, response: { 200: ErasureStatus } } },
    async (request) => status(requireClient(request), request.params.id, '/api/client/erasure'),
  );
  app.get(
    '/api/client/erasure/:id/receipt',
    { ...PRIVACY, schema: { params: ErasureParams, querystring: ReceiptQuery } },
    async (request, reply) => receipt(requireClient(request), request.params.id, request.query.format, reply),
  );
  app.get(
    '/api/client/erasure/:id/report',
    { ...PRIVACY, schema: { params: ErasureParams } },
    async (request, reply) => report(requireClient(request), request.params.id, false, reply),
  );
  app.post(
    '/api/client/subject-export',
    { ...PRIVACY, schema: { body: SubjectExportBody, querystring: SubjectExportQuery } },
    async (request, reply) =>
      subjectExport(
        requireClient(request),
        clientWho(request),
        request.body.phone,
        request.query.format,
        reply,
      ),
  );

  // ---- the admin's, naming the client ----
  app.post(
    '/api/admin/client-erasure/:clientId',
    { schema: { params: ClientIdParam, body: ErasureRequestBody, response: { 202: ErasureAccepted } } },
    async (request, reply) => {
      const who = adminWho(request);
      return start(await clientOr404(request.params.clientId), who, request.body, reply);
    },
  );
  app.post(
    '/api/admin/client-erasure/:clientId/preview',
    { schema: { params: ClientIdParam, body: ErasureRequestBody, response: { 200: ErasurePreview } } },
    async (request) => {
      const admin = requireAdmin(request);
      const client = await clientOr404(request.params.clientId);
      const preview = await previewErasure(db, client.id, subjectOf(request.body));
      // The sample shows what callers said: an admin's read of the client's calls.
      await recordClientRead(
        db,
        { adminId: admin.id, clientId: client.id, action: 'client.read_calls' },
        now(),
      );
      return preview;
    },
  );
  app.get(
    '/api/admin/client-erasure/:clientId',
    { schema: { params: ClientIdParam, response: { 200: ErasureList } } },
    async (request) => {
      requireAdmin(request);
      const client = await clientOr404(request.params.clientId);
      const rows = await listErasures(db, client.id);
      return { erasures: rows.map((r) => erasureStatusOf(r, `/api/admin/client-erasure/${client.id}`)) };
    },
  );
  app.get(
    '/api/admin/client-erasure/:clientId/:id',
    { schema: { params: AdminErasureParams, response: { 200: ErasureStatus } } },
    async (request) => {
      requireAdmin(request);
      const client = await clientOr404(request.params.clientId);
      return status(client, request.params.id, `/api/admin/client-erasure/${client.id}`);
    },
  );
  app.get(
    '/api/admin/client-erasure/:clientId/:id/receipt',
    { schema: { params: AdminErasureParams, querystring: ReceiptQuery } },
    async (request, reply) => {
      requireAdmin(request);
      return receipt(
        await clientOr404(request.params.clientId),
        request.params.id,
        request.query.format,
        reply,
      );
    },
  );
  app.get(
    '/api/admin/client-erasure/:clientId/:id/report',
    { schema: { params: AdminErasureParams } },
    async (request, reply) => {
      requireAdmin(request);
      return report(await clientOr404(request.params.clientId), request.params.id, true, reply);
    },
  );
  app.post(
    '/api/admin/client-subject-export/:clientId',
    { schema: { params: ClientIdParam, body: SubjectExportBody, querystring: SubjectExportQuery } },
    async (request, reply) => {
      const who = adminWho(request);
      return subjectExport(
        await clientOr404(request.params.clientId),
        who,
        request.body.phone,
        request.query.format,
        reply,
      );
    },
  );
}
