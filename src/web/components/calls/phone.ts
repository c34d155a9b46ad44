/**
 * Phone numbers for reading: the provider stores E.164 ("+14155550123"), people read
 * "+1 415 555 0123". Copies and exports keep E.164; only the screen uses this.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

export function formatPhone(number: string): string {
  if (!number) return '—';
  const parsed = parsePhoneNumberFromString(number);
  return parsed?.isPossible() ? parsed.formatInternational() : number;
}
