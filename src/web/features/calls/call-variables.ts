/**
 * The values a call's agent collected (its variables), as the drawer lists them: what the agent
 * gathered from the caller for the client (a name, an appointment time), apart from the values the
 * voice platform fills in on every call by itself (the call's own id, the clock, the numbers and
 * where they are from), which tell a business person nothing. Empty values are left out. Pure.
 */

/** Keys the voice platform sets on every call itself, whatever the agent asked (lower case). */
export const SYSTEM_VARIABLE_KEYS: ReadonlySet<string> = new Set([
  'call_id',
  'now',
  'now_utc',
  'timestamp',
  'timezone',
  'language',
  'from',
  'to',
  'phone_number',
  'short_from',
  'short_to',
  'country',
  'state',
  'city',
  'zip',
  'input',
]);

export interface CallVariable {
  key: string;
  /** The key in words: "appointment_time" → "appointment time". */
  label: string;
  value: string;
}

/** A value as text; null for one with nothing to show (null, empty, a dash). */
function shown(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value.trim() : JSON.stringify(value);
  return text === '' || text === '—' || text === '-' || text === '""' ? null : text;
}

/** The call's variables split into what the agent collected and what the platform set. */
export function callVariables(variables: Record<string, unknown> | null | undefined): {
  collected: CallVariable[];
  system: CallVariable[];
} {
  const collected: CallVariable[] = [];
  const system: CallVariable[] = [];
  for (const [key, raw] of Object.entries(variables ?? {})) {
    const value = shown(raw);
    if (value === null) continue;
    const item = { key, label: key.replace(/_/g, ' '), value };
    (SYSTEM_VARIABLE_KEYS.has(key.toLowerCase()) ? system : collected).push(item);
  }
  return { collected, system };
}
