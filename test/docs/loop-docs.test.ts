import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { completeBlocks, runBlock } from './doc-code-blocks.js';

const PAGES = ['docs/policies.md', 'docs/run-loop.md'];

/** The `// ` lines right after a block's last statement: what the block says it prints. */
function promisedLines(code: string): string[] {
  const lines = code.trimEnd().split('\n');
  const promised: string[] = [];
  for (let i = lines.length - 1; i >= 0 && (lines[i] as string).startsWith('// '); i--) promised.unshift((lines[i] as string).slice(3));
  return promised;
}

describe.each(PAGES)('%s', (page) => {
  it('keeps every line within 200 characters', () => {
    const long = readFileSync(join(import.meta.dirname, '..', '..', page), 'utf8').split('\n').filter((line) => line.length > 200);
    expect(long).toEqual([]);
  });

  it.each(completeBlocks(page).map((code, i) => [i + 1, code] as const))('runs complete block %i and prints what it says', (_i, code) => {
    const printed = runBlock(code);
    for (const line of promisedLines(code)) {
      // A promised line may end in "..." where the output goes on.
      const [head] = line.split('...');
      for (const part of (head as string).split(', ')) expect(printed).toContain(part.trim());
    }
  }, 60_000);
});
