import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('architecture', () => {
  it('keeps src/core free of I/O, clocks, randomness and runtime dependencies', () => {
    const files = sourceFiles('src/core');
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const imports = [...text.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]);
      for (const specifier of imports) expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\.?\//);
      for (const forbidden of [/\bfetch\(/, /Date\.now\(/, /new Date\(/, /performance\.now\(/, /Math\.random\(/, /process\./, /require\(/]) {
        expect(forbidden.test(text), `${file} uses ${forbidden}`).toBe(false);
      }
    }
  });

  it('keeps the decision-model clients and test doubles free of node:* imports and runtime dependencies', () => {
    const files = [...sourceFiles('src/judge'), ...sourceFiles('src/testing')];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const imports = [...text.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]);
      for (const specifier of imports) expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\.?\//);
      expect(/\brequire\(/.test(text), `${file} uses require`).toBe(false);
    }
  });
});
