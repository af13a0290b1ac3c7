import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean; peer?: boolean; devOptional?: boolean }>;
};

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
  );
}

const packageOf = (specifier: string): string =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] as string);

describe('runtime dependencies', () => {
  it('an install of the package brings at most 20 packages (counted from the lockfile)', () => {
    const installed = Object.entries(lock.packages).filter(
      ([path, entry]) => path !== '' && entry.dev !== true && entry.peer !== true && entry.devOptional !== true,
    );
    expect(installed.map(([path]) => path.replace(/^.*node_modules\//, '')).length).toBeLessThanOrEqual(20);
  });

  it('the code imports only its dependencies and optional peers, never a devDependency', () => {
    const allowed = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const imported = new Set<string>();
    for (const file of sourceFiles(join(root, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*)'([^'.][^']*)'/g)) {
        const specifier = match[1] as string;
        if (!specifier.startsWith('node:')) imported.add(packageOf(specifier));
      }
    }
    expect(imported.size).toBeGreaterThan(0);
    expect([...imported].filter((name) => !allowed.has(name))).toEqual([]);
  });
});
