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
      '   retry at step 1 by rule tests_failed: 1 test failed: paginate > last page; lowest criterion acceptanceCovered = 0.35 < 0.7',
      '   stop (success) at step 2 by rule tests_and_criteria_passed: 31 tests passed; lowest criterion noOpenQuestions = 0.88 >= 0.7',
      '   the loop ran 2 steps; the decision model was asked 2 times',
      '2. runGenerateTextCompletionLoop refuses an early stop and tells the model why',
      '   step 1: retry (tests_failed)',
      '   step 2: retry (criteria_mid_band)',
      '   step 3: stop_done (tests_and_criteria_passed)',
      '   the model was told before step 2: 1 test failed: paginate > last page. Fix it and run the tests again before you finish.',
      '   the model was told before step 3: The decision model is not convinced the task is done: acceptanceCovered = 0.55 (each must reach 0.7). Check your work against every acceptance criterion, finish what is missing or say what blocks you.',
      '   ended: stop_done (tests_and_criteria_passed) at step 3, 7 messages in the conversation',
    ]);
  }, 90_000);
});
