import { describe, expect, it } from 'vitest';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import type { CompletionDecision, RetryFeedback } from '../../src/loop/completion-loop.js';
import { runManualCompletionLoop } from '../../src/loop/run-manual-completion-loop.js';

const PASS: TestEvidence = { passed: true, failed: [], ran: 3 };
const NONE: TestEvidence = { passed: false, failed: [], ran: 0 };

describe('runManualCompletionLoop', () => {
  it('takes plain (not awaited) callbacks, asks for the criteria only when the evidence does not decide, and ends on a stop', async () => {
    const asked: number[] = [];
    const retries: (RetryFeedback | undefined)[] = [];
    const decisions: CompletionDecision[] = [];
    const result = await runManualCompletionLoop({
      generateStep: (step, retry) => {
        retries.push(retry);
        return { text: `attempt ${step}` };
      },
      readTests: ({ step }) => (step === 1 ? NONE : PASS),
      evaluateCriteria: ({ step }) => {
        asked.push(step);
        return { acceptanceCovered: 0.9 };
      },
      onDecision: (decision) => void decisions.push(decision),
    });
    expect(result).toMatchObject({ action: 'stop_done', reason: 'tests_and_criteria_passed', step: 2, text: 'attempt 2' });
    expect(asked).toEqual([2]);
    expect(retries[1]).toMatchObject({ action: { action: 'retry', reason: 'no_tests_ran', rule: 3 }, feedback: expect.stringMatching(/^No tests ran/) });
    expect(decisions.map((decision) => [decision.reason, decision.evaluated])).toEqual([
      ['no_tests_ran', false],
      ['tests_and_criteria_passed', true],
    ]);
  });

  it('lays maxSteps over the policy: the cap hands off at that step', async () => {
    const result = await runManualCompletionLoop({
      maxSteps: 2,
      policy: createStopPolicy({ maxSteps: 9, stallRounds: 5 }),
      generateStep: (step) => ({ text: `attempt ${step}` }),
      readTests: () => PASS,
      evaluateCriteria: () => ({ acceptanceCovered: 0.5 }),
    });
    expect(result).toMatchObject({ action: 'handoff_human', reason: 'hard_cap', step: 2, decision: { values: { step: 2, maxSteps: 2 } } });
    await expect(runManualCompletionLoop({ maxSteps: 0, generateStep: () => ({ text: '' }), readTests: () => PASS, evaluateCriteria: () => ({}) })).rejects.toThrow(
      'maxSteps must be a positive integer, got 0',
    );
  });

  it('rejects with the abort reason before the next step', async () => {
    const controller = new AbortController();
    const run = runManualCompletionLoop({
      signal: controller.signal,
      generateStep: (step) => {
        if (step === 2) throw new Error('a second step ran');
        return { text: 'x' };
      },
      readTests: () => NONE,
      evaluateCriteria: () => ({}),
      onDecision: () => controller.abort(new Error('stopped by the caller')),
    });
    await expect(run).rejects.toThrow('stopped by the caller');
  });
});
