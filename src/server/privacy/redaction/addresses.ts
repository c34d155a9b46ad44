/**
 * Street addresses (`[ADDRESS]`): a house number, up to four name words and a street suffix
 * ("12 High Road", "flat 4, 12 High Road", "123 N. Main St., apartment 4B"), and UK postcodes.
 */
import { type Scan, spanOfTokens } from './scan';
import { readDigitItem } from './spoken-numbers';

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

export function detectAddresses(scan: Scan): void {
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
