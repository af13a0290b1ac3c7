import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** Every source file under `folder`, as a path relative to the package (`src/core/stall.ts`). */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1).replaceAll('\\', '/'))
    .sort();
}

const text = (file: string): string => readFileSync(join(root, file), 'utf8');

/** What a file imports, statically or dynamically, with the names of each static import. */
function importsOf(file: string): { specifier: string; names: string[] }[] {
  const source = text(file);
  const found: { specifier: string; names: string[] }[] = [];
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'([^']+)'/g)) {
    const clause = match[2] ?? '';
    const names = [...(/\{([^}]*)\}/.exec(clause)?.[1] ?? '').matchAll(/(?:type\s+)?([A-Za-z_$][\w$]*)(?:\s+as\s+[\w$]+)?/g)].map((m) => m[1] as string);
    found.push({ specifier: match[3] as string, names });
  }
  for (const match of source.matchAll(/(?:^|\n)\s*import\s*'([^']+)'/g)) found.push({ specifier: match[1] as string, names: [] });
  for (const match of source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push({ specifier: match[1] as string, names: [] });
  return found;
}

/**
 * The files that define a schema with zod: the policy document, the seed's numbers, and the stall options and score
 * model of core, the message formatter of schema problems (types only), the optional key built on use that the
 * policy and the configuration share, the configuration of the hooks, and the finish
 * signal of the providers (its parser, and the zod schema an AI SDK tool takes as its input).
 */
const ZOD_FILES = [
  'src/core/optional-built-on-use.ts',
  'src/core/policy/stop-policy-schema.ts',
  'src/core/schema-issues.ts',
  'src/core/stall-detection/stall-schemas.ts',
  'src/core/stop-policy.ts',
  'src/hosts/stopwise-config.ts',
  'src/providers/finish-tool.ts',
  'src/providers/parse-finish-signal.ts',
];

describe('architecture', () => {
  it('keeps src/core pure: relative imports only (zod/mini in its schema files), no I/O, clocks, randomness or process', () => {
    const files = sourceFiles('src/core');
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      const source = text(file);
      for (const { specifier } of importsOf(file)) {
        if (specifier === 'zod/mini' && ZOD_FILES.includes(file)) continue;
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\.?\//);
      }
      for (const forbidden of [/\bfetch\(/, /Date\.now\(/, /new Date\(/, /performance\.now\(/, /Math\.random\(/, /\bprocess\./, /\brequire\(/, /\bsetTimeout\(/, /\bimport\(/]) {
        expect(forbidden.test(source), `${file} uses ${forbidden}`).toBe(false);
      }
    }
  });

  it('imports zod only as zod/mini, and only in the files that define a schema', () => {
    const users: string[] = [];
    for (const file of sourceFiles('src')) {
      for (const { specifier } of importsOf(file)) {
        if (specifier !== 'zod' && !specifier.startsWith('zod/')) continue;
        expect(specifier, `${file} imports ${specifier}`).toBe('zod/mini');
        users.push(file);
      }
    }
    expect(users.sort()).toEqual(ZOD_FILES);
  });

  it('evaluates rules in src/core/policy/decide.ts alone: no other module reaches the compiled evaluators', () => {
    // compile-stop-policy.ts compiles each rule to an evaluator; decide.ts runs them. Others may compile a policy
    // (to validate it, read its document or its stall windows) and format a trace, never evaluate a rule.
    const evaluatorNames = ['CompiledPolicy', 'EvaluationContext', 'Scratch', 'Evaluator', 'compileDocument'];
    const compiler = 'src/core/policy/compile-stop-policy.ts';
    const engine = 'src/core/policy/decide.ts';
    expect(importsOf(engine).find((entry) => entry.specifier === './compile-stop-policy.js')?.names).toEqual(
      expect.arrayContaining(['compileStopPolicy', 'CompiledPolicy', 'EvaluationContext', 'Scratch']),
    );
    for (const file of sourceFiles('src')) {
      if (file === compiler || file === engine) continue;
      for (const { specifier, names } of importsOf(file)) {
        if (!specifier.endsWith('/compile-stop-policy.js')) continue;
        for (const name of names) expect(evaluatorNames, `${file} imports ${name} from the rule compiler`).not.toContain(name);
      }
      expect(/\brules?\b[^;\n]*\.evaluate\(\s*context/.test(text(file)), `${file} evaluates a compiled rule`).toBe(false);
    }
    expect(text(engine)).toMatch(/rule\.evaluate\(context/);
  });

  it('names the decision model one way: src/decision-model, no src/judge', () => {
    expect(existsSync(join(root, 'src/judge'))).toBe(false);
    expect(sourceFiles('src/decision-model').length).toBeGreaterThan(20);
    for (const file of sourceFiles('src')) {
      for (const { specifier } of importsOf(file)) expect(specifier, `${file} imports ${specifier}`).not.toMatch(/(^|\/)judge\//);
    }
  });

  it('keeps the hosts free of the integrations: a hook never loads the AI SDK or LangGraph code', () => {
    const files = sourceFiles('src/hosts');
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      for (const { specifier } of importsOf(file)) {
        expect(specifier, `${file} imports ${specifier}`).not.toMatch(/(^|\/)integrations\//);
        expect(specifier, `${file} imports ${specifier}`).not.toMatch(/^(ai|ai\/.*|@langchain\/.*)$/);
      }
    }
  });

  it('imports the AI SDK and LangGraph only from their own integration folders', () => {
    for (const file of sourceFiles('src')) {
      for (const { specifier } of importsOf(file)) {
        if (specifier === 'ai' || specifier.startsWith('ai/')) expect(file).toMatch(/^src\/integrations\/ai-sdk\//);
        if (specifier.startsWith('@langchain/')) expect(file).toMatch(/^src\/integrations\/langgraph\//);
      }
    }
  });

  it('builds a main entry that loads only runtime dependencies, never the AI SDK or LangGraph', () => {
    const manifest = JSON.parse(text('package.json')) as { dependencies?: Record<string, string> };
    const runtime = Object.keys(manifest.dependencies ?? {});
    const seen = new Set<string>();
    const bare = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const built = readFileSync(join(root, 'dist', file), 'utf8');
      for (const match of built.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
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
    const files = [...sourceFiles('src/decision-model'), ...sourceFiles('src/testing')];
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      for (const { specifier } of importsOf(file)) expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\.?\//);
      expect(/\brequire\(/.test(text(file)), `${file} uses require`).toBe(false);
    }
  });
});
