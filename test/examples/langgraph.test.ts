import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('examples/langgraph.ts', () => {
  it('runs offline as a child process and reaches each of the four exits', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/langgraph.ts'], { cwd: root, timeout: 60_000 });
    expect(stdout.trimEnd().split('\n')).toEqual([
      'success: ended as success after 4 turns: tools -> done (not verified: tests_failed) -> tools -> done (verified)',
      'limit: ended as limit after 3 turns: tools -> tools -> tools',
      'give_up: ended as gave_up after 1 turns: give_up',
      '  the agent said: The fixture database is not reachable from this sandbox; I tried the two documented hosts.',
      'human: ended as need_help after 1 turns: need_help',
      '  the agent said: Should page 0 return 404 or an empty page?',
    ]);
  }, 90_000);
});
