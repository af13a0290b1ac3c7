import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { docFiles, parseDocBlocks, writePrograms } from '../../scripts/doc-blocks.js';

// Every complete program in the README and docs/ is type-checked and run against the built package,
// so an example that drifts from the API fails here. Blocks marked `// fragment` are left out.
const root = resolve(import.meta.dirname, '../..');
const programs = writePrograms(root, join(root, 'test/.out/doc-blocks'));
const jsonBlocks = docFiles(root).flatMap((file) => parseDocBlocks(file, readFileSync(join(root, file), 'utf8')).filter((block) => block.lang === 'json'));

describe('the code blocks of the docs', () => {
  it('has programs to check', () => {
    expect(programs.length).toBeGreaterThan(0);
  });

  it('type-checks every program against the built package', () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    if (parsed === undefined) throw new Error('tsconfig.json could not be read');
    const program = ts.createProgram(
      programs.map((written) => join(root, written.path)),
      { ...parsed.options, noEmit: true, allowJs: true, checkJs: false, noUnusedLocals: false },
    );
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const written = programs.find((candidate) => diagnostic.file !== undefined && resolve(diagnostic.file.fileName) === join(root, candidate.path));
      const position = diagnostic.file !== undefined && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
      const where = written === undefined ? (diagnostic.file?.fileName ?? '?') : `${written.block.file}:${written.block.line + 1 + (position?.line ?? 0)}`;
      return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 120_000);

  it.each(programs.map((written) => [`${written.block.file}:${written.block.line}`, written] as const))('runs %s', (_, written) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', written.path], { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    if (written.block.output !== undefined) expect(result.stdout.trimEnd()).toBe(written.block.output.trimEnd());
  }, 90_000);

  it.each(jsonBlocks.map((block) => [`${block.file}:${block.line}`, block] as const))('parses the JSON of %s', (_, block) => {
    expect(() => JSON.parse(block.code)).not.toThrow();
  });
});
