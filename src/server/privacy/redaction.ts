/**
 * The redaction engine: takes text and a client's chosen categories, answers the text
 * with each piece of personal data replaced by a label, and how many of each it found. Pure: no
 * I/O, no database, no clock; the ingestion paths that call it (webhook, confirmation, sync,
 * replay) and the re-redaction run are wired elsewhere. It never throws on odd text.
 *
 * Labels (one scheme, what the transcript view shows as chips):
 * - `[CARD]` a payment card number; `[EXPIRY]` and `[CVC]` its expiry date and security code when
 *   said next to it (or, for the code, named as one). They are kept apart from `[CARD]` rather
 *   than folded in because the text stays readable ("expiry [EXPIRY]") and the counts tell the
 *   client what a caller read out; all three belong to the one `cards` category.
 * - National IDs: `[SSN]` (US Social Security number) and `[NI]` (UK National Insurance number),
 *   the two the issue names, are on whenever `nationalIds` is; every other country's number is
 *   `[NATIONAL_ID]` (found.nationalId), so the transcript view needs one more chip, not one per
 *   country. A country is one entry of `NATIONAL_ID_FORMATS`, looked for when the client's
 *   `nationalIdCountries` names it; Canada's SIN is the first.
 * - `[EMAIL]`, `[PHONE]` (never the call's own from/to numbers: `keepNumbers`), `[DOB]`, `[ADDRESS]`.
 *
 * Why no library (checked against the npm packages the issue names, installed and tried on
 * spoken examples, November 2026): `@openredaction/openredaction` has hundreds of written-form
 * patterns but found no spoken card ("four two four two ...") nor spelled e-mail, and labelled an
 * order number and every word of a spoken phone number as Instagram users; `redact-pii` (regexes
 * for written forms, Google's DLP client as a dependency) missed the same spoken card and e-mail,
 * took "john" for a name and a 13-digit order number for a phone; `words-to-numbers` knows
 * neither "oh" nor "double", turns "dot" into 0 and depends on babel-runtime 6; `card-validator`
 * validates typed card fields (its Luhn check is five lines, below). Spoken numbers are the hard
 * part and none of them does it, so this module reads the words itself. libphonenumber-js (already a dependency)
 * tells a phone number from other digit runs and normalises the call's own numbers.
 *
 * How: the text is cut into tokens once; a linear pass reads every "number run" (digits written or
 * spoken, with fillers, pauses and corrections inside); each category looks at the runs and the
 * words around them. Every step is a bounded scan over tokens and the few regexes have no nested
 * quantifiers, so time grows linearly with the text (no catastrophic backtracking).
 */
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { REPEATS, TEENS, TENS, UNITS, wordTable } from '../access/number-text';

export interface RedactionOptions {
  cards: boolean;
  nationalIds: boolean;
  emails: boolean;
  phones: boolean;
  dates: boolean;
  addresses: boolean;
  /** ISO 3166 alpha-2 codes of further countries whose ID formats are looked for (US, GB always). */
  nationalIdCountries: string[];
  /** The call's own from/to numbers (E.164): never redacted, they are the call's metadata. */
  keepNumbers?: string[];
}

export interface RedactionFound {
  card: number;
  /** Of the cards found, how many pass the Luhn check: a label only, a card is redacted either way. */
  cardLuhnValid: number;
  expiry: number;
  cvc: number;
  ssn: number;
  ni: number;
  nationalId: number;
  email: number;
  phone: number;
  dob: number;
  address: number;
}

export interface RedactionResult {
  text: string;
  found: RedactionFound;
}

type FoundKey = Exclude<keyof RedactionFound, 'cardLuhnValid'>;

interface Span {
  start: number;
  end: number;
  key: FoundKey;
  label: string;
  luhn?: boolean;
  /** A card's digits as read (for the checks a card found across two lines must pass). */
  digits?: string;
  /** A piece of a finding cut by a line boundary: labelled, but counted with its first piece. */
  uncounted?: boolean;
}

/** When two findings overlap, the higher one wins (a card beats the phone its digits could be). */
const PRIORITY: Record<FoundKey, number> = {
  card: 10,
  cvc: 9,
  expiry: 9,
  ssn: 8,
  ni: 8,
  nationalId: 8,
  email: 7,
  phone: 6,
  dob: 5,
  address: 4,
};

