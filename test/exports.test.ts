import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// The public surface, counted as scripts/count-exports.ts counts it (the names each entry exports, values being
// those with a runtime binding), on the sources of the entries that package.json publishes.
const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> };

/** The source file of each bundle, as the build names them (`index: 'src/index.ts'`). */
function buildEntries(): Map<string, string> {
  const config = readFileSync(join(root, 'tsup.config.ts'), 'utf8');
  const block = /const entries = \{([^}]*)\}/.exec(config)?.[1];
  if (block === undefined) throw new Error('tsup.config.ts has no `const entries = { ... }`');
  return new Map([...block.matchAll(/'?([\w-]+)'?:\s*'(src\/[^']+)'/g)].map((match) => [match[1] as string, match[2] as string]));
}

interface Entry {
  readonly subpath: string;
  readonly names: readonly string[];
  readonly values: readonly string[];
  /** The declaration each name stands for. */
  readonly bindings: ReadonlyMap<string, ts.Symbol>;
}

let entries: Entry[];

beforeAll(() => {
  const bundles = buildEntries();
  const published = Object.entries(manifest.exports).flatMap(([subpath, target]) => {
    if (typeof target !== 'object' || target.types === undefined) return [];
    const bundle = /^\.\/dist\/(.+)\.d\.ts$/.exec(target.types)?.[1];
    const source = bundle === undefined ? undefined : bundles.get(bundle);
    if (source === undefined) throw new Error(`package.json exports ${subpath} (${target.types}) with no build entry`);
    return [{ subpath, file: join(root, source) }];
  });
  const program = ts.createProgram(
    published.map((entry) => entry.file),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, noEmit: true, types: ['node'] },
  );
  const checker = program.getTypeChecker();
  entries = published.map(({ subpath, file }) => {
    const source = program.getSourceFile(file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${file} is not a module`);
    const bindings = new Map<string, ts.Symbol>();
    const values: string[] = [];
    for (const exported of checker.getExportsOfModule(module)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      bindings.set(exported.name, target);
      if (target.flags & ts.SymbolFlags.Value) values.push(exported.name);
    }
    return { subpath, names: [...bindings.keys()], values, bindings };
  });
}, 120_000);

describe('the public entries', () => {
  it('are every subpath package.json publishes with types, the main entry among them', () => {
    expect(entries.map((entry) => entry.subpath)).toContain('.');
    expect(entries.length).toBeGreaterThanOrEqual(10);
    for (const entry of entries) expect(entry.names.length, entry.subpath).toBeGreaterThan(0);
  });

  it('keep the main entry small: at most 60 names, at most 40 of them runtime values', () => {
    const main = entries.find((entry) => entry.subpath === '.') as Entry;
    expect(main.names.length, main.names.join(' ')).toBeLessThanOrEqual(60);
    expect(main.values.length, main.values.join(' ')).toBeLessThanOrEqual(40);
    for (const name of ['decide', 'needsJudgement', 'initialStopState', 'parseStopPolicy', 'runAgentLoop', 'decideCompletionAction']) expect(main.values).toContain(name);
  });

  it('export at most 250 names in all', () => {
    const total = entries.reduce((sum, entry) => sum + entry.names.length, 0);
    expect(total).toBeLessThanOrEqual(250);
  });

  it('never give one name two meanings: a name exported by two entries is the same binding', () => {
    const seen = new Map<string, { subpath: string; binding: ts.Symbol }>();
    const conflicts: string[] = [];
    for (const entry of entries) {
      for (const [name, binding] of entry.bindings) {
        const first = seen.get(name);
        if (first === undefined) seen.set(name, { subpath: entry.subpath, binding });
        else if (first.binding !== binding) conflicts.push(`${name} (${first.subpath} and ${entry.subpath})`);
      }
    }
    expect(conflicts).toEqual([]);
  });
});
