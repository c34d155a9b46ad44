/**
 * The words said just before a number, which say what it is: a card ("visa"), a phone ("call me
 * on"), or something else ("order", "zip", "ticket") that no category may take. The nearest word
 * walking back decides.
 */
import { ROLE_WORDS, type Token, wordsBefore } from './tokens';

const CARD_CONTEXT = new Set([
  'card',
  'visa',
  'mastercard',
  'amex',
  'discover',
  'debit',
  'credit',
  'maestro',
  'cardholder',
]);
/** A digit run after these is an identifier of something else, not a card or a phone. */
const OTHER_NUMBER_CONTEXT = new Set([
  // national IDs are their own category: not a phone when that one is off
  'social',
  'ssn',
  'insurance',
  'sin',
  'order',
  'tracking',
  'reference',
  'ref',
  'confirmation',
  'invoice',
  'booking',
  'ticket',
  'case',
  'policy',
  'member',
  'membership',
  'parcel',
  'shipment',
  'serial',
  'claim',
  'transaction',
  'receipt',
  'account',
  'routing',
  'sort',
  'imei',
  'vin',
  'model',
  'part',
  'sku',
  'item',
  'loyalty',
  'voucher',
  'coupon',
  'promo',
  'gift',
  'zip',
  'postcode',
  'pin',
  'isbn',
  'customer',
  'patient',
  'employee',
  'license',
  'licence',
  'registration',
  'flight',
  'room',
]);
const PHONE_CONTEXT = new Set([
  'phone',
  'mobile',
  'cell',
  'cellphone',
  'landline',
  'telephone',
  'call',
  'ring',
  'reach',
  'text',
  'whatsapp',
  'fax',
  'callback',
  'contact',
]);

type NumberContext = 'card' | 'other' | 'phone' | null;

/** Which context word comes first walking back from a run (the nearest one decides). */
export function nearestContext(tokens: Token[], run: { first: number }, window: number): NumberContext {
  // "number" alone says phone only when no word before it says what number ("order number")
  let numberSaid = false;
  for (const w of wordsBefore(tokens, run.first, window)) {
    if (CARD_CONTEXT.has(w)) return 'card';
    if (OTHER_NUMBER_CONTEXT.has(w)) return 'other';
    if (PHONE_CONTEXT.has(w)) return 'phone';
    if (w === 'number' || w === 'no') numberSaid = true;
  }
  return numberSaid ? 'phone' : null;
}

/**
 * Whether the word just before token `index` says the number there is something else ("order",
 * "zip"). A word said before another number names that one ("zip 10001 4000 0566 …"), and a
 * speaker's label starts another line: the walk back stops at either.
 */
export function namesAnotherKindOfNumber(tokens: Token[], index: number): boolean {
  let words = 0;
  for (let k = index - 1; k >= 0 && words < 8; k--) {
    const t = tokens[k]!;
    if (t.kind === 'num') return false;
    if (t.kind !== 'word') continue;
    if (tokens[k + 1]?.text === ':' && ROLE_WORDS.has(t.lower)) return false;
    if (OTHER_NUMBER_CONTEXT.has(t.lower)) return true;
    if (CARD_CONTEXT.has(t.lower) || PHONE_CONTEXT.has(t.lower)) return false;
    words++;
  }
  return false;
}

export function hasContext(tokens: Token[], index: number, window: number, words: Set<string>): boolean {
  return wordsBefore(tokens, index, window).some((w) => words.has(w));
}