export function emptyFound(): RedactionFound {
  return {
    card: 0,
    cardLuhnValid: 0,
    expiry: 0,
    cvc: 0,
    ssn: 0,
    ni: 0,
    nationalId: 0,
    email: 0,
    phone: 0,
    dob: 0,
    address: 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Tokens

interface Token {
  text: string;
  lower: string;
  start: number;
  end: number;
  kind: 'num' | 'word' | 'punct';
}

// Groups: 1 a number, 2 a word, neither a mark; the kind comes from the match, not a second regex.
const TOKEN_RE = /(\d+(?:st|nd|rd|th)?)|(\p{L}+(?:['’]\p{L}+)*)|[^\s\p{L}\d]/gu;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(TOKEN_RE)) {
    const t = m[0];
    const start = m.index ?? 0;
    const kind = m[1] !== undefined ? 'num' : m[2] !== undefined ? 'word' : 'punct';
    tokens.push({ text: t, lower: t.toLowerCase(), start, end: start + t.length, kind });
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Number runs: digits written or spoken, with the pauses and corrections people put inside.

/** Transcribers hear "four" as "for" and "two" as "to": a digit only between two spoken digits. */
const WEAK_UNITS = wordTable({ for: '4', to: '2', too: '2' });
const FILLERS = new Set(['um', 'uh', 'uhh', 'umm', 'uhm', 'er', 'erm', 'ah', 'hmm', 'hm', 'mm', 'mhm']);
/** Said between groups of a number being dictated ("four two four two space four two ..."). */
const SPOKEN_SEPARATORS = new Set(['space', 'dash', 'hyphen']);

/** "Caller:", "Agent:", "User:": a speaker's label in a transcript, at token k. */
function isSpeakerLabel(tokens: Token[], k: number): boolean {
  return (
    tokens[k]?.kind === 'word' && tokens[k + 1]?.text === ':' && (k === 0 || tokens[k - 1]!.kind === 'punct')
  );
}
/** Punctuation that may sit inside a number as said or transcribed. */
const RUN_PUNCT = new Set([',', '.', '-', '–', '—', '…', '(', ')']);
/** Words that take back the group just said ("four two four, sorry, four two four two"). */
const CORRECTION_PHRASES: string[][] = [
  ['sorry'],
  ['no'],
  ['wait'],
  ['oops'],
  ['actually'],
  ['i', 'mean'],
  ['i', 'meant'],
  ['my', 'mistake'],
  ['hang', 'on'],
  ['hold', 'on'],
  ['correction'],
];
/** Words that take back the whole number said so far. */
const RESTART_PHRASES: string[][] = [
  ['let', 'me', 'start', 'again'],
  ['let', 'me', 'start', 'over'],
  ['let', 'me', 'try', 'again'],
  ['start', 'again'],
  ['start', 'over'],
  ['from', 'the', 'top'],
];

interface NumberRun {
  /** First and last token (inclusive) holding digits. */
  first: number;
  last: number;
  digits: string;
  /** Digit groups as said: split at pauses, punctuation and between written numbers. */
  groups: string[];
  /** Written "+" or said "plus" just before: an international phone number. */
  plus: boolean;
  /** Digits were taken back inside it: its groups no longer map one to one onto its tokens. */
  corrected: boolean;
  /**
   * Character ranges inside it that are not the caller's digits but the transcript's own: the
   * line break and speaker label between two lines of the same speaker ("User: number 4000 0566
   * \nUser: 5566 5556"). A finding over the run keeps them, labelling the digits on each side.
   */
  keeps?: [number, number][];
}

function matchPhrase(tokens: Token[], i: number, phrases: string[][]): number {
  for (const phrase of phrases) {
    let ok = true;
    for (let k = 0; k < phrase.length; k++) {
      if (tokens[i + k]?.lower !== phrase[k]) {
        ok = false;
        break;
      }
    }
    if (ok) return phrase.length;
  }
  return 0;
}

/** Reads one digit-bearing item at i: its digits and how many tokens it took, or null. */
function readDigitItem(tokens: Token[], i: number): { digits: string; used: number; spoken: boolean } | null {
  const t = tokens[i];
  if (!t) return null;
  if (t.kind === 'num') {
    if (!/^\d+$/.test(t.text)) return null; // an ordinal ("5th") is a date, not a digit
    return { digits: t.text, used: 1, spoken: false };
  }
  if (t.kind !== 'word') return null;
  const w = t.lower;
  const unit = UNITS[w];
  if (unit !== undefined) {
    const next = tokens[i + 1];
    if (next?.lower === 'hundred') return readHundred(tokens, i + 2, unit, 2);
    if (next?.lower === 'thousand') return readThousand(tokens, i + 2, unit);
    return { digits: unit, used: 1, spoken: true };
  }
  const teen = TEENS[w];
  if (teen !== undefined) {
    if (tokens[i + 1]?.lower === 'hundred') return readHundred(tokens, i + 2, teen, 2);
    return { digits: teen, used: 1, spoken: true };
  }
  const tens = TENS[w];
  if (tens !== undefined) {
    // "twenty-seven", "twenty seven": one two-digit number
    let j = i + 1;
    if (tokens[j]?.text === '-' && tokens[j]!.start === t.end) j++;
    const u = tokens[j] ? UNITS[tokens[j]!.lower] : undefined;
    if (u !== undefined && u !== '0' && tokens[j]!.lower !== 'o')
      return { digits: tens + u, used: j - i + 1, spoken: true };
    return { digits: `${tens}0`, used: 1, spoken: true };
  }
  const times = REPEATS[w];
  if (times !== undefined) {
    const next = readDigitItem(tokens, i + 1);
    if (next && next.digits.length === 1)
      return { digits: next.digits.repeat(times), used: 1 + next.used, spoken: true };
    return null;
  }
  return null;
}

/**
 * "four thousand", "four thousand two hundred forty-two" (a transcriber's way of writing 4242),
 * "two thousand and nineteen".
 */
function readThousand(tokens: Token[], j: number, lead: string) {
  let k = j;
  if (tokens[k]?.lower === 'and') k++;
  const t = tokens[k];
  const rest = t?.kind === 'word' && !REPEATS[t.lower] ? readDigitItem(tokens, k) : null;
  if (
    rest &&
    rest.digits.length <= 3 &&
    (rest.digits.length === 3) === (tokens[k + 1]?.lower === 'hundred')
  ) {
    return { digits: lead + rest.digits.padStart(3, '0'), used: 2 + (k - j) + rest.used, spoken: true };
  }
  return { digits: `${lead}000`, used: 2, spoken: true };
}

/** "four hundred", "four hundred twenty-seven", "one hundred and five". */
function readHundred(tokens: Token[], j: number, lead: string, usedSoFar: number) {
  let k = j;
  if (tokens[k]?.lower === 'and') k++;
  const rest = readDigitItem(tokens, k);
  if (rest && rest.digits.length <= 2 && tokens[k]!.kind === 'word' && !REPEATS[tokens[k]!.lower]) {
    return {
      digits: lead + rest.digits.padStart(2, '0'),
      used: usedSoFar + (k - j) + rest.used,
      spoken: true,
    };
  }
  return { digits: `${lead}00`, used: usedSoFar, spoken: true };
}

function isSpokenDigitAt(tokens: Token[], i: number): boolean {
  const t = tokens[i];
  return t !== undefined && t.kind === 'word' && UNITS[t.lower] !== undefined;
}

/** Words a transcript writes as a speaker's label anywhere in a line ("… done. user: 5566"). */
const ROLE_WORDS = new Set([
  'user',
  'assistant',
  'agent',
  'caller',
  'customer',
  'ai',
  'bot',
  'human',
  'speaker',
  'operator',
]);

/** A speaker's label at token k: a line's or the text's start, after punctuation, or a role's name. */
function isTurnLabel(text: string, tokens: Token[], k: number): boolean {
  const t = tokens[k];
  if (t?.kind !== 'word' || tokens[k + 1]?.text !== ':') return false;
  if (k === 0 || tokens[k - 1]!.kind === 'punct' || ROLE_WORDS.has(t.lower)) return true;
  return text.slice(tokens[k - 1]!.end, t.start).includes('\n');
}

/** Every number run of the text, in order, each starting at a digit and ending at one. */
function findRuns(tokens: Token[], text: string): NumberRun[] {
  const runs: NumberRun[] = [];
  // Who speaks at each token, worked out once and only when a run meets a speaker's label.
  let speakers: (string | null)[] | null = null;
  const speakerAt = (k: number): string | null => {
    if (!speakers) {
      speakers = new Array<string | null>(tokens.length);
      let current: string | null = null;
      for (let m = 0; m < tokens.length; m++) {
        if (isTurnLabel(text, tokens, m)) current = tokens[m]!.lower;
        speakers[m] = current;
      }
    }
    return speakers[k] ?? null;
  };
  let i = 0;
  while (i < tokens.length) {
    const item = readDigitItem(tokens, i);
    if (!item) {
      i++;
      continue;
    }
    const first = i;
    let last = i + item.used - 1;
    const groups: string[] = [item.digits];
    let groupOpen = item.spoken; // spoken digits keep adding to one group until a pause
    let lastWasDigit = true;
    let j = i + item.used;
    let lastValid = j;
    // a take-back counts only if digits follow it ("4242 4242 4242 4242, no wait, that's my old
    // one" keeps all sixteen): until then the groups as they were are kept here
    let beforeTakeBack: string[] | null = null;
    let corrected = false;
    const keeps: [number, number][] = [];
    let keepFrom: number | null = null;
    // the year of a written date ("04/27") stands alone
    const dateTail = tokens[first]!.kind === 'num' && tokens[first - 1]?.text === '/';
    for (;;) {
      if (dateTail) break;
      const t = tokens[j];
      if (!t) break;
      if (t.kind === 'punct' && RUN_PUNCT.has(t.text)) {
        groupOpen = false;
        j++;
        continue;
      }
      if (t.kind === 'word' && (FILLERS.has(t.lower) || SPOKEN_SEPARATORS.has(t.lower))) {
        groupOpen = false;
        j++;
        continue;
      }
      // The same speaker's next line ("User: number 4000 0566" / "User: 5566 5556"): one number
      // said in two breaths, which the transcriber cut into two lines.
      if (
        t.kind === 'word' &&
        tokens[j + 1]?.text === ':' &&
        isTurnLabel(text, tokens, j) &&
        speakerAt(first) === t.lower
      ) {
        keepFrom ??= tokens[last]!.end;
        groupOpen = false;
        j += 2;
        continue;
      }
      const restart = t.kind === 'word' ? matchPhrase(tokens, j, RESTART_PHRASES) : 0;
      if (restart) {
        beforeTakeBack ??= [...groups];
        groups.length = 0;
        groupOpen = false;
        lastWasDigit = false;
        j += restart;
        continue;
      }
      const correction = t.kind === 'word' ? matchPhrase(tokens, j, CORRECTION_PHRASES) : 0;
      if (correction) {
        // only a correction when the caller is mid-number: digits must follow (checked below)
        if (lastWasDigit) {
          beforeTakeBack ??= [...groups];
          groups.pop();
        }
        groupOpen = false;
        lastWasDigit = false;
        j += correction;
        continue;
      }
      const weak = t.kind === 'word' ? WEAK_UNITS[t.lower] : undefined;
      if (weak && lastWasDigit && isSpokenDigitAt(tokens, j - 1) && isSpokenDigitAt(tokens, j + 1)) {
        groups[groups.length - 1] += weak;
        j++;
        last = j - 1;
        lastValid = j;
        continue;
      }
      const next = readDigitItem(tokens, j);
      if (!next) break;
      if (t.kind === 'num' && tokens[j + 1]?.text === '/' && tokens[j + 2]?.kind === 'num') break; // "04/27": a date

      if (beforeTakeBack) {
        beforeTakeBack = null;
        corrected = true;
      }
      if (keepFrom !== null) {
        keeps.push([keepFrom, t.start]);
        keepFrom = null;
      }
      if (groupOpen && next.spoken && groups.length > 0) groups[groups.length - 1] += next.digits;
      else groups.push(next.digits);
      groupOpen = next.spoken;
      lastWasDigit = true;
      j += next.used;
      last = j - 1;
      lastValid = j;
    }
    if (beforeTakeBack) groups.splice(0, groups.length, ...beforeTakeBack);
    const digits = groups.join('');
    const before = tokens[first - 1];
    const plus = before?.text === '+' || before?.lower === 'plus';
    if (digits.length > 0)
      runs.push({
        first,
        last,
        digits,
        groups: groups.filter((g) => g.length > 0),
        plus,
        corrected,
        ...(keeps.length > 0 ? { keeps } : {}),
      });
    i = Math.max(lastValid, first + 1);
  }
  return runs;
}

// ---------------------------------------------------------------------------------------------
// Context: words said just before a run.

function wordsBefore(tokens: Token[], index: number, count: number): string[] {
  const out: string[] = [];
  for (let k = index - 1; k >= 0 && out.length < count; k--) {
    if (tokens[k]!.kind === 'word') out.push(tokens[k]!.lower);
  }
  return out;
}

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
function nearestContext(tokens: Token[], run: { first: number }, window: number): NumberContext {
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
function namesAnotherKindOfNumber(tokens: Token[], index: number): boolean {
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

function hasContext(tokens: Token[], index: number, window: number, words: Set<string>): boolean {
  return wordsBefore(tokens, index, window).some((w) => words.has(w));
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let k = 0; k < digits.length; k++) {
    let d = digits.charCodeAt(digits.length - 1 - k) - 48;
    if (k % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * Whether digits have a card scheme's prefix and one of its lengths (Visa, Mastercard, Amex,
 * Discover, JCB, Diners, UnionPay, Mir). Maestro's wide 5/6 ranges are left out: a tracking
 * number's middle would too often pass. Used where no word says "card" and nothing else would
 * find the number, so it is asked together with the Luhn check (isCardShaped).
 */
function hasCardPrefix(d: string): boolean {
  const n = d.length;
  const p2 = Number(d.slice(0, 2));
  const p3 = Number(d.slice(0, 3));
  const p4 = Number(d.slice(0, 4));
  if (d[0] === '4') return n === 13 || n === 16 || n === 19;
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n === 16;
  if (p2 === 34 || p2 === 37) return n === 15;
  if (p4 === 6011 || (p3 >= 644 && p3 <= 649) || p2 === 65 || p2 === 62) return n >= 16 && n <= 19;
  if ((p4 >= 3528 && p4 <= 3589) || (p4 >= 2200 && p4 <= 2204)) return n >= 16 && n <= 19;
  if ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38 || p2 === 39) return n >= 14 && n <= 19;
  return false;
}

/** 13 to 19 digits with a card scheme's prefix and length, passing the Luhn check. */
export function isCardShaped(digits: string): boolean {
  return digits.length >= 13 && digits.length <= 19 && hasCardPrefix(digits) && luhnValid(digits);
}

/** Lists of years ("2019, 2020, 2021, 2022") make 16 digits too; no card reads as years. */
function allYears(groups: string[]): boolean {
  return groups.length >= 2 && groups.every((g) => /^(19|20)\d\d$/.test(g));
}

// ---------------------------------------------------------------------------------------------
// Detectors

interface Scan {
  text: string;
  tokens: Token[];
  runs: NumberRun[];
  /** Run index by its first token and by its last token. */
  runByFirst: Map<number, NumberRun>;
  runByLast: Map<number, NumberRun>;
  options: RedactionOptions;
  spans: Span[];
  /** Whether the transcriber writes capitals at all (some write everything in lower case). */
  hasCapitals: boolean;
}

function spanOfTokens(scan: Scan, first: number, last: number, key: FoundKey, label: string): Span {
  return { start: scan.tokens[first]!.start, end: scan.tokens[last]!.end, key, label };
}

/** Token range of a run's digits, widened to a written "+" or "(" just before it. */
function runSpan(scan: Scan, run: NumberRun, key: FoundKey, label: string): Span {
  let first = run.first;
  const before = scan.tokens[first - 1];
  if (before && (before.text === '+' || before.text === '(' || before.lower === 'plus')) first--;
  return spanOfTokens(scan, first, run.last, key, label);
}

/** Token index of the end of `count` digits into the run (for splitting card | expiry | code). */
function tokenAfterDigits(
  scan: Scan,
  run: NumberRun,
  groupCount: number,
  /** Where to start reading and how many groups lie before it (a split in several cuts goes on). */
  from = run.first,
  groupsBefore = 0,
): { lastOfHead: number; firstOfTail: number } | null {
  // Re-read the run's tokens, counting groups the same way findRuns did, without corrections
  // (a split is only tried on runs without them).
  const digits = run.groups.slice(groupsBefore, groupCount).join('').length;
  let seen = 0;
  let j = from;
  while (j <= run.last) {
    const item = readDigitItem(scan.tokens, j);
    if (item) {
      seen += item.digits.length;
      j += item.used;
      if (seen === digits) {
        let k = j;
        while (k <= run.last && !readDigitItem(scan.tokens, k)) k++;
        return { lastOfHead: j - 1, firstOfTail: k };
      }
      if (seen > digits) return null;
    } else j++;
  }
  return null;
}

function isMonth2(g: string): boolean {
  const m = Number(g.slice(0, 2));
  return m >= 1 && m <= 12;
}

/**
 * Whether a run's written digits are glued to letters or digits it does not include ("1a259024-
 * 2244-4403-89c9", a UUID whose middle groups happen to be digits): part of an identifier, not a
 * number someone said.
 */
function gluedToIdentifier(tokens: Token[], run: NumberRun): boolean {
  const first = tokens[run.first]!;
  const last = tokens[run.last]!;
  const before = tokens[run.first - 1];
  const after = tokens[run.last + 1];
  const glued = (a: Token | undefined, b: Token) => a !== undefined && a.kind !== 'punct' && b.kind === 'num';
  return (
    (glued(before, first) && before!.end === first.start) || (glued(after, last) && after!.start === last.end)
  );
}

function detectCards(scan: Scan): void {
  const { tokens } = scan;
  let lastCardEnd = -1;
  for (let r = 0; r < scan.runs.length; r++) {
    const run = scan.runs[r]!;
    if (run.plus) continue; // "+44 ...": a phone number
    if (gluedToIdentifier(tokens, run)) continue;
    const n = run.digits.length;
    const context = nearestContext(tokens, run, 8);
    if (
      context === 'other' ||
      (context === 'phone' && n <= 15 && wordsBefore(tokens, run.first, 8)[0] !== 'number')
    )
      continue;
    // the rest of a card said after a break ("... and then four two four two ...")
    if (n >= 4 && n < 13 && lastCardEnd >= 0 && continuesCard(tokens, lastCardEnd, run.first)) {
      scan.spans.push({ ...runSpan(scan, run, 'card', '[CARD]'), luhn: false });
      lastCardEnd = run.last;
      continue;
    }
    const before = scan.spans.length;
    const next = scan.runs[r + 1];
    if (n >= 13 && n <= 19) {
      if (allYears(run.groups)) continue;
      // A card said straight through with its expiry ("... 4242, oh four twenty-seven") splits off.
      if (!(n > 16 && !run.corrected && splitCardTail(scan, run)))
        scan.spans.push({
          ...runSpan(scan, run, 'card', '[CARD]'),
          luhn: luhnValid(run.digits),
          digits: run.digits,
        });
    } else if (n > 19) {
      if (allYears(run.groups)) continue; // "1995 1996 1997 1998 1999": no card and code either
      // digits taken back and re-said: someone reading out a card, whatever the count
      if (run.corrected) scan.spans.push({ ...runSpan(scan, run, 'card', '[CARD]'), luhn: false });
      else if (!splitCardTail(scan, run) && !splitRepeatedCards(scan, run) && context === 'card')
        scan.spans.push({ ...runSpan(scan, run, 'card', '[CARD]'), luhn: false });
    } else if (
      n >= 4 &&
      next &&
      !next.plus &&
      n + next.digits.length >= 13 &&
      n + next.digits.length <= 19 &&
      continuesCard(tokens, run.last, next.first) &&
      !allYears([...run.groups, ...next.groups])
    ) {
      // two halves joined by "and then": one card
      const digits = run.digits + next.digits;
      scan.spans.push({
        ...spanOfTokens(scan, run.first, next.last, 'card', '[CARD]'),
        luhn: luhnValid(digits),
        digits,
      });
      lastCardEnd = next.last;
      r++;
      continue;
    } else if (n >= 8 && context === 'card') {
      // a card read out in pieces, the rest said later: the piece said after "card" still goes
      scan.spans.push({ ...runSpan(scan, run, 'card', '[CARD]'), luhn: false });
    }
    if (scan.spans.length > before) lastCardEnd = run.last;
  }
}

/**
 * Each token index where each of a run's groups starts and ends, read once; null when the groups
 * do not map onto whole tokens (digits taken back, a "for" read as four).
 */
function groupTokens(scan: Scan, run: NumberRun): { first: number[]; last: number[] } | null {
  const first: number[] = [];
  const last: number[] = [];
  let g = 0;
  let inGroup = 0;
  for (let j = run.first; j <= run.last; ) {
    const item = readDigitItem(scan.tokens, j);
    if (!item) {
      j++;
      continue;
    }
    const group = run.groups[g];
    if (group === undefined) return null;
    if (inGroup === 0) first[g] = j;
    inGroup += item.digits.length;
    j += item.used;
    if (inGroup === group.length) {
      last[g] = j - 1;
      g++;
      inGroup = 0;
    } else if (inGroup > group.length) return null;
  }
  return g === run.groups.length ? { first, last } : null;
}

/**
 * A card inside a longer run that detectCards left whole: said straight after another number
 * ("zip 10001 4000 0566 5566 5556"), glued to an identifier ("V08 4000056655665556"), or followed
 * by one. Any groups in a row making 13-19 digits with a card's prefix, length and Luhn check are
 * a card, whatever precedes them; only a window that starts the run still obeys the word naming
 * the run ("order number …"), as detectCards does.
 */
function detectCardsInside(scan: Scan): void {
  if (!scan.runs.some((run) => run.digits.length >= 13)) return;
  const cards = scan.spans.filter((s) => s.key === 'card');
  let p = 0;
  for (const run of scan.runs) {
    if (run.digits.length < 13 || run.corrected) continue;
    const start = scan.tokens[run.first]!.start;
    const end = scan.tokens[run.last]!.end;
    while (p < cards.length && cards[p]!.end <= start) p++;
    if (p < cards.length && cards[p]!.start < end) continue;
    const { groups } = run;
    let bounds: ReturnType<typeof groupTokens> | undefined;
    for (let i = 0; i < groups.length; ) {
      let best = -1;
      let bestDigits = '';
      let acc = '';
      for (let k = i; k < groups.length && acc.length + groups[k]!.length <= 19; k++) {
        acc += groups[k]!;
        if (isCardShaped(acc)) {
          best = k;
          bestDigits = acc;
        }
      }
      if (best < 0 || (i === 0 && (run.plus || nearestContext(scan.tokens, run, 8) === 'other'))) {
        i++;
        continue;
      }
      bounds ??= groupTokens(scan, run);
      if (!bounds) break;
      scan.spans.push({
        ...spanOfTokens(scan, bounds.first[i]!, bounds.last[best]!, 'card', '[CARD]'),
        luhn: true,
        digits: bestDigits,
      });
      i = best + 1;
    }
  }
}

// Written groups joined by a separator the runs do not read ("3530/1113/3330/0000",
// "5105_1051_0510_5100", "3782|822463|10005"): a slash between numbers is otherwise a date's.
// Bounded repeats without nesting, so linear. Such separators also join file names, batch ids
// and timestamps ("20241127_000123_4567"), so the digits must be card-shaped unless the caller
// said "card".
const SEPARATED_DIGITS_RE = /(?<!\d)\d{1,19}(?:[ \t]?[/_\\|][ \t]?\d{1,19}){2,18}/g;
const SEPARATOR_CHARS_RE = /[/_\\|]/;

function detectSeparatedCards(scan: Scan): void {
  if (!SEPARATOR_CHARS_RE.test(scan.text)) return;
  for (const m of scan.text.matchAll(SEPARATED_DIGITS_RE)) {
    const groups = m[0].split(/\D+/);
    const digits = groups.join('');
    if (digits.length < 13 || digits.length > 19 || allYears(groups)) continue;
    const start = m.index ?? 0;
    // the first token of the match, for the words said before it
    let lo = 0;
    let hi = scan.tokens.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (scan.tokens[mid]!.start < start) lo = mid + 1;
      else hi = mid;
    }
    if (namesAnotherKindOfNumber(scan.tokens, lo)) continue;
    if (!isCardShaped(digits) && nearestContext(scan.tokens, { first: lo }, 8) !== 'card') continue;
    scan.spans.push({
      start,
      end: start + m[0].length,
      key: 'card',
      label: '[CARD]',
      luhn: luhnValid(digits),
      digits,
    });
  }
}

const IDENTIFIER_JOINERS = new Set(['_', '/', '\\', '|', '#', '@', '=', '+', '*', ':']);
const CARD_CONTINUATION = new Set(['and', 'then', 'the', 'rest', 'is', 'last', 'next', 'bit', 'part']);

/** Whether only joining words lie between a card's last token and this run. */
function continuesCard(tokens: Token[], cardLast: number, runFirst: number): boolean {
  if (runFirst - cardLast > 12) return false;
  let words = 0;
  for (let k = cardLast + 1; k < runFirst; k++) {
    const t = tokens[k]!;
    // "20241127_000123": a mark that joins an identifier's parts is no pause between two halves
    if (t.kind === 'punct' && IDENTIFIER_JOINERS.has(t.text)) return false;
    if (t.kind === 'punct' || FILLERS.has(t.lower)) continue;
    if (!CARD_CONTINUATION.has(t.lower) || ++words > 3) return false;
  }
  return true;
}

/**
 * A card said twice in one breath ("4242 4242 4242 4242, 4242 4242 4242 4242"), or two cards: the
 * run cuts at group boundaries into pieces of 16 (or 15) digits, each a card. A tracking number's
 * groups do not cut so (its last piece is short), so it stays.
 */
function splitRepeatedCards(scan: Scan, run: NumberRun): boolean {
  if (!readsWithoutCorrections(scan, run)) return false; // taken-back digits: groups do not map to tokens
  const cuts: number[] = [];
  let acc = 0;
  for (let g = 0; g < run.groups.length; g++) {
    acc += run.groups[g]!.length;
    if (
      acc === 16 ||
      (acc === 15 && run.groups[g + 1] !== undefined && acc + run.groups[g + 1]!.length > 16)
    ) {
      cuts.push(g + 1);
      acc = 0;
    } else if (acc > 16) return false;
  }
  if (acc !== 0 || cuts.length < 2) return false;
  let firstTok = run.first;
  let groupsBefore = 0;
  for (const cut of cuts) {
    const at = tokenAfterDigits(scan, run, cut, firstTok, groupsBefore);
    if (!at) return false;
    const digits = run.groups.slice(groupsBefore, cut).join('');
    scan.spans.push({
      ...spanOfTokens(scan, firstTok, at.lastOfHead, 'card', '[CARD]'),
      luhn: luhnValid(digits),
    });
    firstTok = at.firstOfTail;
    groupsBefore = cut;
  }
  return true;
}

/** Whether the run's tokens hold exactly its digits (nothing was taken back by a correction). */
function readsWithoutCorrections(scan: Scan, run: NumberRun): boolean {
  let digits = 0;
  for (let j = run.first; j <= run.last; ) {
    const item = readDigitItem(scan.tokens, j);
    if (item) {
      digits += item.digits.length;
      j += item.used;
    } else j++;
  }
  return digits === run.digits.length;
}

/** A run of card + expiry (+ code) said as one: split at group boundaries when the tail fits. */
function splitCardTail(scan: Scan, run: NumberRun): boolean {
  let acc = 0;
  for (let g = 0; g < run.groups.length - 1; g++) {
    acc += run.groups[g]!.length;
    if (acc !== 16 && acc !== 15) continue;
    const tail = run.groups.slice(g + 1);
    const tailDigits = tail.join('');
    let expiryLen = 0;
    if (tail[0] && (tail[0].length === 4 || tail[0].length === 6) && isMonth2(tail[0]))
      expiryLen = tail[0].length;
    else if (
      tail.length >= 2 &&
      tail[0]!.length <= 2 &&
      tail[1]!.length <= 4 &&
      isMonth2(tail[0]!.padStart(2, '0'))
    )
      expiryLen = tail[0]!.length + tail[1]!.length;
    const codeLen = tailDigits.length - expiryLen;
    if (expiryLen === 0 && !(codeLen === 3 || codeLen === 4)) continue;
    if (expiryLen > 0 && !(codeLen === 0 || codeLen === 3 || codeLen === 4)) continue;
    const cut = tokenAfterDigits(scan, run, g + 1);
    if (!cut) continue;
    const head = run.digits.slice(0, acc);
    scan.spans.push({
      ...spanOfTokens(scan, run.first, cut.lastOfHead, 'card', '[CARD]'),
      luhn: luhnValid(head),
    });
    if (cut.firstOfTail <= run.last) {
      if (expiryLen > 0 && codeLen > 0) {
        const groupsInExpiry = tail[0]!.length === expiryLen ? 1 : 2;
        const cut2 = tokenAfterDigits(scan, run, g + 1 + groupsInExpiry);
        if (cut2) {
          scan.spans.push(spanOfTokens(scan, cut.firstOfTail, cut2.lastOfHead, 'expiry', '[EXPIRY]'));
          if (cut2.firstOfTail <= run.last)
            scan.spans.push(spanOfTokens(scan, cut2.firstOfTail, run.last, 'cvc', '[CVC]'));
        } else scan.spans.push(spanOfTokens(scan, cut.firstOfTail, run.last, 'expiry', '[EXPIRY]'));
      } else if (expiryLen > 0) {
        scan.spans.push(spanOfTokens(scan, cut.firstOfTail, run.last, 'expiry', '[EXPIRY]'));
      } else {
        scan.spans.push(spanOfTokens(scan, cut.firstOfTail, run.last, 'cvc', '[CVC]'));
      }
    }
    return true;
  }
  return false;
}

const MONTHS = wordTable({
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sep: 9,
  sept: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
});
const ORDINALS = new Set([
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
  'thirtieth',
]);
/** Words that may sit inside a said date without ending it. */
const DATE_GLUE = new Set(['of', 'the', 'and', 'slash']);
const DATE_PUNCT = new Set(['/', '-', '.', ',']);

function isDateCore(t: Token): boolean {
  if (t.kind === 'num') return true;
  if (t.kind !== 'word') return false;
  const w = t.lower;
  return (
    MONTHS[w] !== undefined ||
    ORDINALS.has(w) ||
    UNITS[w] !== undefined ||
    TEENS[w] !== undefined ||
    TENS[w] !== undefined ||
    REPEATS[w] !== undefined ||
    w === 'hundred' ||
    w === 'thousand'
  );
}

/**
 * A date said or written from token i on (skipping a few lead-in words): its first and last token,
 * or null. "04/27", "oh four twenty-seven", "April 2027", "the fifth of May, nineteen ninety".
 */
function readDate(tokens: Token[], i: number, leadIn: number): { first: number; last: number } | null {
  const LEAD = new Set([
    'is',
    'it',
    "it's",
    'its',
    'was',
    'on',
    'in',
    'date',
    'the',
    'of',
    'end',
    'um',
    'uh',
    'er',
    'erm',
    'be',
  ]);
  let k = i;
  let skipped = 0;
  while (tokens[k] && skipped < leadIn && !isDateCore(tokens[k]!)) {
    const t = tokens[k]!;
    skipped++;
    // the agent asks, the caller answers: "... and the expiration? Caller: oh nine, twenty-six"
    if (isSpeakerLabel(tokens, k)) {
      k += 2;
      continue;
    }
    if (!(LEAD.has(t.lower) || [':', ',', '-', '.', '?'].includes(t.text))) return null;
    k++;
  }
  if (!tokens[k] || !isDateCore(tokens[k]!)) return null;
  const first = k;
  let last = k;
  let cores = 0;
  while (tokens[k] && k - first < 14) {
    const t = tokens[k]!;
    if (
      isDateCore(t) ||
      (t.kind === 'word' && t.lower.endsWith('th') && TENS[t.lower.replace(/ieth$/, 'y')])
    ) {
      last = k;
      cores++;
    } else if (t.kind === 'word' && /^(twenty|thirty)-?\w*$/.test(t.lower)) {
      last = k;
    } else if (
      DATE_GLUE.has(t.lower) ||
      (t.kind === 'punct' && DATE_PUNCT.has(t.text)) ||
      FILLERS.has(t.lower)
    ) {
      // glue only counts if a date part follows
    } else break;
    k++;
  }
  return cores > 0 ? { first, last } : null;
}

const EXPIRY_WORDS = new Set([
  'expiry',
  'expiration',
  'expires',
  'expire',
  'expiring',
  'exp',
  'expiry’s',
  "expiry's",
]);

function detectExpiryAndCode(scan: Scan): void {
  const { tokens } = scan;
  const cards = scan.spans.filter((s) => s.key === 'card').sort((a, b) => a.start - b.start);
  /** Whether a card was said within 250 characters of this token (binary search: many cards stay linear). */
  const nearCard = (index: number) => {
    const pos = tokens[index]!.start;
    let lo = 0;
    let hi = cards.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cards[mid]!.start < pos) lo = mid + 1;
      else hi = mid;
    }
    const after = cards[lo];
    const before = cards[lo - 1];
    return (
      (after !== undefined && after.start - pos < 250) || (before !== undefined && pos - before.end < 250)
    );
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // Expiry: after an expiry word, or "valid until/through", or "good thru", next to a card.
    let after = -1;
    if (EXPIRY_WORDS.has(t.lower)) after = i + 1;
    else if (
      (t.lower === 'valid' || t.lower === 'good') &&
      /^(until|thru|through|till)$/.test(tokens[i + 1]?.lower ?? '')
    )
      after = i + 2;
    if (after >= 0 && nearCard(i)) {
      const date = readDate(tokens, after, 4);
      if (date) scan.spans.push(spanOfTokens(scan, date.first, date.last, 'expiry', '[EXPIRY]'));
    }
    // Security code: named ("CVV", "security code", "code on the back", "three digits on the back").
    // "the code is 314" right after a card: its code too
    const named = codePhraseEnd(tokens, i);
    const codeEnd = named < 0 && t.lower === 'code' && nearCard(i) ? i : named;
    if (codeEnd >= 0) {
      const run = nextRun(scan, codeEnd + 1, 6);
      if (run && (run.digits.length === 3 || run.digits.length === 4))
        scan.spans.push(runSpan(scan, run, 'cvc', '[CVC]'));
    }
  }
  // "... and 123 on the back": a code named after it is said, next to a card
  for (const run of scan.runs) {
    if (run.digits.length !== 3 && run.digits.length !== 4) continue;
    const k = run.last + 1;
    if (tokens[k]?.lower !== 'on' || !CARD_SIDES.has(tokens[k + 2]?.lower ?? '')) continue;
    if (tokens[k + 1]?.lower === 'the' && nearCard(run.first))
      scan.spans.push(runSpan(scan, run, 'cvc', '[CVC]'));
  }
  // A card followed straight away by "04/27" or by a short code: its expiry / code without a word.
  if (cards.length === 0) return;
  const tokenEndingAt = new Map(tokens.map((t, index) => [t.end, index]));
  for (const card of cards) {
    const lastTok = tokenEndingAt.get(card.end) ?? -1;
    if (lastTok < 0) continue;
    let k = lastTok + 1;
    while (
      tokens[k] &&
      (tokens[k]!.text === ',' ||
        tokens[k]!.text === '.' ||
        FILLERS.has(tokens[k]!.lower) ||
        tokens[k]!.lower === 'and')
    )
      k++;
    const a = tokens[k];
    const slash = tokens[k + 1];
    const b = tokens[k + 2];
    if (
      a?.kind === 'num' &&
      slash?.text === '/' &&
      b?.kind === 'num' &&
      isMonth2(a.text.padStart(2, '0')) &&
      a.text.length <= 2
    ) {
      scan.spans.push(spanOfTokens(scan, k, k + 2, 'expiry', '[EXPIRY]'));
      let m = k + 3;
      while (
        tokens[m] &&
        (tokens[m]!.text === ',' || tokens[m]!.lower === 'and' || FILLERS.has(tokens[m]!.lower))
      )
        m++;
      const code = scan.runByFirst.get(m);
      if (code && (code.digits.length === 3 || code.digits.length === 4) && code.last - code.first < 6)
        scan.spans.push(runSpan(scan, code, 'cvc', '[CVC]'));
    }
  }
}

/** Where a named security code phrase starting at i ends, or -1. */
// Sets rather than a regex or an array per call: codePhraseEnd runs for every token of every text.
const CODE_NAMES = new Set(['cvv', 'cvc', 'cv2', 'cvv2', 'csc', 'cvn']);
const CODE_WORDS = new Set(['code', 'digits', 'numbers', 'number']);
const CARD_SIDES = new Set(['back', 'reverse', 'front']);

function codePhraseEnd(tokens: Token[], i: number): number {
  const w = tokens[i]!.lower;
  if (CODE_NAMES.has(w)) return i;
  if (w === 'security') {
    const next = tokens[i + 1]?.lower;
    return next === 'code' || next === 'number' ? i + 1 : -1;
  }
  if (w === 'c') {
    const third = tokens[i + 2]?.lower;
    return tokens[i + 1]?.lower === 'v' && (third === 'v' || third === 'c') ? i + 2 : -1;
  }
  // "code on the back", "digits on the back", "number on the back"
  if (CODE_WORDS.has(w)) {
    let k = i + 1;
    if (tokens[k]?.lower === 'on' || tokens[k]?.lower === 'at') k++;
    if (tokens[k]?.lower === 'the') k++;
    if (CARD_SIDES.has(tokens[k]?.lower ?? '')) return k;
  }
  return -1;
}

/** The first run starting within `window` tokens from i, with only small words between. */
function nextRun(scan: Scan, i: number, window: number): NumberRun | null {
  const SMALL = new Set([
    'is',
    'it',
    "it's",
    'its',
    'are',
    'was',
    'the',
    'my',
    'number',
    'code',
    'um',
    'uh',
    'er',
    'erm',
    'that',
    "that's",
    'just',
  ]);
  for (let k = i; k < i + window && k < scan.tokens.length; k++) {
    const run = scan.runByFirst.get(k);
    if (run) return run;
    const t = scan.tokens[k]!;
    if (isSpeakerLabel(scan.tokens, k)) k++;
    else if (!(t.kind === 'punct' || SMALL.has(t.lower))) return null;
  }
  return null;
}

// National IDs: one entry per country; each finds its own spans. Add a country here.

interface NationalIdFormat {
  country: string;
  key: FoundKey;
  label: string;
  find(scan: Scan): void;
}

const SSN_CONTEXT = new Set(['ssn', 'social']);
const NI_CONTEXT_PHRASES = [['national', 'insurance'], ['ni', 'number'], ['nino']];

function validSsn(d: string): boolean {
  if (d.length !== 9) return false;
  const area = d.slice(0, 3);
  const group = d.slice(3, 5);
  const serial = d.slice(5);
  return area !== '000' && area !== '666' && area[0] !== '9' && group !== '00' && serial !== '0000';
}

export const NATIONAL_ID_FORMATS: NationalIdFormat[] = [
  {
    country: 'US',
    key: 'ssn',
    label: '[SSN]',
    find(scan) {
      for (const run of scan.runs) {
        const before = wordsBefore(scan.tokens, run.first, 6);
        if (before.includes('insurance')) continue; // "social insurance number": Canada's, not an SSN
        const named =
          hasContext(scan.tokens, run.first, 6, SSN_CONTEXT) ||
          wordsBefore(scan.tokens, run.first, 6).join(' ').includes('s s n');
        const shape = run.groups.map((g) => g.length).join('-');
        if (run.digits.length === 9 && (named || (shape === '3-2-4' && validSsn(run.digits))))
          scan.spans.push(runSpan(scan, run, 'ssn', '[SSN]'));
        // "the last four of my social are 6789"
        else if (run.digits.length === 4 && named && wordsBefore(scan.tokens, run.first, 8).includes('last'))
          scan.spans.push(runSpan(scan, run, 'ssn', '[SSN]'));
      }
    },
  },
  {
    country: 'GB',
    key: 'ni',
    label: '[NI]',
    find(scan) {
      const { tokens } = scan;
      const named = (i: number) => {
        const before = wordsBefore(tokens, i, 8).reverse().join(' ');
        return NI_CONTEXT_PHRASES.some((p) => before.includes(p.join(' ')));
      };
      for (const run of scan.runs) {
        if (run.digits.length !== 6) continue;
        // two prefix letters before the digits: "AB", or spelled "A B"
        let prefix = '';
        let firstTok = run.first - 1;
        const b1 = tokens[firstTok];
        if (b1?.kind === 'word' && b1.text.length === 2) prefix = b1.text;
        else if (
          b1?.kind === 'word' &&
          b1.text.length === 1 &&
          tokens[firstTok - 1]?.kind === 'word' &&
          tokens[firstTok - 1]!.text.length === 1
        ) {
          firstTok--;
          prefix = tokens[firstTok]!.text + b1.text;
        } else continue;
        const isNamed = named(firstTok);
        if (!isNamed && prefix !== prefix.toUpperCase()) continue;
        const up = prefix.toUpperCase();
        const validPrefix =
          /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]$/.test(up) &&
          !['BG', 'GB', 'NK', 'KN', 'TN', 'NT', 'ZZ'].includes(up);
        if (!isNamed && !validPrefix) continue;
        let lastTok = run.last;
        const gap = tokens[run.last + 1]?.text === ',' ? 1 : 0;
        const suffix = tokens[run.last + 1 + gap];
        if (suffix?.kind === 'word' && suffix.text.length === 1 && /^[A-Da-d]$/.test(suffix.text))
          lastTok += 1 + gap;
        else if (!isNamed) continue;
        scan.spans.push(spanOfTokens(scan, firstTok, lastTok, 'ni', '[NI]'));
      }
    },
  },
  {
    // Canada's Social Insurance Number: nine digits passing the Luhn check, never starting 0 or 8;
    // said after "social insurance" / "SIN", or written 3-3-3 (a phone is 3-3-4).
    country: 'CA',
    key: 'nationalId',
    label: '[NATIONAL_ID]',
    find(scan) {
      for (const run of scan.runs) {
        if (run.digits.length !== 9) continue;
        const before = wordsBefore(scan.tokens, run.first, 6);
        const named =
          before.join(' ').includes('insurance social') ||
          scan.tokens.slice(Math.max(0, run.first - 6), run.first).some((t) => t.text === 'SIN');
        const shaped = run.groups.map((g) => g.length).join('-') === '3-3-3';
        if ((named || (shaped && luhnValid(run.digits))) && !/^[08]/.test(run.digits))
          scan.spans.push(runSpan(scan, run, 'nationalId', '[NATIONAL_ID]'));
      }
    },
  },
];

function detectNationalIds(scan: Scan): void {
  const countries = new Set(['US', 'GB', ...scan.options.nationalIdCountries.map((c) => c.toUpperCase())]);
  for (const format of NATIONAL_ID_FORMATS) if (countries.has(format.country)) format.find(scan);
}

// E-mails

// Written addresses are found from each "@" outwards (a regex scanning for the local part first
// would retry from every character of a long digit string: quadratic).
const EMAIL_LOCAL_CHAR = /[\p{L}\d._%+-]/u;
const EMAIL_DOMAIN_RE = /^ ?[\p{L}\d-]+(?:\.[\p{L}\d-]+)+/u;
const TLDS = new Set([
  'com',
  'net',
  'org',
  'co',
  'uk',
  'io',
  'us',
  'ca',
  'au',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'ie',
  'nz',
  'edu',
  'gov',
  'info',
  'biz',
  'me',
  'mail',
  'email',
  'ai',
  'app',
  'dev',
  'uk',
]);
const EMAIL_JOINERS = wordTable({
  dot: true,
  period: true,
  underscore: true,
  dash: true,
  hyphen: true,
});
const NOT_LOCAL = new Set([
  'is',
  'it',
  "it's",
  'its',
  'me',
  'my',
  'email',
  'address',
  'at',
  'the',
  'send',
  'to',
  'was',
  'and',
  'or',
  'um',
  'uh',
  // "I work at acme dot com": a word that says where someone is, not whose address
  'work',
  'works',
  'worked',
  'working',
  'live',
  'lives',
  'lived',
  'am',
  'are',
  'be',
  'been',
  'were',
  'i',
  'we',
  'you',
  'he',
  'she',
  'they',
  'us',
  'them',
  'him',
  'here',
  'there',
  'look',
  'looking',
  'shop',
  'bought',
  'online',
  'website',
  'site',
  'page',
]);

function detectEmails(scan: Scan): void {
  const { text } = scan;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    const localEnd = text[at - 1] === ' ' ? at - 1 : at;
    let start = localEnd;
    while (start > 0 && localEnd - start < 64 && EMAIL_LOCAL_CHAR.test(text[start - 1]!)) start--;
    if (start === localEnd) continue;
    const domain = EMAIL_DOMAIN_RE.exec(text.slice(at + 1, at + 256));
    if (!domain) continue;
    let end = at + 1 + domain[0].length;
    while (text[end - 1] === '-') end--;
    scan.spans.push({ start, end, key: 'email', label: '[EMAIL]' });
  }
  const { tokens } = scan;
  for (let i = 1; i < tokens.length; i++) {
    if (tokens[i]!.lower !== 'at') continue;
    // domain: word (dot word)* ending with a known TLD, or a written "gmail.com"
    let k = i + 1;
    let end = -1;
    const d = tokens[k];
    if (d?.kind !== 'word' || NOT_LOCAL.has(d.lower)) continue;
    k++;
    // "mark jones law dot com": a domain said as words
    for (let extra = 0; extra < 2 && tokens[k]?.kind === 'word' && tokens[k]!.lower !== 'dot'; extra++) {
      if (NOT_LOCAL.has(tokens[k]!.lower)) break;
      k++;
    }
    for (;;) {
      const joiner = tokens[k];
      const part = tokens[k + 1];
      if (
        joiner &&
        part?.kind === 'word' &&
        (joiner.lower === 'dot' || (joiner.text === '.' && joiner.start === tokens[k - 1]!.end))
      ) {
        if (TLDS.has(part.lower)) end = k + 1;
        k += 2;
      } else break;
    }
    if (end < 0) continue;
    // local part, walking back: words joined by "dot"/"underscore", or letters spelled one by one
    let first = i;
    let j = tokens[i - 1]?.text === ',' ? i - 2 : i - 1; // "greg, at fastmail dot com"
    const localOk = (t: Token | undefined) =>
      t !== undefined && (t.kind === 'word' || t.kind === 'num') && !NOT_LOCAL.has(t.lower);
    if (!localOk(tokens[j])) continue;
    // Letters spelled one by one ("j o h n"): the run may also end a part before a joiner ("j o h n
    // dot smith at …"), so it is re-read after each joiner.
    let spelled = tokens[j]!.text.length === 1;
    first = j;
    j--;
    let nameBeforeDigits = false;
    for (;;) {
      const t = tokens[j];
      if (!t) break;
      // "jones eighty-four", "smith 42": a name and its digits
      if (
        !spelled &&
        !nameBeforeDigits &&
        localOk(t) &&
        !EMAIL_JOINERS[t.lower] &&
        !readDigitItem(tokens, j) &&
        readDigitItem(tokens, first)
      ) {
        nameBeforeDigits = true;
        first = j;
        j--;
        continue;
      }
      if (
        (EMAIL_JOINERS[t.lower] || t.text === '.' || t.text === '_' || t.text === '-') &&
        localOk(tokens[j - 1])
      ) {
        first = j - 1;
        j -= 2;
        spelled = tokens[first]!.text.length === 1;
      } else if (
        spelled &&
        t.text.length === 1 &&
        (t.kind === 'word' || t.kind === 'num') &&
        !['a', 'i'].includes(t.text)
      ) {
        first = j;
        j--;
      } else if (spelled && t.kind === 'num') {
        first = j;
        j--;
      } else break;
    }
    scan.spans.push(spanOfTokens(scan, first, end, 'email', '[EMAIL]'));
  }
}

// Phones

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

function detectPhones(scan: Scan): void {
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
        ['US', 'GB'].some((c) => isValidPhoneNumber(run.digits, c as 'US' | 'GB'));
    if (phone) scan.spans.push(runSpan(scan, run, 'phone', '[PHONE]'));
  }
}

// Dates of birth

function detectBirthDates(scan: Scan): void {
  const { tokens } = scan;
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]!.lower.replace(/['’]s$/, '');
    let after = -1;
    if (w === 'birth' && (tokens[i - 1]?.lower === 'of' || tokens[i + 1]?.lower === 'date'))
      after = tokens[i + 1]?.lower === 'date' ? i + 2 : i + 1;
    else if (w === 'dob' || w === 'birthdate' || w === 'birthday') after = i + 1;
    else if (
      w === 'd' &&
      tokens[i + 1]?.text === '.' &&
      tokens[i + 2]?.lower === 'o' &&
      tokens[i + 4]?.lower === 'b'
    )
      after = i + 5;
    else if (w === 'born') after = i + 1;
    if (after < 0) continue;
    const date = readDate(tokens, after, 4);
    if (!date) continue;
    // "born in 3 days"? a date needs a month, a year or a day-month form
    const said = tokens.slice(date.first, date.last + 1);
    const digits = said
      .filter((t) => t.kind === 'num')
      .map((t) => t.text.replace(/\D/g, ''))
      .join('');
    const hasMonth = said.some((t) => MONTHS[t.lower] !== undefined);
    const spokenCount = said.filter((t) => isDateCore(t)).length;
    if (!hasMonth && digits.length < 4 && spokenCount < 3) continue;
    scan.spans.push(spanOfTokens(scan, date.first, date.last, 'dob', '[DOB]'));
  }
}

// Street addresses

const STREET_SUFFIXES = new Set([
  'street',
  'st',
  'road',
  'rd',
  'avenue',
  'ave',
  'lane',
  'ln',
  'drive',
  'dr',
  'boulevard',
  'blvd',
  'court',
  'ct',
  'place',
  'pl',
  'way',
  'close',
  'crescent',
  'terrace',
  'gardens',
  'square',
  'sq',
  'parkway',
  'pkwy',
  'highway',
  'hwy',
  'circle',
  'grove',
  'row',
  'walk',
  'mews',
  'trail',
  'parade',
]);
const NOT_STREET_NAME = new Set([
  'the',
  'a',
  'an',
  'on',
  'in',
  'at',
  'to',
  'my',
  'your',
  'our',
  'his',
  'her',
  'their',
  'down',
  'up',
  'this',
  'that',
  'of',
  'and',
  'or',
  'is',
  'was',
  'for',
  'from',
  'near',
  'by',
  'off',
  'minutes',
  'hours',
  'days',
  'blocks',
  'miles',
  'times',
  'people',
  'items',
  'cars',
  'stores',
  'hundred',
  'thousand',
  'million',
]);
const UNIT_WORDS = new Set(['flat', 'apartment', 'apt', 'unit', 'suite', 'number', 'no']);
const UK_POSTCODE_RE = /\b[A-Z]{1,2}\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2}\b/g;

