import { describe, expect, it } from 'vitest';
import { describeActivityDetail } from './activity-detail';

describe('describeActivityDetail', () => {
  it('says a role change as before → after', () => {
    expect(
      describeActivityDetail({
        action: 'role_change',
        detail: {
          targetId: 'u1',
          email: 'max@example.com',
          from: { role: 'manager', permissions: [] },
          to: { role: 'viewer', permissions: ['export'] },
        },
      }),
    ).toBe('max@example.com: Manager → Viewer (export)');
  });

  it('names the ended session, or how many others ended', () => {
    expect(
      describeActivityDetail({
        action: 'session_ended',
        detail: { device: 'Safari on iPhone', ip: '198.51.100.20', current: false },
      }),
    ).toBe('Safari on iPhone, 198.51.100.20');
    expect(describeActivityDetail({ action: 'session_ended', detail: { others: 1 } })).toBe(
      '1 other session',
    );
    expect(describeActivityDetail({ action: 'session_ended', detail: { others: 3 } })).toBe(
      '3 other sessions',
    );
  });

  it('says which admin viewed the dashboard', () => {
    expect(
      describeActivityDetail({
        action: 'view_as_client',
        detail: { adminId: 'a1', adminName: 'Ada', adminUsername: 'ada' },
      }),
    ).toBe('Admin: ada');
  });

  it('lists other details as labelled pairs, without ids or empty values', () => {
    expect(
      describeActivityDetail({
        action: 'settings_change',
        detail: { what: 'profile', fields: ['jobTitle', 'phoneNumber'], targetId: 'x', url: '' },
      }),
    ).toBe('What: profile · Fields: jobTitle, phoneNumber');
    expect(describeActivityDetail({ action: 'sign_in', detail: null })).toBe('');
  });
});
