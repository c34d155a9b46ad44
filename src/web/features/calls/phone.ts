/**
 * Phone numbers for reading: the provider stores E.164 ("+14155550123"), people read
 * "+1 415 555 0123". Copies and exports keep E.164; only the screen uses this. A masked number
 * ("+1 212 ••• 0100") is shown as the server gave it.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { isMaskedPhoneNumber } from '../../../contract/phone-mask';

export function formatPhone(number: string): string {
  if (!number) return '—';
  if (isMaskedPhoneNumber(number)) return number;
  const parsed = parsePhoneNumberFromString(number);
  return parsed?.isPossible() ? parsed.formatInternational() : number;
}
