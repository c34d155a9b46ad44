import { describe, expect, it } from 'vitest';
import { parseSettingsTab } from './settings-tabs';

describe('settings tabs', () => {
  it('opens the tab named in the query, else Account', () => {
    expect(parseSettingsTab('subscription')).toBe('subscription');
    expect(parseSettingsTab('security')).toBe('security');
    expect(parseSettingsTab('outcomes')).toBe('outcomes');
    expect(parseSettingsTab('billing')).toBe('account');
    expect(parseSettingsTab(null)).toBe('account');
  });
});
