/**
 * Client teams: the people of a client, their roles and permissions, invitations.
 * A role is a preset of permissions; two permissions can be granted on top of any role. The
 * server checks a permission on every client route (access/permissions.ts); the browser reads the
 * signed-in user's effective permissions from GET /api/client/session to hide what it cannot use.
 */
import { z } from 'zod';
import { ClientSession, MIN_PASSWORD_LENGTH } from './auth';

export const CLIENT_ROLES = ['owner', 'manager', 'viewer'] as const;
export type ClientRole = (typeof CLIENT_ROLES)[number];

/**
 * What a route may require. `calls.read`: dashboard, log, call detail, recordings, transcripts,
 * live events; `calls.manage`: sync, delete, mark handled, sample data; `account`: the company's
 * profile; `keys`: the voice API key and the webhook signing secret; `integrations`: the client's
 * webhook endpoint (OUT); `privacy`: privacy settings (none yet); `receive_texts`: get call
 * alerts by text at a verified number (each text costs the agency money, so not every reader).
 */
export const PERMISSIONS = [
  'calls.read',
  'calls.manage',
  'outcomes',
  'notifications',
  'export',
  'reports',
  'unmask_numbers',
  'receive_texts',
  'billing',
  'users',
  'keys',
  'integrations',
  'privacy',
  'account',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Granted on top of a role, per user. */
export const GRANTABLE_PERMISSIONS = [
  'unmask_numbers',
  'export',
  'receive_texts',
] as const satisfies readonly Permission[];
export type GrantablePermission = (typeof GRANTABLE_PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<ClientRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  manager: [
    'calls.read',
    'calls.manage',
    'outcomes',
    'notifications',
    'export',
    'reports',
    'unmask_numbers',
    'receive_texts',
  ],
  viewer: ['calls.read'],
};

/** A role's preset and the extras granted on top, in PERMISSIONS order. */
export function effectivePermissions(role: ClientRole, granted: readonly string[]): Permission[] {
  const held = new Set<string>([...ROLE_PERMISSIONS[role], ...granted]);
  return PERMISSIONS.filter((p) => held.has(p));
}

export const USER_STATUSES = ['invited', 'active', 'deactivated'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** One person of the client, as GET /api/client/users lists them. */
export const ClientUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(CLIENT_ROLES),
  /** The extras granted on top of the role (what PATCH sets), not the role's preset. */
  permissions: z.array(z.enum(GRANTABLE_PERMISSIONS)),
  status: z.enum(USER_STATUSES),
  lastSignInAt: z.string().nullable(),
  /** Two-factor sign-in is on (always false until two-factor sign-in exists). */
  twoFactor: z.boolean(),
});
export type ClientUser = z.infer<typeof ClientUser>;

/** The signed-in person in GET /api/client/session: `permissions` are the effective ones. */
export const SessionUser = z.object({
  id: z.string(),
  name: z.string(),
  /** The person's own address (the account's `email` is the Owner's login). */
  email: z.string(),
  role: z.enum(CLIENT_ROLES),
  permissions: z.array(z.enum(PERMISSIONS)),
});
export type SessionUser = z.infer<typeof SessionUser>;

/** GET /api/client/session: the client, as before, and the person signed in. */
export const ClientSessionWithUser = ClientSession.extend({
  user: SessionUser,
  /** As on the login: the person must choose their own password before anything else answers. */
  mustChangePassword: z.literal(true).optional(),
});
export type ClientSessionWithUser = z.infer<typeof ClientSessionWithUser>;

const Grants = z
  .array(z.enum(GRANTABLE_PERMISSIONS))
  .max(GRANTABLE_PERMISSIONS.length)
  .transform((list) => [...new Set(list)]);

export const InviteUserBody = z.object({
  email: z.string().trim().toLowerCase().email('Enter a valid e-mail address').max(320),
  name: z.string().trim().max(200).optional(),
  role: z.enum(CLIENT_ROLES),
  permissions: Grants.optional(),
});
export type InviteUserBody = z.infer<typeof InviteUserBody>;

/** A patch: what is left out keeps its value. */
export const UpdateUserBody = z.object({
  role: z.enum(CLIENT_ROLES).optional(),
  permissions: Grants.optional(),
  active: z.boolean().optional(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const UserIdParam = z.object({ id: z.string().trim().min(1).max(100) });

export const AcceptInvitationBody = z.object({
  token: z.string().trim().min(1).max(200),
  /** Required to accept an invitation; a password-reset link (the same mechanism) may leave it out. */
  name: z.string().trim().min(1, 'Enter your name').max(200).optional(),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(1000, 'Must be at most 1000 characters'),
});
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBody>;

/**
 * POST /api/client/invitations/lookup: whose invitation a link is, so the page can name the
 * company before anyone types. Only the holder of the link learns it (the e-mail names it too);
 * the token goes in the body so it stays out of access logs.
 */
export const InvitationLookupBody = z.object({ token: z.string().trim().min(1).max(200) });
export const InvitationLookup = z.object({ companyName: z.string().nullable(), reset: z.boolean() });
export type InvitationLookup = z.infer<typeof InvitationLookup>;

/** An invitation link is good this long. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const TEAM_MESSAGES = {
  notYourself: (what: 'deactivate' | 'remove') =>
    `You cannot ${what} yourself: another Owner of the account can.`,
  emailTaken:
    'This e-mail address already belongs to a person of this account, or is invited; choose another',
  addressHasAccount:
    'This e-mail address already has its own account here, so this invitation cannot be accepted. Sign in with it, or ask to be invited at another address',
  lastOwner: 'At least one active Owner must remain',
  invitationInvalid: 'This invitation link is not valid: it was already used, replaced or revoked',
  invitationExpired: 'This invitation has expired; ask for a new one',
  accountInactive: 'This account is not active; ask the agency',
  notInvited: 'This user has already accepted the invitation',
  userNotFound: 'User not found',
  cannotGrant: (what: string) => `You cannot grant what you do not hold: ${what}`,
  missingPermission: (permission: string) =>
    `Your role does not allow this (it needs the ${permission} permission)`,
} as const;
