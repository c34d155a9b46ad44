/**
 * GET /api/admin/brand/dns: the SPF, DKIM and DMARC records MAIL_FROM's domain needs,
 * and what DNS holds for each (mail-dns.ts). `check=false` answers the records without asking DNS
 * (the Brand tab's first view); a check sends three look-ups, so each admin may ask
 * CAP_DNS_CHECKS_PER_HOUR times an hour: the product must not become a way to flood a resolver.
 */
import type { FastifyInstance } from 'fastify';
import { MailDnsAnswer, MailDnsQuery } from '../../contract/brand-mail-dns';
import { requireAdmin } from '../auth/guards';
import { enforceCreationCap } from '../http/creation-caps';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { mailDnsRecords } from './mail-dns';

const HOUR_MS = 60 * 60 * 1000;

export default async function mailDnsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  app.get(
    '/api/admin/brand/dns',
    {
      schema: {
        summary: 'The SPF, DKIM and DMARC records MAIL_FROM’s domain needs, and which DNS holds',
        tags: ['admin'],
        description:
          'check=false lists the records without asking DNS. A check asks each name once (3 s timeout); ' +
          'DNS that does not answer gives status "unknown". Capped per admin (CAP_DNS_CHECKS_PER_HOUR).',
        ...apiDoc({ errors: [429] }),
        querystring: MailDnsQuery,
        response: { 200: MailDnsAnswer },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const check = request.query.check !== 'false';
      if (check)
        await enforceCreationCap(deps, reply, {
          key: `dns-check:${admin.id}`,
          max: deps.config.creationCaps.dnsChecksPerHour,
          windowMs: HOUR_MS,
          what: 'DNS checks',
        });
      reply.header('cache-control', 'no-store');
      return mailDnsRecords(deps.config, check);
    },
  );
}
