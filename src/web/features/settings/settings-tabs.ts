/** The settings page's tabs, how `?tab=` picks one and which a role may use (pure, tested). */
import type { Permission, SessionUser } from '../../../contract/teams';
import { can } from '../../lib/permissions';

export const SETTINGS_TABS = [
  'account',
  'subscription',
  'outcomes',
  'notifications',
  'security',
  'privacy',
  'users',
  'activity',
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** `?tab=`: one of the tabs; anything else opens Account. */
export function parseSettingsTab(value: string | null | undefined): SettingsTab {
  // includes takes only SettingsTab; passing it makes `value` one
  return (SETTINGS_TABS as readonly string[]).includes(value ?? '') ? (value as SettingsTab) : 'account';
}

/**
 * What a tab needs; null: every signed-in user (Security holds their own password,
 * sessions and two-factor; Notifications their own choices).
 */
export const TAB_PERMISSION: Record<SettingsTab, Permission | null> = {
  account: 'account',
  subscription: 'billing',
  outcomes: 'outcomes',
  notifications: null,
  security: null,
  privacy: 'privacy',
  users: 'users',
  activity: 'users',
};

/** The words for what a role lacks, in "Your role does not include …". */
const TAB_WHAT: Record<SettingsTab, string> = {
  account: "the account's profile",
  subscription: 'billing and the subscription',
  outcomes: 'outcomes',
  notifications: 'notifications',
  security: 'security',
  privacy: 'privacy settings and callers’ personal data',
  users: 'managing users',
  activity: "the account's activity log",
};

/** The tabs this user can use, in order. */
export function allowedTabs(user: Pick<SessionUser, 'permissions'>): SettingsTab[] {
  return SETTINGS_TABS.filter((tab) => {
    const needed = TAB_PERMISSION[tab];
    return needed === null || can(user, needed);
  });
}

/**
 * The tab to show: the one named in `?tab=`, or, with none named, the first this user can use
 * (Account for an Owner, as always).
 */
export function openedTab(value: string | null | undefined, allowed: readonly SettingsTab[]): SettingsTab {
  if (value) return parseSettingsTab(value);
  return allowed[0] ?? 'security';
}

/** Shown instead of a tab the user's role does not include. */
export function missingTabNote(tab: SettingsTab): string {
  return `Your role does not include ${TAB_WHAT[tab]}. Ask an Owner of this account if you need it.`;
}