function detectAddresses(scan: Scan): void {
  const { tokens } = scan;
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!STREET_SUFFIXES.has(t.lower)) continue;
    let j = i - 1;
    let names = 0;
    while (j >= 0 && names < 4) {
      // "123 N. Main St.": the full stop of an initial
      if (tokens[j]!.text === '.' && tokens[j - 1]?.kind === 'word' && tokens[j - 1]!.text.length === 1) j--;
      const n = tokens[j]!;
      if (n.kind !== 'word' || NOT_STREET_NAME.has(n.lower) || readDigitItem(tokens, j)) break;
      if (n.text[0] === n.lower[0] && scan.hasCapitals) break; // a transcript with capitals writes street names so
      names++;
      j--;
    }
    if (names === 0) continue;
    const run = scan.runByLast.get(j);
    if (!run || run.digits.length > 5) continue;
    let first = run.first;
    // "flat 4, 12 High Road": the flat or unit number goes too
    const b = tokens[first - 1];
    if (b && UNIT_WORDS.has(b.lower)) first--;
    let last = i;
    // "... Street, apartment 4B"
    let k = i + 1;
    if (tokens[k]?.text === '.') {
      last = k;
      k++;
    }
    if (tokens[k]?.text === ',') k++;
    if (tokens[k] && UNIT_WORDS.has(tokens[k]!.lower) && tokens[k + 1]) {
      const unitRun = scan.runByFirst.get(k + 1);
      if (unitRun) last = unitRun.last;
      else if (tokens[k + 1]!.text.length <= 3) last = k + 1;
    }
    if (tokens[last]?.text === '.') last--;
    scan.spans.push(spanOfTokens(scan, first, last, 'address', '[ADDRESS]'));
  }
  for (const m of scan.text.matchAll(UK_POSTCODE_RE)) {
    const start = m.index ?? 0;
    scan.spans.push({ start, end: start + m[0].length, key: 'address', label: '[ADDRESS]' });
  }
}

