/**
 * The single-use link a client user gets by e-mail: an invitation (choose name and
 * password) or a password reset the agency sent (choose a new password). Both are the same
 * mechanism: a fresh 32-byte token whose sha256 is stored on the user, the link
 * `/accept-invite?token=…`, the e-mail sealed in the outbox in the caller's transaction. A new link
 * replaces the previous one. Who may send one is the routes' business, not this module's.
 */
import type { Kysely } from 'kysely';
import { INVITATION_TTL_MS } from '../../contract/teams';
import { loadBrand } from '../brand/brand-store';
import { updateUser } from '../clients/users-repository';
import type { AppDeps } from '../context';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { ClientRow, ClientUserRow, Database } from '../db/schema';
import type { QueuedEmail } from '../notifications/email-layout';
import { sealEmail } from '../notifications/email-sender';
import { enqueue } from '../notifications/outbox';

/** A reset link is good for a day: it replaces a password, so it should not linger for a week. */
export const PASSWORD_RESET_TTL_MS = 24 * 60 * 60 * 1000;

function roleLabel(role: ClientUserRow['role']): string {
  return role === 'owner' ? 'an Owner' : `a ${role[0].toUpperCase()}${role.slice(1)}`;
}

export async function sendUserLink(
  deps: Pick<AppDeps, 'db' | 'config' | 'secrets' | 'now' | 'brandCache'>,
  trx: Kysely<Database>,
  client: ClientRow,
  user: ClientUserRow,
  link: { kind: 'invitation'; inviter: string } | { kind: 'password_reset' },
): Promise<void> {
  const { config, secrets, now } = deps;
  const token = randomToken(32);
  const reset = link.kind === 'password_reset';
  await updateUser(trx, client.id, user.id, {
    invite_token_hash: sha256Hex(token),
    invite_expires_at: now() + (reset ? PASSWORD_RESET_TTL_MS : INVITATION_TTL_MS),
    updated_at: now(),
  });
  // The agency's name as its brand says; the e-mail's layout is applied when it is sent.
  const company = client.company_name || (await loadBrand(deps)).settings.name;
  const url = `${config.publicUrl.replace(/\/$/, '')}/accept-invite?token=${encodeURIComponent(token)}${reset ? '&reset=1' : ''}`;
  const heading = reset ? `Set a new password for ${company}` : `${link.inviter} invited you to ${company}`;
  const email: QueuedEmail = {
    to: user.email,
    subject: heading,
    content: {
      heading,
      lines: reset
        ? [
            `The agency sent you this link to choose a new password for ${company}'s call dashboard.`,
            'Open the link to choose it. It works once, for 24 hours; you were signed out everywhere.',
          ]
        : [
            `You are invited as ${roleLabel(user.role)} of ${company}'s call dashboard.`,
            'Open the link to choose your name and password. It works once, for 7 days.',
          ],
      action: { label: reset ? 'Choose a new password' : 'Accept the invitation', url },
      footer: reset
        ? 'Not expecting this? Tell the agency; your current password keeps working until the link is used.'
        : 'Not expecting this? Ignore this e-mail; nothing happens unless the link is opened.',
    },
  };
  await enqueue(
    trx,
    [
      {
        clientId: client.id,
        channel: 'email',
        topic: reset ? 'team.password_reset' : 'team.invitation',
        // One message per token: a resend is a new message.
        dedupeKey: `email:${reset ? 'password-reset' : 'invitation'}:${user.id}:${sha256Hex(token).slice(0, 16)}`,
        payload: sealEmail(secrets, email),
      },
    ],
    now(),
  );
}
