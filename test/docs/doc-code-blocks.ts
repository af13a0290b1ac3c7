import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** The package's entries, as the source files a doc's `import ... from 'stopwise...'` runs against here. */
const ENTRIES: Readonly<Record<string, string>> = {
  stopwise: 'src/index.ts',
  'stopwise/ai-sdk': 'src/integrations/ai-sdk/index.ts',
  'stopwise/testing': 'src/testing/index.ts',
  'stopwise/providers': 'src/providers/index.ts',
};

/** The complete TypeScript blocks of a docs page: every ```ts block whose first line is not `// fragment`. */
export function completeBlocks(page: string): string[] {
  const text = readFileSync(join(root, page), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '').filter((code) => !code.startsWith('// fragment'));
}

/** Runs one block as a program with tsx in a child process (imports of `stopwise` point at the sources); returns its stdout. */
export function runBlock(code: string): string {
  const dir = mkdtempSync(join(root, 'test', 'docs', '.run-'));
  try {
    const file = join(dir, 'block.ts');
    const rewritten = code.replace(/from '(stopwise(?:\/[a-z-]+)?)'/g, (whole, name: string) => {
      const entry = ENTRIES[name];
      return entry === undefined ? whole : `from '${join(root, entry)}'`;
    });
    writeFileSync(file, rewritten);
    return execFileSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
