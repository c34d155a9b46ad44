/**
 * Erasure by caller and the caller's data export (issue 38), for Owners (permission `privacy`)
 * and for an admin naming the client:
 * - POST /api/client/erasure/preview {phone | email} → 200 {count, sample}: what an erasure would
 *   remove, by the same rule (erasure.ts `callsOf`), shown before it is confirmed.
 * - POST /api/client/erasure {phone | email} → 202 {id}; the work runs in the background.
 * - GET /api/client/erasure (the latest 50), GET /api/client/erasure/{id} (where it stands),
 *   GET /api/client/erasure/{id}/receipt?format=pdf|json (once done).
 * - POST /api/client/subject-export {phone} → every call of that number as a JSON download.
 * - The admin's: /api/admin/client-erasure/{clientId}[/preview | /{id}[/receipt]] and
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
} from '../../contract/privacy';
import { parseTranscript } from '../../contract/transcript';
import { recordAudit, recordClientRead } from '../audit/audit-log';
import { requireAdmin, requireClient, requireClientUser } from '../auth/guards';
import { loadBrand } from '../brand/brand-store';
import { findClient } from '../clients/clients-repository';
import type { AppDeps } from '../context';
import type { ClientRow } from '../db/schema';
import { enforceCreationCap } from '../http/creation-caps';
import { parseJsonObject } from '../http/json-body';
import { conflict, notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/route-schemas';
import { loadPdfBrand } from '../reports/pdf-brand';
import { recordActivity } from '../teams/activity';
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
import { renderErasureReceiptPdf } from './erasure-receipt-pdf';

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

  async function receipt(client: ClientRow, id: string, format: 'pdf' | 'json', reply: FastifyReply) {
    const row = await findErasure(db, client.id, id);
    if (!row) throw notFound(NOT_FOUND);
    if (row.state !== 'done') throw conflict(NOT_DONE);
    const brand = await loadBrand(deps);
    const body = erasureReceiptOf(row, brand.settings.name, client.company_name ?? client.email);
    const name = `erasure-receipt-${row.id}`;
    if (format === 'json')
      return reply
        .header('content-disposition', `attachment; filename="${name}.json"`)
        .type('application/json')
        .send(JSON.stringify(body, null, 2));
    const pdf = await renderErasureReceiptPdf(body, await loadPdfBrand(deps), {
      showPlatform: client.show_platform_details === 1,
    });
    return reply
      .header('content-disposition', `attachment; filename="${name}.pdf"`)
      .type('application/pdf')
      .send(pdf);
  }

  async function subjectExport(client: ClientRow, who: Who, phone: string, reply: FastifyReply) {
    const number = normalisePhone(phone);
    await capErasures(client, reply);
    const rows = await db
      .selectFrom('calls')
      .selectAll()
      .where('client_id', '=', client.id)
      .where('verified', '=', 1)
      .where((eb) =>
        eb.or([
          eb('from_number', 'in', [number, number.slice(1)]),
          eb('to_number', 'in', [number, number.slice(1)]),
        ]),
      )
      .orderBy('created_at')
      .execute();
    await record(client, who, 'export', { calls: rows.length });
    const body = {
      export: 'caller-data',
      phone: number,
      business: client.company_name ?? client.email,
      exportedAt: new Date(now()).toISOString(),
      calls: rows.map((r) => ({
        id: r.id,
        providerCallId: r.provider_call_id,
        createdAt: new Date(Number(r.created_at)).toISOString(),
        fromNumber: r.from_number,
        toNumber: r.to_number,
        durationSeconds: Number(r.duration_seconds),
        status: r.status,
        outcome: r.outcome,
        summary: r.summary,
        transcript: parseTranscript(r.transcript) ?? [],
        analysis: parseJsonObject(r.analysis_json),
        variables: parseJsonObject(r.variables_json),
        hasRecording: r.recording_url !== null,
      })),
    };
    return reply
      .header('content-disposition', `attachment; filename="caller-data-${number.slice(1)}.json"`)
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
  app.post(
    '/api/client/subject-export',
    { ...PRIVACY, schema: { body: SubjectExportBody } },
    async (request, reply) =>
      subjectExport(requireClient(request), clientWho(request), request.body.phone, reply),
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
  app.post(
    '/api/admin/client-subject-export/:clientId',
    { schema: { params: ClientIdParam, body: SubjectExportBody } },
    async (request, reply) => {
      const who = adminWho(request);
      return subjectExport(await clientOr404(request.params.clientId), who, request.body.phone, reply);
    },
  );
}