// ---------------------------------------------------------------------------------------------

const UUID_IN_TEXT_RE = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

const NO_KEEPS: [number, number][] = [];

/** The findings in one text that stay once overlaps are settled, in order, never overlapping. */
function findSpans(
  text: string,
  options: RedactionOptions,
  extra: Span[] = [],
): { spans: Span[]; keeps: [number, number][] } {
  const tokens = tokenize(text);
  const runs = findRuns(tokens, text);
  const scan: Scan = {
    text,
    tokens,
    runs,
    runByFirst: new Map(runs.map((r) => [r.first, r])),
    runByLast: new Map(runs.map((r) => [r.last, r])),
    options,
    spans: extra.length > 0 ? [...extra] : [],
    hasCapitals: /\p{Lu}/u.test(text),
  };
  let keeps: [number, number][] = NO_KEEPS;
  for (const run of runs)
    if (run.keeps) keeps = keeps === NO_KEEPS ? [...run.keeps] : [...keeps, ...run.keeps];
  if (options.cards) {
    detectCards(scan);
    detectCardsInside(scan);
    detectSeparatedCards(scan);
    detectExpiryAndCode(scan);
  }
  if (options.nationalIds) detectNationalIds(scan);
  if (options.emails) detectEmails(scan);
  if (options.phones) detectPhones(scan);
  if (options.dates) detectBirthDates(scan);
  if (options.addresses) detectAddresses(scan);
  if (scan.spans.length === 0) return { spans: [], keeps };
  // An id written in the text (a UUID, whatever its digits) is never a caller's number.
  const ids = [...text.matchAll(UUID_IN_TEXT_RE)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length]);
  if (ids.length > 0)
    scan.spans = scan.spans.filter((sp) => !ids.some(([a, b]) => sp.start < b! && sp.end > a!));

  // Of overlapping findings the strongest stays (then the longer): one sweep from the left, each
  // finding compared with the last one kept (kept ones never overlap, so that is the only one).
  const stronger = (a: Span, b: Span) =>
    PRIORITY[a.key] - PRIORITY[b.key] || a.end - a.start - (b.end - b.start) || b.start - a.start;
  const kept: Span[] = [];
  for (const s of [...scan.spans].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = kept[kept.length - 1];
    if (!last || s.start >= last.end) kept.push(s);
    else if (stronger(s, last) > 0) kept[kept.length - 1] = s;
  }
  return { spans: kept, keeps };
}

