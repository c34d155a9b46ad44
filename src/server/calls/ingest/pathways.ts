/**
 * Pathway ids → names, cached per client in `pathway_names`. A name that cannot be resolved yet
 * (no key, provider down) leaves the id in place; it is replaced once a later lookup succeeds.
 */
import type { AppDeps } from '../../context';
import type { ClientRow } from '../../db/schema';
import { voiceOf } from '../../providers/voice/registry';
import { createCallsRepository } from '../write/calls-repository';

export async function cachedPathwayNames(
  deps: AppDeps,
  clientId: string,
  ids: string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await deps.db
    .selectFrom('pathway_names')
    .select(['pathway_id', 'name'])
    .where('client_id', '=', clientId)
    .where('pathway_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.pathway_id, r.name]));
}

/** Looks up the names the cache lacks with the client's key; failures are left for next time. */
export async function resolvePathwayNames(
  deps: AppDeps,
  client: Pick<ClientRow, 'id' | 'provider'>,
  apiKey: string,
  ids: string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const names = await cachedPathwayNames(deps, client.id, unique);
  const missing = unique.filter((id) => !names.has(id));
  await Promise.all(
    missing.map(async (id) => {
      const name = await voiceOf(deps.voices, client)
        .getPathwayName(apiKey, id)
        .catch(() => null);
      if (!name) return;
      names.set(id, name);
      await deps.db
        .insertInto('pathway_names')
        .values({ client_id: client.id, pathway_id: id, name, fetched_at: deps.now() })
        .onConflict((oc) =>
          oc.columns(['client_id', 'pathway_id']).doUpdateSet({ name, fetched_at: deps.now() }),
        )
        .execute();
    }),
  );
  return names;
}

/** After a webhook stored a call under its pathway id: resolve the name and rename those calls. */
export async function backfillPathwayName(
  deps: AppDeps,
  client: ClientRow,
  pathwayId: string,
): Promise<void> {
  if (!client.bland_api_key_enc) return;
  const apiKey = deps.secrets.decrypt(client.bland_api_key_enc);
  const names = await resolvePathwayNames(deps, client, apiKey, [pathwayId]);
  const name = names.get(pathwayId);
  if (name) await createCallsRepository(deps.db).renamePathway(client.id, pathwayId, name);
}
