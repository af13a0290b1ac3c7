import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedModules } from '../support/loaded-modules.js';

const root = join(import.meta.dirname, '../..');

/** The modules a fresh Node process loads while it runs `script` (an ES module) in the package folder. */
const loadedBy = (script: string): string[] => loadedModules(['--input-type=module', '-e', script], { cwd: root });

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the main entry and @opentelemetry/api', () => {
  it('imports @opentelemetry/* only from src/otel', () => {
    const files = sourceFiles('src');
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const relative = file.slice(root.length + 1);
      const imports = [...readFileSync(file, 'utf8').matchAll(/from\s+'([^']+)'/g)].map((match) => match[1] ?? '');
      for (const specifier of imports) if (specifier.startsWith('@opentelemetry/')) expect(relative).toMatch(/^src\/otel\//);
    }
  });

  it('never loads @opentelemetry/api on `import "stopwise"`, even while deciding', () => {
    const script = `const { decide, initialStopState, SEED_STOP_POLICY, runAgentLoop } = await import('stopwise');
decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), { step: 1, tests: { passed: true, failed: [], ran: 1 }, probabilities: { a: 0.99 } });
await runAgentLoop({ limits: { maxSteps: 1 }, turn: async () => ({ text: 'x' }), verify: async () => ({ ok: true }) });`;
    const loaded = loadedBy(script);
    expect(loaded.some((url) => url.endsWith('/dist/index.js'))).toBe(true);
    expect(loaded.filter((url) => url.includes('@opentelemetry'))).toEqual([]);
  });

  it('loads it with stopwise/otel (the probe sees it when it is there)', () => {
    const loaded = loadedBy(`await import('stopwise/otel');`);
    expect(loaded.filter((url) => url.includes('/@opentelemetry/api/')).length).toBeGreaterThan(0);
  });
});
