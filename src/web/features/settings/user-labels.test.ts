import { describe, expect, it } from 'vitest';
import { effectivePermissions } from '../../../contract/teams';
import { extrasShown, grantableExtras, grantableRoles, lastSignInLabel } from './user-labels';

describe('user labels', () => {
  it('offers only roles and extras the signed-in user holds', () => {
    const owner = { permissions: effectivePermissions('owner', []) };
    expect(grantableRoles(owner)).toEqual(['owner', 'manager', 'viewer']);
    expect(grantableExtras(owner)).toEqual(['unmask_numbers', 'export', 'receive_texts']);
    const viewerWithExport = { permissions: effectivePermissions('viewer', ['export']) };
    expect(grantableRoles(viewerWithExport)).toEqual(['viewer']);
    expect(grantableExtras(viewerWithExport)).toEqual(['export']);
  });

  it('names only the extras a role does not already include', () => {
    expect(extrasShown('viewer', ['export'])).toBe('Export calls (CSV, Excel)');
    expect(extrasShown('manager', ['export'])).toBe('None');
    expect(lastSignInLabel(null)).toBe('Never');
  });
});
