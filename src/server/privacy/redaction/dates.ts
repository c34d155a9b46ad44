/**
 * Dates as said or written ("04/27", "oh four twenty-seven", "the fifth of May, nineteen
 * ninety"), read by the cards' expiry and by dates of birth, which are found here: a date after
 * "born", "date of birth", "DOB" (the `dates` category, `[DOB]`).
 */
import { REPEATS, TEENS, TENS, UNITS, wordTable } from '../../access/number-text';
import { type Scan, spanOfTokens } from './scan';
import { FILLERS, isSpeakerLabel, type Token } from './tokens';

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
export function readDate(tokens: Token[], i: number, leadIn: number): { first: number; last: number } | null {
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

export function detectBirthDates(scan: Scan): void {
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
