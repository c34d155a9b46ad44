import { describe, expect, it } from 'vitest';
import { type ClientRole, effectivePermissions } from '../../../contract/teams';
import { allowedTabs, missingTabNote, openedTab, parseSettingsTab, SETTINGS_TABS } from './settings-tabs';

describe('settings tabs', () => {
  it('opens the tab named in the query, else Account', () => {
    expect(parseSettingsTab('subscription')).toBe('subscription');
    expect(parseSettingsTab('security')).toBe('security');
    expect(parseSettingsTab('outcomes')).toBe('outcomes');
    expect(parseSettingsTab('privacy')).toBe('privacy');
    expect(parseSettingsTab('billing')).toBe('account');
    expect(parseSettingsTab(null)).toBe('account');
  });
});

describe('settings tabs by role', () => {
  const as = (role: ClientRole) => ({ permissions: effectivePermissions(role, []) });

  it('offers an Owner every tab, and opens Account as before', () => {
    const tabs = allowedTabs(as('owner'));
    expect(tabs).toEqual([...SETTINGS_TABS]);
    expect(openedTab(null, tabs)).toBe('account');
  });

  it('offers a Manager outcomes, notifications and security; a Viewer notifications and security', () => {
    expect(allowedTabs(as('manager'))).toEqual(['outcomes', 'notifications', 'security']);
    const viewerTabs = allowedTabs(as('viewer'));
    expect(viewerTabs).toEqual(['notifications', 'security']);
    expect(openedTab(null, viewerTabs)).toBe('notifications');
    // Named in the URL: opened, and the page shows the note instead of the form.
    expect(openedTab('subscription', viewerTabs)).toBe('subscription');
    expect(missingTabNote('subscription')).toBe(
      'Your role does not include billing and the subscription. Ask an Owner of this account if you need it.',
    );
    // Privacy is the Owners' alone.
    expect(openedTab('privacy', viewerTabs)).toBe('privacy');
    expect(missingTabNote('privacy')).toBe(
      'Your role does not include privacy settings and callers’ personal data. Ask an Owner of this account if you need it.',
    );
  });
});
