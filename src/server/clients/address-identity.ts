/**
 * One identity per e-mail address, decided here and nowhere else: a client's own login
 * (clients.email, drafts included: the agency is onboarding it) and every client user past their
 * invitation hold their address against every other client. Asked by onboarding, the admin's and
 * the client's e-mail edits, invitations and their acceptance.
 *
 * A pending invitation holds nothing: the agency may give its address to a client afterwards, and
 * the invitation then can no longer be accepted (the accepting person is told why). An invitation
 * to an address held elsewhere is stored like any other but never sent, so the inviting Owner gets
 * the same answer whether or not the address is another client's: nothing here may tell one
 * client about another. This module decides; the routes say it in their own words.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

interface Holders {
  /** Clients whose own login is the address (any onboarding status). */
  clients: { id: string; onboarding_status: string }[];
  /** Users holding the address: every status but 'invited'. */
  users: { id: string; client_id: string; is_account_login: number }[];
  /** Rows of the asking client with the address (any status): one per address within a client. */
  ownRows: { id: string; is_account_login: number; status: string }[];
}

async function holdersOf(db: Kysely<Database>, email: string, clientId?: string): Promise<Holders> {
  const [clients, users] = await Promise.all([
    db.selectFrom('clients').select(['id', 'onboarding_status']).where('email', '=', email).execute(),
    db
      .selectFrom('client_users')
      .select(['id', 'client_id', 'is_account_login', 'status'])
      .where('email', '=', email)
      .execute(),
  ]);
  return {
    clients,
    users: users.filter((u) => u.status !== 'invited'),
    ownRows: clientId ? users.filter((u) => u.client_id === clientId) : [],
  };
}

/**
 * Why the address cannot become a client's own login (`clientId` undefined: a client being
 * created), or undefined when it can. Other clients' rows are the callers' own check (a wizard
 * draft gives its address up, an onboarded client does not); this answers for the people:
 * `other_user`, a person of another client; `own_user`, one of this client's people (or an
 * invitation of theirs) other than its account login.
 */
export async function loginAddressConflict(
  db: Kysely<Database>,
  email: string,
  clientId?: string,
): Promise<'other_user' | 'own_user' | undefined> {
  const holders = await holdersOf(db, email, clientId);
  if (holders.users.some((u) => u.client_id !== clientId)) return 'other_user';
  if (holders.ownRows.some((u) => u.is_account_login !== 1)) return 'own_user';
  return undefined;
}

export interface InvitationTarget {
  /** The address is already one of this client's people, or invited by it: say so (409). */
  ownRow: boolean;
  /** The client's own address whose login was removed: the invited person becomes that login. */
  accountLogin: boolean;
  /** Held by another client or its people: stored, answered alike, never e-mailed. */
  deliverable: boolean;
}

export async function invitationTarget(
  db: Kysely<Database>,
  client: { id: string; email: string },
  email: string,
): Promise<InvitationTarget> {
  const holders = await holdersOf(db, email, client.id);
  return {
    ownRow: holders.ownRows.length > 0,
    accountLogin: client.email === email,
    deliverable:
      !holders.clients.some((c) => c.id !== client.id) &&
      !holders.users.some((u) => u.client_id !== client.id),
  };
}

/**
 * Whether accepting this invitation would give the address a second identity: another client's
 * login, or a person past their invitation anywhere. The index on client_users decides a race.
 */
export async function isAddressTakenForInvitation(
  db: Kysely<Database>,
  invited: { id: string; client_id: string; email: string; is_account_login: number },
): Promise<boolean> {
  const holders = await holdersOf(db, invited.email);
  return (
    holders.clients.some((c) => c.id !== invited.client_id || invited.is_account_login !== 1) ||
    holders.users.some((u) => u.id !== invited.id)
  );
}
