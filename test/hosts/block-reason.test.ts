import { describe, expect, it } from 'vitest';
import { blockReasonFromCompletion, describeFailedTests, describeProbabilities } from '../../src/hosts/block-reason.js';

describe('blockReasonFromCompletion', () => {
  it('names the failed tests and adds the first line of each message', () => {
    const reason = blockReasonFromCompletion({
      done: false,
      reason: 'tests_failed',
      failed: ['parser > keeps line numbers'],
      failures: [{ name: 'parser > keeps line numbers', message: 'expected 3 to be 4\n    at parser.test.ts:12:5' }],
    });
    expect(reason).toBe(
      '1 test failed: parser > keeps line numbers. Fix it and run the tests again before you stop.\n- parser > keeps line numbers: expected 3 to be 4',
    );
  });

  it('says when the run failed outside any single test', () => {
    expect(blockReasonFromCompletion({ done: false, reason: 'tests_failed', failed: [] })).toMatch(/failed outside any single test/);
  });

  it('cuts long lists and long names', () => {
    const failed = Array.from({ length: 14 }, (_, i) => `t${i}`);
    expect(describeFailedTests(failed)).toBe('14 tests failed: t0; t1; t2; t3; t4; t5; t6; t7; t8; t9 and 4 more');
    expect(describeFailedTests(['x'.repeat(1000)]).length).toBeLessThan(260);
  });

  it('asks for the suite when no tests ran, with the runner explanation when there is one', () => {
    expect(blockReasonFromCompletion({ done: false, reason: 'no_tests_ran' })).toMatch(/^No tests ran, run the suite/);
    expect(
      blockReasonFromCompletion({ done: false, reason: 'no_tests_ran', failures: [{ name: 'test command', message: 'exited with code 127' }] }),
    ).toMatch(/\n- test command: exited with code 127$/);
  });

  it('quotes the probabilities, lowest first, and the threshold', () => {
    const reason = blockReasonFromCompletion({
      done: false,
      reason: 'criteria_below_threshold',
      probabilities: { noOpenQuestions: 0.9, acceptanceCovered: 0.41234 },
      doneThreshold: 0.8,
    });
    expect(reason).toContain('acceptanceCovered = 0.412, noOpenQuestions = 0.9 (below 0.8: acceptanceCovered)');
    expect(reason).toContain('must reach 0.8');
  });

  it('refuses a completion that is done', () => {
    expect(() => blockReasonFromCompletion({ done: true, reason: 'tests_and_criteria_passed' })).toThrow(TypeError);
  });

  it('describes probabilities of no criteria', () => {
    expect(describeProbabilities({})).toBe('no criteria');
  });
});