/**
 * The text with each finding replaced by its label, counted into `found`. A speaker's label
 * inside a finding (a number carried on into the same speaker's next line) stays, with the digits
 * on each side of it labelled.
 */
function writeSpans(text: string, spans: Span[], keeps: [number, number][], found: RedactionFound): string {
  let out = '';
  let at = 0;
  let k = 0;
  for (const s of spans) {
    out += text.slice(at, s.start);
    while (k < keeps.length && keeps[k]![0] < s.start) k++;
    while (k < keeps.length && keeps[k]![1] <= s.end) {
      out += s.label + text.slice(keeps[k]![0], keeps[k]![1]);
      k++;
    }
    out += s.label;
    at = s.end;
    if (s.uncounted) continue;
    found[s.key]++;
    if (s.key === 'card' && s.luhn) found.cardLuhnValid++;
  }
  return out + text.slice(at);
}

/** Redacts one text with the client's chosen categories. */
export function redactText(text: string, options: RedactionOptions): RedactionResult {
  const found = emptyFound();
  if (!text) return { text, found };
  const { spans, keeps } = findSpans(text, options);
  if (spans.length === 0) return { text, found };
  return { text: writeSpans(text, spans, keeps, found), found };
}

const EPOCH_MS_RE = /^1\d{12}$/;
/** An id as a payload field on its own (a call's, a customer's): never something a caller said. */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Texts already redacted with one set of options, by text. One call carries the same words more
 * than once (the transcript's turns again in the provider's payload, the summary in its insights
 * and its payload): kept for the call's redaction, each is scanned once (redaction was
 * a sixth of a sync's time). Never kept across calls: texts are callers' words.
 */
