import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('examples/langgraph-engine.ts', () => {
  it('runs offline against the built package: a retry on red tests, a retry in the mid band, then a success the checkpoint holds', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/langgraph-engine.ts'], { cwd: root, timeout: 60_000 });
    expect(stdout.trimEnd().split('\n')).toEqual([
      'retry at step 1 by rule tests_failed: 1 test failed: auth > rejects expired token; lowest criterion acceptanceCovered = 0.3 < 0.7',
      'retry at step 2 by rule criteria_mid_band: 12 tests passed; lowest criterion acceptanceCovered = 0.6 in [0.4, 0.7)',
      'stop (success) at step 3 by rule tests_and_criteria_passed: 13 tests passed; lowest criterion acceptanceCovered = 0.93 >= 0.7',
      'ended: success at step 3; the checkpoint holds the engine state of step 3',
    ]);
  }, 90_000);

  it('is the first complete program of docs/langgraph.md, printing what the page shows', () => {
    const doc = readFileSync(join(root, 'docs/langgraph.md'), 'utf8');
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```\n\n```text output\n([\s\S]*?)```/g)].map(([, block, output]) => ({ block, output }));
    expect(blocks[0]?.block).toBe(readFileSync(join(root, 'examples/langgraph-engine.ts'), 'utf8'));
    expect(blocks[0]?.output?.trimEnd().split('\n')).toHaveLength(4);
  });
});
