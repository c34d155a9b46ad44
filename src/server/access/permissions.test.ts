import { describe, expect, it } from 'vitest';
import { hasPermission, permissionsOf, ungrantable } from './permissions';

const user = (role: 'owner' | 'manager' | 'viewer', grants: string[] = []) => ({
  role,
  permissions: JSON.stringify(grants),
});

describe('client permissions', () => {
  it('are the role preset plus the granted extras', () => {
    expect(permissionsOf(user('viewer'))).toEqual(['calls.read']);
    expect(permissionsOf(user('viewer', ['export', 'billing']))).toEqual(['calls.read', 'export']);
    expect(hasPermission(user('manager'), 'billing')).toBe(false);
    expect(hasPermission(user('viewer'), 'signed_in')).toBe(true);
  });

  it('are granted only by someone who holds them', () => {
    expect(ungrantable(user('owner'), 'manager', ['unmask_numbers'])).toEqual([]);
    expect(ungrantable(user('manager'), 'owner', [])).toEqual(
      expect.arrayContaining(['billing', 'users', 'keys']),
    );
    expect(ungrantable(user('viewer'), 'viewer', ['export'])).toEqual(['export']);
    expect(ungrantable(user('viewer', ['export']), 'viewer', ['export'])).toEqual([]);
  });
});