export type RedactionMemo = Map<string, RedactionResult>;

/** redactText, answered from `memo` when this text was redacted before with the same options. */
export function redactTextOnce(
  text: string,
  options: RedactionOptions,
  memo?: RedactionMemo,
): RedactionResult {
  if (!memo) return redactText(text, options);
  let result = memo.get(text);
  if (!result) {
    result = redactText(text, options);
    memo.set(text, result);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// A number carried across two lines of the same speaker

const CARDS_ONLY: RedactionOptions = {
  cards: true,
  nationalIds: false,
  emails: false,
  phones: false,
  dates: false,
  addresses: false,
  nationalIdCountries: [],
};

/** Whether a line ends with a digit, written or said (only then can a number go on in the next). */
function endsWithNumber(text: string): boolean {
  const tokens = tokenize(text.slice(-64));
  for (let k = tokens.length - 1; k >= 0; k--) {
    const t = tokens[k]!;
    if (t.kind === 'punct' || FILLERS.has(t.lower)) continue;
    if (t.kind === 'num') return /^\d+$/.test(t.text);
    return UNITS[t.lower] !== undefined || TEENS[t.lower] !== undefined || TENS[t.lower] !== undefined;
  }
  return false;
}

function startsWithNumber(text: string): boolean {
  const tokens = tokenize(text.slice(0, 64));
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === 'punct' || FILLERS.has(t.lower)) continue;
    return readDigitItem(tokens, k) !== null;
  }
  return false;
}

