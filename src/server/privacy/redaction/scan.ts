/**
 * One text being scanned: its tokens and number runs, read once, and the findings the categories
 * add to it, with the helpers that turn tokens and runs into findings. The engine (engine.ts)
 * builds it; each category's detector only reads it and pushes spans.
 */
import type { NumberRun } from './spoken-numbers';
import type { Token } from './tokens';
import type { FoundKey, RedactionOptions, Span } from './types';

export interface Scan {
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

export function spanOfTokens(scan: Scan, first: number, last: number, key: FoundKey, label: string): Span {
  return { start: scan.tokens[first]!.start, end: scan.tokens[last]!.end, key, label };
}

/** Token range of a run's digits, widened to a written "+" or "(" just before it. */
export function runSpan(scan: Scan, run: NumberRun, key: FoundKey, label: string): Span {
  let first = run.first;
  const before = scan.tokens[first - 1];
  if (before && (before.text === '+' || before.text === '(' || before.lower === 'plus')) first--;
  return spanOfTokens(scan, first, run.last, key, label);
}

/**
 * Whether a run's written digits are glued to letters or digits it does not include ("1a259024-
 * 2244-4403-89c9", a UUID whose middle groups happen to be digits): part of an identifier, not a
 * number someone said.
 */
export function gluedToIdentifier(tokens: Token[], run: NumberRun): boolean {
  const first = tokens[run.first]!;
  const last = tokens[run.last]!;
  const before = tokens[run.first - 1];
  const after = tokens[run.last + 1];
  const glued = (a: Token | undefined, b: Token) => a !== undefined && a.kind !== 'punct' && b.kind === 'num';
  return (
    (glued(before, first) && before!.end === first.start) || (glued(after, last) && after!.start === last.end)
  );
}
