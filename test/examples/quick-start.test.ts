import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('examples/quick-start.ts', () => {
  it('runs against the built package and prints the action, the rule that fired and what it compared', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/quick-start.ts'], { cwd: root, timeout: 60_000 });
    const [first, second, ...rest] = stdout.split('\n');
    expect(first).toBe('handoff_human evidence_contradicts_model');
    expect(second?.startsWith('rule 4: ')).toBe(true);
    expect(JSON.parse(second?.slice('rule 4: '.length) ?? 'null')).toEqual({
      step: 4,
      ran: 42,
      lowestProbability: 0.88,
      lowestCriterion: 'noOpenQuestions',
      doneThreshold: 0.7,
      midBandLow: 0.4,
      failed: ['auth > rejects expired token'],
    });
    expect(rest).toEqual(['']);
  }, 90_000);

  it('is the example on the first screen of the README', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const firstTs = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(firstTs).toBe(readFileSync(join(root, 'examples/quick-start.ts'), 'utf8'));
  });
});
