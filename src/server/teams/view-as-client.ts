/**
 * The `view_as_client` line of a client's activity log: an agency admin opened the
 * client's dashboard. A dashboard asks many things at once and again as it refreshes, so one visit
 * is one line: an admin's next line for the same client comes at most every VIEW_QUIET_MS.
 */
import type { Kysely } from 'kysely';
import type { AdminRow, Database } from '../db/schema';
import { recordActivity } from './activity';

export const VIEW_QUIET_MS = 30 * 60 * 1000;

export async function recordViewAsClient(
  db: Kysely<Database>,
  admin: Pick<AdminRow, 'id' | 'name' | 'username'>,
  clientId: string,
  now: number,
): Promise<void> {
  const recent = await db
    .selectFrom('client_activity')
    .select('detail')
    .where('client_id', '=', clientId)
    .where('action', '=', 'view_as_client')
    .where('at', '>', now - VIEW_QUIET_MS)
    .execute();
  const adminIdOf = (detail: string | null) => {
    try {
      return (JSON.parse(detail ?? '{}') as { adminId?: unknown }).adminId;
    } catch {
      return undefined;
    }
  };
  if (recent.some((line) => adminIdOf(line.detail) === admin.id)) return;
  await recordActivity(
    db,
    {
      clientId,
      userId: null,
      action: 'view_as_client',
      detail: { adminId: admin.id, adminName: admin.name, adminUsername: admin.username },
    },
    now,
  );
}
