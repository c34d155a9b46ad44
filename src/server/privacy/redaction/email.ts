/**
 * E-mail addresses, written ("jo@example.com") or spoken ("j o h n dot smith at gmail dot com"),
 * labelled `[EMAIL]`. A spoken domain must end with a known top-level domain, and words that say
 * where someone is ("I work at acme dot com") are no address.
 */
import { wordTable } from '../../access/number-text';
import { type Scan, spanOfTokens } from './scan';
import { readDigitItem } from './spoken-numbers';
import type { Token } from './tokens';

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

export function detectEmails(scan: Scan): void {
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
