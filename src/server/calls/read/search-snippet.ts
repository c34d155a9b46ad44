/**
 * The passage of a call that a word search matched, for the call log: cut here rather
 * than by the database, so both databases show the same snippet and the index stores no copy of
 * the text. The words are marked the way the indexes stem them, near enough to show why a call
 * matched: the exact word, its plural and -ed/-ing forms, and for refu* anything starting so.
 */
import type { SnippetPart } from '../../../contract/calls';
import type { SearchQuery } from '../../../contract/search-query';
import { parseTranscript } from '../../../contract/transcript';
import type { CallRow } from '../../db/schema';

const WORDS_BEFORE = 8;
const WORDS_AFTER = 18;
const SUFFIXES = /(ing|ed|es|s|ly|er)$/;

function stem(word: string): string {
  return word.length > 4 ? word.replace(SUFFIXES, '') : word;
}

/** Whether a word of the text matches a searched word. */
function matcher(query: SearchQuery): (word: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const term of query.flat())
    term.words.forEach((w, i) => {
      if (term.prefix && i === term.words.length - 1) prefixes.push(w);
      else exact.add(stem(w));
    });
  return (word) => {
    const w = word.toLowerCase();
    return exact.has(stem(w)) || prefixes.some((p) => w.startsWith(p));
  };
}

/** The text around the first match, the matching words marked; null when the text holds none. */
function passage(text: string, isMatch: (word: string) => boolean): SnippetPart[] | null {
  const words = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  const first = words.findIndex((m) => isMatch(m[0]));
  if (first < 0) return null;
  const startWord = Math.max(0, first - WORDS_BEFORE);
  const endWord = Math.min(words.length - 1, first + WORDS_AFTER);
  // From the text's start when the passage begins with it; to its end (closing punctuation too) when it ends with it.
  const start = startWord === 0 ? 0 : (words[startWord].index ?? 0);
  const last = words[endWord];
  const end = endWord === words.length - 1 ? text.length : (last.index ?? 0) + last[0].length;
  const parts: SnippetPart[] = [];
  const push = (value: string, match: boolean) => {
    if (!value) return;
    const previous = parts[parts.length - 1];
    if (previous && previous.match === match) previous.text += value;
    else parts.push({ text: value, match });
  };
  if (start > 0) push('…', false);
  let at = start;
  for (const m of words.slice(startWord, endWord + 1)) {
    const index = m.index ?? 0;
    if (!isMatch(m[0])) continue;
    push(text.slice(at, index), false);
    push(m[0], true);
    at = index + m[0].length;
  }
  push(text.slice(at, end), false);
  if (end < text.length) push('…', false);
  return parts.map((p) => ({ ...p, text: p.text.replace(/\s+/g, ' ') }));
}

/** The matched passage of a call: from its summary if it matches there, else from its transcript. */
export function snippetOf(
  row: Pick<CallRow, 'summary' | 'transcript'>,
  query: SearchQuery,
): SnippetPart[] | undefined {
  const isMatch = matcher(query);
  const transcript = parseTranscript(row.transcript)
    ?.map((line) => line.text)
    .join(' ');
  for (const text of [row.summary, transcript ?? row.transcript]) {
    const parts = text ? passage(text, isMatch) : null;
    if (parts) return parts;
  }
  return undefined;
}