/** A line redacted again with a card carried over from or into a neighbour, and what that changed. */
export interface TurnFix {
  text: string;
  /** Found in the fixed line minus found in the line redacted alone. */
  delta: RedactionFound;
}

/**
 * Cards a caller read across two or more lines in a row ("number 4000 0566" / "5566 5556 done"):
 * each line is redacted alone elsewhere; this joins the lines of a speaker that end and start with
 * digits, looks for cards in the joined text, and answers the lines a card crosses, redacted with
 * their piece of it (the card counted once). A card across lines must pass the Luhn check and have
 * a scheme's prefix: two numbers said in two breaths are not one card by chance. Lines without a
 * speaker never join.
 */
export function crossTurnFixes(
  texts: readonly string[],
  speakers: readonly (string | null)[],
  options: RedactionOptions,
  memo?: RedactionMemo,
): Map<number, TurnFix> {
  const fixes = new Map<number, TurnFix>();
  if (!options.cards || texts.length < 2) return fixes;
  const joins = (k: number) =>
    speakers[k] != null &&
    speakers[k] === speakers[k + 1] &&
    endsWithNumber(texts[k]!) &&
    startsWithNumber(texts[k + 1]!);
  for (let a = 0; a < texts.length - 1; ) {
    let b = a;
    while (b + 1 < texts.length && joins(b)) b++;
    if (b > a) fixBlock(texts, a, b, options, memo, fixes);
    a = b + 1;
  }
  return fixes;
}

