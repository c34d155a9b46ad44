/**
 * The engine that composes the categories: a text tokenized and its number runs read once, each
 * chosen category's detector run over it, overlapping findings settled (the stronger wins), and
 * the text written back with labels and counts. Also the memo of texts already redacted within
 * one call, and cards a speaker read across two lines in a row. Pure: no I/O.
 */
import { TEENS, TENS, UNITS } from '../../access/number-text';
import { detectAddresses } from './addresses';
import {
  detectCards,
  detectCardsInside,
  detectExpiryAndCode,
  detectSeparatedCards,
  isCardShaped,
} from './cards';
import { detectBirthDates } from './dates';
import { detectEmails } from './email';
import { detectNationalIds } from './identity-numbers';
import { detectPhones } from './phone';
import type { Scan } from './scan';
import { findRuns, readDigitItem } from './spoken-numbers';
import { FILLERS, tokenize } from './tokens';
import {
  emptyFound,
  type FoundKey,
  type RedactionFound,
  type RedactionOptions,
  type RedactionResult,
  type Span,
} from './types';

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
    // Object.keys is string[]; a RedactionFound's keys are its categories
    for (const key of Object.keys(found) as (keyof RedactionFound)[]) found[key] -= alone[key];
    fixes.set(k, { text: fixed, delta: found });
  }
}
