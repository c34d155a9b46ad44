/** The settings page's tabs and how `?tab=` picks one (pure, tested). */

export const SETTINGS_TABS = [
  'account',
  'subscription',
  'outcomes',
  'notifications',
  'security',
  'users',
  'activity',
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** `?tab=`: one of the tabs; anything else opens Account. */
export function parseSettingsTab(value: string | null | undefined): SettingsTab {
  return (SETTINGS_TABS as readonly string[]).includes(value ?? '') ? (value as SettingsTab) : 'account';
}
