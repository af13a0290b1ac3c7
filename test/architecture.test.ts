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

  it('imports the AI SDK and LangGraph only from their own integration folders', () => {
    for (const file of sourceFiles('src')) {
      const text = readFileSync(file, 'utf8');
      const relative = file.slice(root.length + 1).replaceAll('\\', '/');
      const imports = [...text.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1] ?? '');
      for (const specifier of imports) {
        if (specifier === 'ai' || specifier.startsWith('ai/')) expect(relative).toMatch(/^src\/integrations\/ai-sdk\//);
        if (specifier.startsWith('@langchain/')) expect(relative).toMatch(/^src\/integrations\/langgraph\//);
      }
    }
  });

  it('builds a main entry that loads only runtime dependencies, never the AI SDK or LangGraph', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    const runtime = Object.keys(manifest.dependencies ?? {});
    const seen = new Set<string>();
    const bare = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(join(root, 'dist', file), 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        const specifier = match[1] ?? '';
        if (specifier.startsWith('./')) visit(specifier.slice(2));
        else if (!specifier.startsWith('node:')) bare.add(specifier);
      }
    };
    visit('index.js');
    expect(seen.size).toBeGreaterThan(1);
    for (const specifier of bare) {
      expect(specifier).not.toMatch(/^(ai|ai\/.*|@langchain\/.*)$/);
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? '');
      expect(runtime, `the main entry loads ${specifier}`).toContain(name);
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
