/** A client user row as the users lists show it (the client's, and the agency's of a client). */
import { isoTime } from '../../contract/common';
import type { ClientUser } from '../../contract/teams';
import { grantsOf } from '../access/permissions';
import type { ClientUserRow } from '../db/schema';

/** One user as the lists (the client's and the admin's, admin-users-routes.ts) show it. */
export function toClientUser(row: ClientUserRow): ClientUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    permissions: grantsOf(row),
    status: row.status,
    lastSignInAt: isoTime(row.last_sign_in_at),
    twoFactor: row.two_factor_enabled_at != null,
  };
}
