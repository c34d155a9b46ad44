/**
 * The call log's search language, parsed once and compiled for each database, so no
 * user text ever reaches SQLite's FTS5 or PostgreSQL's tsquery syntax directly.
 *
 *   refund policy      both words, anywhere in the summary or transcript
 *   "refund policy"    the words side by side
 *   refu*              words starting with "refu"
 *   refund OR return   either word
 *
 * Punctuation separates words, as the indexes do ("e-mail" is the phrase "e mail"). Shared with
 * the browser, so the search box can say what is wrong before asking the server.
 */
import { referenceOf } from './call-reference';

/** A word, or words side by side (a phrase); `prefix` applies to the last word. */
export interface SearchTerm {
  words: string[];
  prefix: boolean;
}

/** Clauses all match; a clause matches when any of its terms does (OR). */
export type SearchQuery = SearchTerm[][];

/**
 * A query's cost is bounded: each term is a doclist to read, and a prefix reads every
 * word starting so. Three letters is also what the SQLite index keeps prefixes of (migration 019),
 * so the shortest prefix is one lookup within the client's entries.
 */
export const MAX_SEARCH_TERMS = 16;
export const MIN_PREFIX_LETTERS = 3;
export const MAX_PREFIX_TERMS = 4;

export const SEARCH_SYNTAX_MESSAGES = {
  unclosedQuote: 'Close the quote: a phrase goes between two double quotes, as in "refund policy"',
  emptyPhrase: 'The quotes hold no words',
  misplacedStar: '* goes at the end of a word, as in refu*',
  shortPrefix: `Put at least ${MIN_PREFIX_LETTERS} letters before *`,
  danglingOr: 'OR goes between two words or phrases, as in refund OR return',
  tooManyTerms: `Search for at most ${MAX_SEARCH_TERMS} words or phrases`,
  tooManyPrefixes: `Search for at most ${MAX_PREFIX_TERMS} words ending in *`,
} as const;

export type SearchParse = { ok: true; query: SearchQuery } | { ok: false; message: string };

const WORD = /[\p{L}\p{N}]+/gu;

/** Splits the text into quoted phrases and bare tokens, keeping `*` with what it follows. */
function tokens(text: string): { value: string; quoted: boolean }[] | string {
  const out: { value: string; quoted: boolean }[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) return SEARCH_SYNTAX_MESSAGES.unclosedQuote;
      let value = text.slice(i + 1, end);
      i = end + 1;
      if (text[i] === '*') {
        value += '*';
        i++;
      }
      out.push({ value, quoted: true });
    } else {
      let j = i;
      while (j < text.length && !/\s/.test(text[j]) && text[j] !== '"') j++;
      out.push({ value: text.slice(i, j), quoted: false });
      i = j;
    }
  }
  return out;
}

function termOf(value: string): SearchTerm | string | null {
  const prefix = value.endsWith('*');
  const body = prefix ? value.slice(0, -1) : value;
  if (body.includes('*')) return SEARCH_SYNTAX_MESSAGES.misplacedStar;
  const words = (body.match(WORD) ?? []).map((w) => w.toLowerCase());
  if (words.length === 0) return prefix ? SEARCH_SYNTAX_MESSAGES.misplacedStar : null;
  if (prefix && words[words.length - 1].length < MIN_PREFIX_LETTERS)
    return SEARCH_SYNTAX_MESSAGES.shortPrefix;
  return { words, prefix };
}

/** Parses what the client typed; an empty query (only punctuation) has no clauses. */
export function parseSearch(text: string): SearchParse {
  const parts = tokens(text);
  if (typeof parts === 'string') return { ok: false, message: parts };
  const clauses: SearchQuery = [];
  let joinNext = false;
  for (const [index, part] of parts.entries()) {
    if (!part.quoted && part.value === 'OR') {
      if (clauses.length === 0 || joinNext || index === parts.length - 1)
        return { ok: false, message: SEARCH_SYNTAX_MESSAGES.danglingOr };
      joinNext = true;
      continue;
    }
    const term = termOf(part.value);
    if (typeof term === 'string') return { ok: false, message: term };
    if (term === null) {
      if (part.quoted) return { ok: false, message: SEARCH_SYNTAX_MESSAGES.emptyPhrase };
      continue;
    }
    if (joinNext) clauses[clauses.length - 1].push(term);
    else clauses.push([term]);
    joinNext = false;
  }
  if (clauses.flat().length > MAX_SEARCH_TERMS)
    return { ok: false, message: SEARCH_SYNTAX_MESSAGES.tooManyTerms };
  if (clauses.flat().filter((t) => t.prefix).length > MAX_PREFIX_TERMS)
    return { ok: false, message: SEARCH_SYNTAX_MESSAGES.tooManyPrefixes };
  return { ok: true, query: clauses };
}

/** FTS5 query text: every word a quoted string, so nothing typed is read as FTS5 syntax. */
export function toFts5(query: SearchQuery): string {
  const term = (t: SearchTerm) => `"${t.words.join(' ')}"${t.prefix ? '*' : ''}`;
  return query
    .map((clause) => (clause.length === 1 ? term(clause[0]) : `(${clause.map(term).join(' OR ')})`))
    .join(' AND ');
}

/** PostgreSQL to_tsquery text: every word a quoted lexeme (words hold only letters and digits). */
export function toTsquery(query: SearchQuery): string {
  const term = (t: SearchTerm) => {
    const lexemes = t.words.map((w, i) => `'${w}'${t.prefix && i === t.words.length - 1 ? ':*' : ''}`);
    return lexemes.length === 1 ? lexemes[0] : `(${lexemes.join(' <-> ')})`;
  };
  return query
    .map((clause) => (clause.length === 1 ? term(clause[0]) : `(${clause.map(term).join(' | ')})`))
    .join(' & ');
}

/** What a search box's text can find: words, a phone number, a call id or reference (any or all of them). */
export interface TextSearch {
  /** The words to find in summaries and transcripts; null when the text holds none. */
  words: SearchQuery | null;
  /** Digits of a phone number (as stored, E.164 without spaces), when the text looks like one. */
  phone: string | null;
  /** The text as a call id, when it could be one. */
  callId: string | null;
  /** The text as a call's reference (call-reference.ts), lower case, when it could be one. */
  reference: string | null;
}

const PHONE = /^\+?[\d\s().-]+$/;
const CALL_ID = /^[\w-]{6,100}$/;

/** Reads what the client typed (the query schema has already refused bad syntax). */
export function textSearchOf(text: string): TextSearch {
  const parsed = parseSearch(text);
  const words = parsed.ok && parsed.query.length > 0 ? parsed.query : null;
  const digits = text.replace(/\D/g, '');
  const phone = PHONE.test(text) && digits.length >= 3 ? text.replace(/[\s().-]/g, '') : null;
  // Ids hold digits, dashes or underscores; a plain word is only a word.
  const callId = CALL_ID.test(text) && /[\d_-]/.test(text) ? text : null;
  return { words, phone, callId, reference: referenceOf(text) };
}

/** Whether results can be ranked best match first: words only, nothing that is also a number or an id. */
export function isRankable(search: TextSearch | null): search is TextSearch & { words: SearchQuery } {
  return !!search?.words && !search.phone && !search.callId && !search.reference;
}
