/**
 * The signed-in person's screen choices (the call log's columns), for clients and admins
 * alike; each reads and writes only its own row, named by the session, never by the request.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { UiPreferences, UiPreferencesBody } from '../../contract/calls';
import { requireAdmin, requireClient } from '../auth/guards';
import type { Database } from '../db/schema';
import { mountDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';

async function readPreferences(db: Kysely<Database>, owner: string): Promise<UiPreferences> {
  const row = await db
    .selectFrom('ui_preferences')
    .select('call_log_columns')
    .where('owner', '=', owner)
    .executeTakeFirst();
  // A stored list that no longer reads (a column renamed since) means the defaults.
  let value: unknown = null;
  try {
    value = row?.call_log_columns ? JSON.parse(row.call_log_columns) : null;
  } catch {
    value = null;
  }
  const stored = UiPreferences.shape.callLogColumns.safeParse(value);
  return { callLogColumns: stored.success ? stored.data : null };
}

async function savePreferences(db: Kysely<Database>, owner: string, prefs: UiPreferences, at: number) {
  const columns = prefs.callLogColumns === null ? null : JSON.stringify(prefs.callLogColumns);
  await db
    .insertInto('ui_preferences')
    .values({ owner, call_log_columns: columns, updated_at: at })
    .onConflict((oc) => oc.column('owner').doUpdateSet({ call_log_columns: columns, updated_at: at }))
    .execute();
}

export default async function preferencesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;
  const owners: { role: 'client' | 'admin'; ownerOf(request: FastifyRequest): string; whose: string }[] = [
    {
      role: 'client',
      ownerOf: (request) => `client:${requireClient(request).id}`,
      whose: 'client’s',
    },
    { role: 'admin', ownerOf: (request) => `admin:${requireAdmin(request).id}`, whose: 'admin’s' },
  ];
  for (const { role, ownerOf, whose } of owners) {
    const path = `/api/${role}/preferences`;
    app.get(
      path,
      {
        config: { permission: 'signed_in' },
        schema: {
          ...mountDoc(role, { summary: `The ${whose} interface preferences` }),
          response: { 200: UiPreferences },
        },
      },
      async (request) => readPreferences(db, ownerOf(request)),
    );
    app.put(
      path,
      {
        config: { permission: 'signed_in' },
        schema: {
          ...mountDoc(role, { summary: `Save the ${whose} interface preferences` }),
          body: UiPreferencesBody,
          response: { 200: UiPreferences },
        },
      },
      async (request) => {
        const owner = ownerOf(request);
        // A patch: left out, the stored choice stays.
        const { callLogColumns } = request.body;
        if (callLogColumns === undefined) return readPreferences(db, owner);
        await savePreferences(db, owner, { callLogColumns }, now());
        return { callLogColumns };
      },
    );
  }
}
