/**
 * Phone numbers (`[PHONE]`): a run of 7 to 15 digits that libphonenumber calls valid, that follows
 * a "+" or a word such as "call", or that is North America's fictional 555-01xx. Never the call's
 * own from/to numbers (`keepNumbers`), however they are said, and never a number a word names as
 * something else ("order", "card").
 */
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { nearestContext } from './context';
import { gluedToIdentifier, runSpan, type Scan } from './scan';

function keepSet(keep: string[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const n of keep ?? []) {
    const parsed = parsePhoneNumberFromString(n);
    if (!parsed) {
      out.add(n.replace(/\D/g, ''));
      continue;
    }
    const nn = String(parsed.nationalNumber);
    out.add(`${parsed.countryCallingCode}${nn}`);
    out.add(nn);
    out.add(`0${nn}`);
  }
  return out;
}

/**
 * North America's 555-0100 to 555-0199, kept for fiction and tests, is what people read out as an
 * example and what test calls carry: "555-0199", "(555) 555-0123", "1 212 555 0142". libphonenumber
 * calls them invalid (no area code is 555, and seven digits have none), so without a word such as
 * "call" before them they were left; they are phone numbers as much as any other, so they go too.
 * The shape is narrow (seven digits 55501xx, or an area code of the North American form before
 * them), so an order or ticket number seldom has it, and a word naming one still keeps it.
 */
const FICTIONAL_NANP = /^(?:1?[2-9]\d\d)?55501\d\d$/;
const isFictionalNanp = (digits: string) => FICTIONAL_NANP.test(digits);

export function detectPhones(scan: Scan): void {
  const keep = keepSet(scan.options.keepNumbers);
  for (const run of scan.runs) {
    const n = run.digits.length;
    if (n < 7 || n > 15) continue;
    if (gluedToIdentifier(scan.tokens, run)) continue;
    const digits = run.digits.replace(/^00/, '');
    if (keep.has(digits) || keep.has(run.digits)) continue;
    const context = nearestContext(scan.tokens, run, 8);
    if (context === 'other' || context === 'card') continue;
    let phone = false;
    if (run.plus) phone = isValidPhoneNumber(`+${digits}`) || n >= 8;
    else if (context === 'phone') phone = true;
    else
      phone =
        isFictionalNanp(run.digits) ||
        // The literal array holds only these two region codes
        ['US', 'GB'].some((c) => isValidPhoneNumber(run.digits, c as 'US' | 'GB'));
    if (phone) scan.spans.push(runSpan(scan, run, 'phone', '[PHONE]'));
  }
}
