/**
 * `npx tsx scripts/check-casts.ts [paths…]`: the house rule "an `as` needs a comment saying why the
 * compiler cannot know" (AGENTS.md), checked. Finds every type assertion (`x as T`, `<T>x`) in the
 * given files or folders (default `src`), skipping `*.test.ts(x)` and `as const`, and reports each
 * one with no comment on its own line or in the comment block directly above that line (or above
 * the run of consecutive cast lines it is in). A double cast (`x as unknown as T`) is one cast.
 * Prints file:line, then the unexplained count per folder; exits 1 when any cast is unexplained.
 *
 * It reads syntax only (no type checking), so it runs in a second. It cannot tell a good reason
 * from a bad one: a reviewer reads the comment; this only makes sure there is one to read.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

export interface Cast {
  file: string;
  /** 1-based. */
  line: number;
  text: string;
  explained: boolean;
}

const SOURCE = /\.(ts|tsx|mts|cts)$/;
const TEST = /\.test\.(ts|tsx|mts|cts)$/;

function sourceFiles(entry: string): string[] {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return SOURCE.test(entry) && !TEST.test(entry) ? [entry] : [];
  return readdirSync(entry)
    .filter((name) => name !== 'node_modules' && !name.startsWith('.'))
    .sort()
    .flatMap((name) => sourceFiles(path.join(entry, name)));
}

function isAsConst(node: ts.AssertionExpression): boolean {
  return (
    ts.isTypeReferenceNode(node.type) &&
    ts.isIdentifier(node.type.typeName) &&
    node.type.typeName.text === 'const'
  );
}

/** A comment with words in it; `//` alone or a bare `/* *\/` explains nothing. */
function hasWords(comment: string): boolean {
  return /[A-Za-z]{2,}/.test(comment.replace(/^\/[/*]+|\*+\/$/g, ''));
}

/**
 * The 0-based lines that hold a comment (with words), those that hold only comments, and those that
 * end in a comment (with words). Every comment is leading or trailing trivia of some token of the
 * parsed tree, so strings and template literals that look like comments are never mistaken for them.
 */
function commentLines(source: ts.SourceFile): {
  withComment: Set<number>;
  onlyComment: Set<number>;
  endsInComment: Set<number>;
} {
  const text = source.text;
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const withComment = new Set<number>();
  const endsInComment = new Set<number>();
  const commented = new Set<number>();
  const code = new Set<number>();
  const seen = new Set<number>();
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const words = hasWords(text.slice(range.pos, range.end));
      for (let line = lineOf(range.pos); line <= lineOf(range.end); line++) {
        commented.add(line);
        if (words) withComment.add(line);
      }
      const rest = text.indexOf('\n', range.end);
      if (words && !text.slice(range.end, rest === -1 ? undefined : rest).trim()) {
        endsInComment.add(lineOf(range.end));
      }
    }
  };
  const visit = (node: ts.Node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(source);
    if (children.length > 0 && node.kind !== ts.SyntaxKind.JsxText) {
      for (const child of children) visit(child);
      return;
    }
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    if (node.kind === ts.SyntaxKind.EndOfFileToken) return;
    for (let line = lineOf(node.getStart(source)); line <= lineOf(node.end); line++) code.add(line);
  };
  visit(source);
  const onlyComment = new Set([...commented].filter((line) => !code.has(line)));
  return { withComment, onlyComment, endsInComment };
}

export function findCasts(file: string, text = readFileSync(file, 'utf8')): Cast[] {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;

  const found: { start: number; typeLine: number }[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isAsConst(node)) {
      // The line of the `as T` itself too: for a cast of a multi-line expression it is the last.
      found.push({ start: lineOf(node.getStart(source)), typeLine: lineOf(node.type.getStart(source)) });
      // `x as unknown as T` is one cast: its inner half is not reported again.
      let inner: ts.Expression = node.expression;
      while (ts.isParenthesizedExpression(inner)) inner = inner.expression;
      if (ts.isAsExpression(inner) || ts.isTypeAssertionExpression(inner)) {
        inner.forEachChild(visit);
        return;
      }
    }
    node.forEachChild(visit);
  };
  visit(source);

  const { withComment, onlyComment, endsInComment } = commentLines(source);
  const castLines = new Set(found.flatMap(({ start, typeLine }) => [start, typeLine]));
  /**
   * A comment on this line, or in the comment block ending just above it; one comment block may
   * explain a run of consecutive lines that each hold a cast.
   */
  const explainedAt = (line: number): boolean => {
    if (withComment.has(line)) return true;
    let above = line - 1;
    while (above >= 0 && castLines.has(above) && !onlyComment.has(above)) above--;
    // A comment that ends the line above leads this one (`? // why` as Biome formats a ternary).
    if (endsInComment.has(above) && !castLines.has(above)) return true;
    for (; above >= 0 && onlyComment.has(above); above--) {
      if (withComment.has(above)) return true;
    }
    return false;
  };

  const lines = text.split('\n');
  return found.map(({ start, typeLine }) => ({
    file,
    line: start + 1,
    text: lines[typeLine].trim(),
    explained: explainedAt(start) || explainedAt(typeLine),
  }));
}

/** src/server/providers/voice/x.ts → src/server/providers; src/server/main.ts → src/server. */
export function folderOf(file: string): string {
  const parts = path.relative(process.cwd(), file).split(path.sep);
  return parts.slice(0, Math.min(parts.length - 1, 3)).join('/') || '.';
}

function main(args: string[]): number {
  const all = args.includes('--all');
  const roots = args.filter((arg) => !arg.startsWith('--'));
  const files = (roots.length > 0 ? roots : ['src']).flatMap(sourceFiles);
  const casts = files.flatMap((file) => findCasts(file));
  const unexplained = casts.filter((cast) => !cast.explained);

  for (const cast of all ? casts : unexplained) {
    const mark = all ? (cast.explained ? 'ok  ' : 'WHY ') : '';
    console.log(`${mark}${path.relative(process.cwd(), cast.file)}:${cast.line}  ${cast.text}`);
  }

  const perFolder = new Map<string, { unexplained: number; total: number }>();
  for (const cast of casts) {
    const folder = folderOf(cast.file);
    const counts = perFolder.get(folder) ?? { unexplained: 0, total: 0 };
    counts.total += 1;
    if (!cast.explained) counts.unexplained += 1;
    perFolder.set(folder, counts);
  }
  if (casts.length > 0) console.log('');
  const width = Math.max(6, ...[...perFolder.keys()].map((folder) => folder.length));
  const row = (name: string, unexplainedCount: number | string, total: number | string) =>
    console.log(
      `${name.padEnd(width)}  ${String(unexplainedCount).padStart(11)}  ${String(total).padStart(5)}`,
    );
  row('folder', 'unexplained', 'casts');
  for (const [folder, counts] of [...perFolder].sort(([a], [b]) => a.localeCompare(b))) {
    row(folder, counts.unexplained, counts.total);
  }
  row('total', unexplained.length, casts.length);
  return unexplained.length > 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = main(process.argv.slice(2));
}
