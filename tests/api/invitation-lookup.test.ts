/**
 * The accept-invite page names the company: POST /api/client/invitations/lookup answers the
 * inviting company's name for a live link, and the same 400/410 as accepting for a dead one,
 * without changing the invitation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_TTL_MS } from '../../src/contract/teams';
import { sha256Hex } from '../../src/server/crypto/secrets';
import { createSignedInClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const clock = Date.UTC(2026, 5, 10, 15, 0);

describe(`invitation lookup (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(() => t.close());

  const lookup = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/client/invitations/lookup', payload });

  /** Invites `email` and gives the invitation a token this test knows (the e-mail is not read). */
  async function invitedWithToken(email: string, token: string, expiresAt = clock + INVITATION_TTL_MS) {
    const { cookie } = await createSignedInClient(t, { company_name: 'Harbour Dental' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/client/users',
      headers: { cookie },
      payload: { email, role: 'viewer' },
    });
    expect(res.statusCode, res.body).toBe(201);
    await t.deps.db
      .updateTable('client_users')
      .set({ invite_token_hash: sha256Hex(token), invite_expires_at: expiresAt })
      .where('id', '=', res.json().id)
      .execute();
  }

  it('names the inviting company for a live link, and leaves the invitation as it was', async () => {
    await invitedWithToken('joiner@example.com', 'live-token-0123456789');
    const res = await lookup({ token: 'live-token-0123456789' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ companyName: 'Harbour Dental', reset: false });
    const row = await t.deps.db
      .selectFrom('client_users')
      .select(['status', 'invite_token_hash'])
      .where('email', '=', 'joiner@example.com')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'invited', invite_token_hash: sha256Hex('live-token-0123456789') });
  });

  it('answers an unknown link 400, an expired one 410, and bad input 400, naming no company', async () => {
    await invitedWithToken('late@example.com', 'expired-token-0123456789', clock - 1);
    const unknown = await lookup({ token: 'no-such-token' });
    expect(unknown.statusCode).toBe(400);
    const expired = await lookup({ token: 'expired-token-0123456789' });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).not.toHaveProperty('companyName');
    for (const payload of [{}, { token: '' }, { token: 'x'.repeat(201) }, { token: 42 }]) {
      expect((await lookup(payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
