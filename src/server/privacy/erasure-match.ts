/**
 * Whether a text names an erasure's subject: the one rule the erasure's preview and the erasure
 * itself both apply (erasure.ts), so what is erased is exactly what was shown. Pure, no I/O.
 *
 * An e-mail address matches only whole, in any case: erasing `x@example.com` must not take the
 * calls of `max@example.com`, `alex@example.com.au` or `rex@example.community` (an erasure at the
 * platform cannot be undone). So the address must not follow a character an address can hold, nor
 * be followed by one a domain can hold; a full stop after it ends a sentence unless a domain label
 * follows it. A quote directly after a letter or digit is part of an address (`o'x@example.com` is
 * another person's); after anything else it opens a quotation (`'x@example.com'`).
 *
 * A phone number (E.164) matches its digits written together, not inside a longer run of digits.
 */

export type ErasureSubject = { kind: 'phone'; value: string } | { kind: 'email'; value: string };

/** Escaped for a `u` pattern: there `\-` is allowed inside a class only. */
const escapeText = (value: string) => value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const escapeInClass = (value: string) => value.replace(/[\]\\^-]/g, '\\$&');

/** Characters of an address's local part (RFC 5322 atext and the dot), besides letters and digits. */
const LOCAL_PUNCTUATION = "!#$%&*+/=?^_.~{|}`'-";

/** The pattern of a subject inside free text or JSON. */
export function subjectPattern(subject: ErasureSubject): RegExp {
  if (subject.kind === 'phone') return new RegExp(`(?<!\\d)${subject.value.replace(/^\+/, '')}(?!\\d)`);
  const before = `(?<![\\p{L}\\p{N}${escapeInClass(LOCAL_PUNCTUATION.replace(/['`]/g, ''))}])(?<![\\p{L}\\p{N}]['\`])`;
  const after = '(?![\\p{L}\\p{N}_-])(?!\\.[\\p{L}\\p{N}_-])';
  return new RegExp(`${before}${escapeText(subject.value)}${after}`, 'iu');
}

/**
 * JSON's escapes read as the space they stand for, so `"line\nx@example.com"` as stored still names
 * `x@example.com` (the `n` before it is not part of the address).
 */
const unescapeJson = (text: string) => text.replace(/\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/g, ' ');

/** The matcher of one subject: whether any of these texts (plain or JSON) names it. */
export function subjectMatcher(subject: ErasureSubject): (...texts: (string | null)[]) => boolean {
  const pattern = subjectPattern(subject);
  return (...texts) => texts.some((text) => text !== null && pattern.test(unescapeJson(text)));
}

/**
 * A short excerpt of a text around the subject (or its start when it does not name it), on one
 * line, for the erasure's preview: enough to recognise the call, not its whole conversation.
 */
export function excerptAround(text: string, subject: ErasureSubject, chars = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const found = subjectPattern(subject).exec(flat);
  if (!found) return flat.length > chars * 2 ? `${flat.slice(0, chars * 2)}…` : flat;
  const start = Math.max(0, found.index - chars);
  const end = Math.min(flat.length, found.index + found[0].length + chars);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}
