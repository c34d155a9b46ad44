/**
 * Masked caller numbers: what a user without `unmask_numbers` sees in place of a caller's
 * number, in every answer, live event, export, e-mail and text. One function, so the server and the
 * browser mask alike. It keeps the country code, the first group (the area code, so a business can
 * still tell a local caller from a far one) and the last four digits: "+1 212 ••• 0100". Anything
 * that does not parse as a phone number keeps only its last four digits.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

export const MASK_CHAR = '•';

/** A run of masked digits collapses to three marks: the mask should not tell how many digits hide. */
const MASKED_RUN = MASK_CHAR.repeat(3);

export function maskPhoneNumber(number: string | null | undefined): string {
  if (!number) return number ?? '';
  const parsed = parsePhoneNumberFromString(number);
  if (parsed?.isPossible()) {
    const [code, first, ...rest] = parsed.formatInternational().split(' ');
    const national = rest.join('').replace(/\D/g, '');
    if (first && national.length > 4) return `${code} ${first} ${MASKED_RUN} ${national.slice(-4)}`;
  }
  return maskAllButLastFour(number);
}

function maskAllButLastFour(value: string): string {
  const digits = value.replace(/\D/g, '');
  if (digits.length <= 4) return MASKED_RUN;
  return `${MASKED_RUN} ${digits.slice(-4)}`;
}

/** Whether a string is a masked number (the browser offers "Show number" on these). */
export function isMaskedPhoneNumber(value: string): boolean {
  return value.includes(MASK_CHAR);
}
