/** The clients table has one gate: a query written elsewhere would bypass its rules unnoticed. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'migrations' ? [] : sourceFiles(file);
    return file.endsWith('.ts') && !file.endsWith('.test.ts') ? [file] : [];
  });
}

describe('the clients table', () => {
  it('is read and written only through clients-repository.ts', () => {
    const outside = sourceFiles(SERVER)
      .filter((file) => !file.endsWith(`clients${path.sep}clients-repository.ts`))
      .filter((file) =>
        /(selectFrom|insertInto|updateTable|deleteFrom)\(\s*'clients'/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => path.relative(SERVER, file));
    expect(outside).toEqual([]);
  });
});
