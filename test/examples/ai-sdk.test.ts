import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('examples/ai-sdk.ts', () => {
  it('runs offline as a child process against the built package', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/ai-sdk.ts'], { cwd: root, timeout: 60_000 });
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      '1. policyStopWhen ends a generateText tool loop once the tests pass and the decision model agrees',
      expect.stringMatching(/^ {3}step 1: retry \(tests_failed, rule 5\): 1 test failed: paginate > last page/),
      expect.stringMatching(/^ {3}step 2: stop_done \(tests_and_criteria_passed, rule 6\): 31 tests passed/),
      '   the loop ran 2 steps; the decision model was asked 2 times',
      '2. runGenerateTextCompletionLoop refuses an early stop and tells the model why',
      expect.stringMatching(/^ {3}step 1: retry \(tests_failed, rule 5\)/),
      expect.stringMatching(/^ {3}step 2: retry \(criteria_mid_band, rule 7\)/),
      expect.stringMatching(/^ {3}step 3: stop_done \(tests_and_criteria_passed, rule 6\)/),
      '   the model was told before step 2: Not done yet: 1 test failed. Fix it, then finish.',
      '   the model was told before step 3: Not done yet: the tests pass, but the completion check is not convinced the task is finished.',
      '   ended: stop_done (tests_and_criteria_passed) at step 3, 7 messages in the conversation',
    ]);
  }, 90_000);
});
