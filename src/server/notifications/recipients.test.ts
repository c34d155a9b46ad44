import { describe, expect, it } from 'vitest';
import type { UserRecipient } from '../access/notification-choices';
import {
  copyForRecipients,
  pickRecipients,
  recipientKey,
  recipientsOf,
  wantsEmail,
  wantsSms,
} from './recipients';

const client = { id: 'c1', email: 'login@acme.test', phone_number: '+12125550143' };
const user = (over: Partial<UserRecipient>): UserRecipient => ({
  userId: 'u',
  isAccountLogin: false,
  email: 'u@acme.test',
  smsNumber: null,
  notifyEmail: null,
  notifySms: null,
  permissions: ['calls.read'],
  ...over,
});

describe('recipients', () => {
  it('a client without users is its own login, with the old keys', () => {
    const [only] = recipientsOf(new Map(), client);
    expect(only).toMatchObject({ userId: null, email: client.email, smsTo: client.phone_number });
    expect(recipientKey('email:call:1', only)).toBe('email:call:1');
  });

  it('a client whose users are all inactive has nobody', () => {
    expect(recipientsOf(new Map([['c1', []]]), client)).toEqual([]);
  });

  it('texts go to the own number, or for the account login only, to the account’s', () => {
    const users = new Map([
      [
        'c1',
        [
          user({ userId: 'owner', isAccountLogin: true, email: client.email }),
          user({ userId: 'viewer' }),
          user({ userId: 'manager', smsNumber: '+12125550177' }),
        ],
      ],
    ]);
    const list = recipientsOf(users, client);
    expect(list.map((r) => r.smsTo)).toEqual([client.phone_number, null, '+12125550177']);
    expect(list.map((r) => recipientKey('k', r))).toEqual(['k', 'k:user:viewer', 'k:user:manager']);
  });

  it('the choice wins over the account switch; null follows it', () => {
    expect(wantsEmail(recipientsOf(new Map(), client)[0], true)).toBe(true);
    expect(wantsEmail(recipientsOf(new Map(), client)[0], false)).toBe(false);
    const r = recipientsOf(new Map([['c1', [user({ notifyEmail: 0, notifySms: 1 })]]]), client)[0];
    expect(wantsEmail(r, true)).toBe(false);
    expect(wantsSms(r, false)).toBe(true);
  });

  it('each address once: the first keeps it; no address, no message', () => {
    const users = new Map([
      [
        'c1',
        [
          user({ userId: 'a', isAccountLogin: true }),
          user({ userId: 'b', email: 'U@acme.test', smsNumber: client.phone_number }),
          user({ userId: 'c', email: 'c@acme.test' }),
        ],
      ],
    ]);
    const list = recipientsOf(users, client);
    expect(pickRecipients(list, 'email', () => true).map((r) => r.userId)).toEqual(['a', 'c']);
    expect(pickRecipients(list, 'sms', () => true).map((r) => r.userId)).toEqual(['a']);
  });

  it('copies a rendered e-mail per recipient, leaving messages without an address as they are', () => {
    const list = recipientsOf(
      new Map([
        ['c1', [user({ userId: 'a', isAccountLogin: true }), user({ userId: 'b', email: 'b@x.test' })]],
      ]),
      client,
    );
    const message = {
      clientId: 'c1',
      channel: 'email' as const,
      topic: 't',
      dedupeKey: 'k',
      payload: { to: client.email, subject: 's' },
    };
    expect(
      copyForRecipients(message, list).map((m) => [m.dedupeKey, (m.payload as { to: string }).to]),
    ).toEqual([
      ['k', 'u@acme.test'],
      ['k:user:b', 'b@x.test'],
    ]);
    const call = { ...message, payload: { callId: 'x', reasons: [] } };
    expect(copyForRecipients(call, list)).toEqual([call]);
  });
});
