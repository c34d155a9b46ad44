/**
 * An activity line's detail in words, for the Activity tab and its CSV: a role change
 * as "a@b.c: Manager → Viewer (export)", ended sessions as their device, anything else as
 * "key: value" pairs. Ids are left out: they mean nothing to a person reading the log.
 */
import type { ActivityItem } from './activity';

const HIDDEN_KEYS = new Set(['targetId', 'adminId', 'sessionId', 'userId']);
const ROLE_NAMES: Record<string, string> = { owner: 'Owner', manager: 'Manager', viewer: 'Viewer' };

const KEY_LABELS: Record<string, string> = {
  email: 'E-mail',
  name: 'Name',
  role: 'Role',
  permissions: 'Extra permissions',
  what: 'What',
  fields: 'Fields',
  change: 'Change',
  url: 'URL',
  action: 'Action',
  format: 'Format',
  adminUsername: 'Admin',
  adminName: 'Admin name',
  sessionsEnded: 'Other sessions ended',
  with: 'Confirmed with',
};

function roleText(value: unknown): string {
  if (!value || typeof value !== 'object') return '';
  // Checked just above: an object; both fields are read as unknown and tested below.
  const { role, permissions } = value as { role?: unknown; permissions?: unknown };
  const name = typeof role === 'string' ? (ROLE_NAMES[role] ?? role) : '';
  const extras = Array.isArray(permissions) && permissions.length > 0 ? ` (${permissions.join(', ')})` : '';
  return `${name}${extras}`;
}

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function describeActivityDetail(item: Pick<ActivityItem, 'action' | 'detail'>): string {
  const detail = item.detail;
  if (!detail) return '';
  if (item.action === 'role_change' && detail.from && detail.to) {
    const who = typeof detail.email === 'string' ? `${detail.email}: ` : '';
    return `${who}${roleText(detail.from)} → ${roleText(detail.to)}`;
  }
  if (item.action === 'session_ended') {
    if (typeof detail.others === 'number')
      return `${detail.others} other session${detail.others === 1 ? '' : 's'}`;
    const where = [detail.device, detail.ip].filter((v) => typeof v === 'string' && v).join(', ');
    return detail.current === true ? `${where} (this device)` : where;
  }
  if (item.action === 'view_as_client' && typeof detail.adminUsername === 'string') {
    return `Admin: ${detail.adminUsername}`;
  }
  return Object.entries(detail)
    .filter(([key, value]) => !HIDDEN_KEYS.has(key) && valueText(value) !== '')
    .map(([key, value]) => `${KEY_LABELS[key] ?? key}: ${valueText(value)}`)
    .join(' · ');
}
