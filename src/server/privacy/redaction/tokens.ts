/**
 * The text cut into tokens once (numbers, words, marks), and what a transcript writes between the
 * words people say: speakers' labels ("Caller:") and fillers ("um"). Every category reads these
 * tokens; none of them tokenizes again.
 */

export interface Token {
  text: string;
  lower: string;
  start: number;
  end: number;
  kind: 'num' | 'word' | 'punct';
}

// Groups: 1 a number, 2 a word, neither a mark; the kind comes from the match, not a second regex.
const TOKEN_RE = /(\d+(?:st|nd|rd|th)?)|(\p{L}+(?:['’]\p{L}+)*)|[^\s\p{L}\d]/gu;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(TOKEN_RE)) {
    const t = m[0];
    const start = m.index ?? 0;
    const kind = m[1] !== undefined ? 'num' : m[2] !== undefined ? 'word' : 'punct';
    tokens.push({ text: t, lower: t.toLowerCase(), start, end: start + t.length, kind });
  }
  return tokens;
}

export const FILLERS = new Set([
  'um',
  'uh',
  'uhh',
  'umm',
  'uhm',
  'er',
  'erm',
  'ah',
  'hmm',
  'hm',
  'mm',
  'mhm',
]);

/** "Caller:", "Agent:", "User:": a speaker's label in a transcript, at token k. */
export function isSpeakerLabel(tokens: Token[], k: number): boolean {
  return (
    tokens[k]?.kind === 'word' && tokens[k + 1]?.text === ':' && (k === 0 || tokens[k - 1]!.kind === 'punct')
  );
}

/** Words a transcript writes as a speaker's label anywhere in a line ("… done. user: 5566"). */
export const ROLE_WORDS = new Set([
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
export function isTurnLabel(text: string, tokens: Token[], k: number): boolean {
  const t = tokens[k];
  if (t?.kind !== 'word' || tokens[k + 1]?.text !== ':') return false;
  if (k === 0 || tokens[k - 1]!.kind === 'punct' || ROLE_WORDS.has(t.lower)) return true;
  return text.slice(tokens[k - 1]!.end, t.start).includes('\n');
}

export function wordsBefore(tokens: Token[], index: number, count: number): string[] {
  const out: string[] = [];
  for (let k = index - 1; k >= 0 && out.length < count; k--) {
    if (tokens[k]!.kind === 'word') out.push(tokens[k]!.lower);
  }
  return out;
}