function fixBlock(
  texts: readonly string[],
  a: number,
  b: number,
  options: RedactionOptions,
  memo: RedactionMemo | undefined,
  fixes: Map<number, TurnFix>,
): void {
  const offsets: number[] = [];
  let joined = '';
  for (let k = a; k <= b; k++) {
    if (k > a) joined += '\n';
    offsets.push(joined.length);
    joined += texts[k]!;
  }
  const lineAt = (pos: number) => {
    let k = offsets.length - 1;
    while (k > 0 && offsets[k]! > pos) k--;
    return k;
  };
  const pieces = new Map<number, Span[]>();
  for (const span of findSpans(joined, CARDS_ONLY).spans) {
    if (span.key !== 'card' || !span.digits || !isCardShaped(span.digits)) continue;
    const x = lineAt(span.start);
    const y = lineAt(span.end - 1);
    if (x === y) continue;
    for (let k = x; k <= y; k++) {
      const text = texts[a + k]!;
      let start = Math.max(span.start - offsets[k]!, 0);
      let end = Math.min(span.end - offsets[k]!, text.length);
      while (start < end && /\s/.test(text[start]!)) start++;
      while (end > start && /\s/.test(text[end - 1]!)) end--;
      if (end <= start) continue;
      const piece: Span = { start, end, key: 'card', label: '[CARD]', luhn: true, uncounted: k !== x };
      pieces.set(a + k, [...(pieces.get(a + k) ?? []), piece]);
    }
  }
  for (const [k, more] of pieces) {
    const text = texts[k]!;
    const alone = redactTextOnce(text, options, memo).found;
    const { spans, keeps } = findSpans(text, options, more);
    const found = emptyFound();
    const fixed = writeSpans(text, spans, keeps, found);
    for (const key of Object.keys(found) as (keyof RedactionFound)[]) found[key] -= alone[key];
    fixes.set(k, { text: fixed, delta: found });
  }
}

// ---------------------------------------------------------------------------------------------
// JSON values

/** A value that is only labels already (a payload redacted before): nothing left to find. */
const ONLY_LABELS_RE = /^(?:\s*\[[A-Z_]+\]\s*)+$/;

const CARD_KEY_REST = new Set(['number', 'num', 'no', 'nr', 'credit', 'debit', 'full', 'payment', 'digits']);
const CODE_KEY_WORDS = new Set(['cvv', 'cvc', 'cvv2', 'cvc2', 'csc', 'cvn']);
const EXPIRY_KEY_WORDS = new Set(['exp', 'expiry', 'expiration', 'expires']);
const SECRET_KEY_HINT_RE = /card|pan|iban|cv|csc|ssn|social|insurance|nino|national|sin|security|cc/i;
const secretKeyCache = new Map<string, Secret | null>();

interface Secret {
  key: FoundKey;
  label: string;
}

/**
 * What a JSON key names, when it names a secret: a card (`card`, `cardNumber`, `pan`, `iban`),
 * its code (`cvv`, `securityCode`) or expiry (`cardExpiry`), a national ID (`ssn`, `nino`,
 * `nationalId`, `sin`). Its value is then redacted whatever it looks like ("739" is no card by its
 * digits): the key says what it is. Words are read from camelCase, snake_case and kebab-case.
 */
function secretOfKey(key: string): Secret | null {
  if (!SECRET_KEY_HINT_RE.test(key)) return null;
  const cached = secretKeyCache.get(key);
  if (cached !== undefined) return cached;
  const words = key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter(Boolean);
  const has = (w: string) => words.includes(w);
  let secret: Secret | null = null;
  const cardWord = has('card') || has('cc') || has('creditcard') || has('debitcard');
  if (words.some((w) => CODE_KEY_WORDS.has(w)) || (has('security') && has('code')))
    secret = { key: 'cvc', label: '[CVC]' };
  else if (cardWord && words.some((w) => EXPIRY_KEY_WORDS.has(w)))
    secret = { key: 'expiry', label: '[EXPIRY]' };
  else if (
    has('pan') ||
    has('iban') ||
    has('cardnumber') ||
    has('ccnumber') ||
    (cardWord &&
      words.every((w) => w === 'card' || w === 'cc' || CARD_KEY_REST.has(w)) &&
      (has('card') || words.length > 1))
  )
    secret = { key: 'card', label: '[CARD]' };
  else if (has('ssn') || (has('social') && has('security'))) secret = { key: 'ssn', label: '[SSN]' };
  else if (has('nino') || (has('national') && has('insurance'))) secret = { key: 'ni', label: '[NI]' };
  else if (has('sin') || (has('national') && has('id')) || (has('social') && has('insurance')))
    secret = { key: 'nationalId', label: '[NATIONAL_ID]' };
  if (secretKeyCache.size > 10_000) secretKeyCache.clear(); // keys come from payloads: bounded
  secretKeyCache.set(key, secret);
  return secret;
}

function secretOn(secret: Secret | null, options: RedactionOptions): Secret | null {
  if (!secret) return null;
  const category =
    secret.key === 'card' || secret.key === 'cvc' || secret.key === 'expiry' ? 'cards' : 'nationalIds';
  return options[category] ? secret : null;
}

/**
 * Whether a JSON number is a card sent as a number (`"pan": 5555555555554444`). Past 2^53 the
 * digits sent are already lost to the parser's rounding, so there the scheme's prefix and length
 * decide alone.
 */
function isCardNumberValue(n: number): boolean {
  if (!Number.isInteger(n) || n < 1e12 || n >= 1e19) return false;
  if (Number.isSafeInteger(n)) return isCardShaped(String(n));
  return hasCardPrefix(BigInt(n).toString());
}

/** Fields a transcript's line keeps its words and its speaker in, across the providers' payloads. */
const TURN_TEXT_FIELDS = ['text', 'message', 'content'];
const TURN_SPEAKER_FIELDS = ['role', 'user', 'speaker_label', 'speaker'];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Redacts every string inside a JSON value (stored provider payloads, variables, analysis),
 * keeping keys and the shape. Besides the texts: a number that is a card (by its scheme and the
 * Luhn check) becomes `"[CARD]"`; a value under a key naming a secret (secretOfKey) becomes that
 * secret's label, whatever its type; an array of transcript lines (`{role, text}`,
 * `{role, message}`, `{user, text}`) has the cards carried across a speaker's lines found
 * (crossTurnFixes). Booleans and null pass unchanged. `found` is added into.
 */
export function redactValue(
  value: unknown,
  options: RedactionOptions,
  found: RedactionFound = emptyFound(),
  memo?: RedactionMemo,
): { value: unknown; found: RedactionFound } {
  const add = (more: RedactionFound) => {
    for (const key of Object.keys(found) as (keyof RedactionFound)[]) found[key] += more[key];
  };
  const walk = (v: unknown, secret: Secret | null): unknown => {
    if (typeof v === 'string') {
      if (secret && v.trim() !== '' && !ONLY_LABELS_RE.test(v)) {
        found[secret.key]++;
        return secret.label;
      }
      // A provider's epoch-milliseconds timestamp written as a string ("1764239999000", 2001 to
      // 2033) is 13 digits too; no card number is sent as a payload field on its own like that.
      if (EPOCH_MS_RE.test(v) || UUID_RE.test(v)) return v;
      const r = redactTextOnce(v, options, memo);
      add(r.found);
      return r.text;
    }
    if (typeof v === 'number') {
      if (secret) {
        found[secret.key]++;
        return secret.label;
      }
      if (options.cards && isCardNumberValue(v)) {
        found.card++;
        found.cardLuhnValid++;
        return '[CARD]';
      }
      return v;
    }
    if (Array.isArray(v)) {
      const out = v.map((item) => walk(item, secret));
      if (!secret) carryAcrossTurns(v, out);
      return out;
    }
    if (isRecord(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v))
        out[k] = walk(inner, secretOn(secretOfKey(k), options) ?? secret);
      return out;
    }
    return v;
  };
  const carryAcrossTurns = (lines: unknown[], out: unknown[]) => {
    if (!options.cards || lines.length < 2) return;
    const texts: string[] = [];
    const speakers: (string | null)[] = [];
    const fields: (string | undefined)[] = [];
    for (const line of lines) {
      const field = isRecord(line) ? TURN_TEXT_FIELDS.find((f) => typeof line[f] === 'string') : undefined;
      const speaker =
        field && isRecord(line)
          ? TURN_SPEAKER_FIELDS.map((f) => line[f]).find(
              (s) => typeof s === 'string' || typeof s === 'number',
            )
          : undefined;
      fields.push(field);
      texts.push(field && isRecord(line) ? (line[field] as string) : '');
      speakers.push(speaker === undefined ? null : String(speaker));
    }
    for (const [k, fix] of crossTurnFixes(texts, speakers, options, memo)) {
      const line = out[k];
      const field = fields[k];
      if (!isRecord(line) || !field || secretOfKey(field)) continue;
      line[field] = fix.text;
      add(fix.delta);
    }
  };
  return { value: walk(value, null), found };
}
