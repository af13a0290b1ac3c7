import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AI_SDK_7_NODE, docFiles, parseDocBlocks, programNodeArgs, typeCheckPrograms, writePrograms } from '../../scripts/doc-blocks.js';

// Every complete program in the README and docs/ is type-checked and run against the built package,
// so an example that drifts from the API fails here. Blocks marked `// fragment` are left out; a program
// for AI SDK 7 is checked against the `ai-v7` alias and runs on Node 22 or later only.
const root = resolve(import.meta.dirname, '../..');
const programs = writePrograms(root, join(root, 'test/.out/doc-blocks'));
const jsonBlocks = docFiles(root).flatMap((file) => parseDocBlocks(file, readFileSync(join(root, file), 'utf8')).filter((block) => block.lang === 'json'));
const nodeMajor = Number(process.versions.node.split('.')[0]);
if (nodeMajor < AI_SDK_7_NODE && programs.some((written) => written.block.aiSdk7)) {
  console.warn(`skipped: running the docs' AI SDK 7 programs needs Node ${AI_SDK_7_NODE} or later; this is Node ${process.versions.node} (they are still type-checked)`);
}

describe('the code blocks of the docs', () => {
  it('has programs to check, among them one for AI SDK 7', () => {
    expect(programs.length).toBeGreaterThan(0);
    expect(programs.some((written) => written.block.aiSdk7)).toBe(true);
  });

  it('type-checks every program against the built package, with strict checking', () => {
    expect(typeCheckPrograms(root, programs)).toEqual([]);
  }, 180_000);

  it.each(programs.map((written) => [`${written.block.file}:${written.block.line}`, written] as const))('runs %s', (_, written) => {
    if (written.block.aiSdk7 && nodeMajor < AI_SDK_7_NODE) return;
    const result = spawnSync(process.execPath, programNodeArgs(root, written), { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    if (written.block.output !== undefined) expect(result.stdout.trimEnd()).toBe(written.block.output.trimEnd());
  }, 90_000);

  it.each(jsonBlocks.map((block) => [`${block.file}:${block.line}`, block] as const))('parses the JSON of %s', (_, block) => {
    expect(() => JSON.parse(block.code)).not.toThrow();
  });
});
