import { describe, expect, it } from 'vitest';
import { effectivePermissions } from '../../contract/teams';
import { can } from './permissions';

describe('can', () => {
  it('is false without a user', () => {
    expect(can(null, 'calls.read')).toBe(false);
    expect(can(undefined, 'billing')).toBe(false);
  });

  it('follows the effective permissions: the role preset and the extras', () => {
    const viewer = { permissions: effectivePermissions('viewer', []) };
    expect(can(viewer, 'calls.read')).toBe(true);
    expect(can(viewer, 'export')).toBe(false);
    const viewerWithExport = { permissions: effectivePermissions('viewer', ['export']) };
    expect(can(viewerWithExport, 'export')).toBe(true);
    expect(can(viewerWithExport, 'billing')).toBe(false);
    const owner = { permissions: effectivePermissions('owner', []) };
    expect(can(owner, 'billing')).toBe(true);
  });
});
