import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { CriterionProbabilities } from '../../../src/core/criterion-probabilities.js';
import type { TestEvidence } from '../../../src/core/test-evidence.js';
import { runManualCompletionLoop } from '../../../src/integrations/ai-sdk/index.js';
import type { CompletionDecision } from '../../../src/loop/completion-loop.js';
import type { ManualCompletionLoopOptions } from '../../../src/loop/run-manual-completion-loop.js';
import { DONE as SURE, FAIL, NONE, NOT_DONE, PASS, TASK, UNSURE } from './fixtures.js';
import { promptText, textResult } from './mock-model.js';

interface Script {
  readonly texts: readonly string[];
  readonly tests: readonly TestEvidence[];
  readonly criteria: readonly CriterionProbabilities[];
}

/** A manual loop whose steps are real generateText calls on a mock model; evidence and criteria follow a script. */
function scriptedLoop(script: Script, extra: Partial<ManualCompletionLoopOptions> = {}) {
  const model = new MockLanguageModelV3({ doGenerate: script.texts.map(textResult) });
  const judged: number[] = [];
  const decisions: CompletionDecision[] = [];
  const run = runManualCompletionLoop({
    generateStep: async (_step, retry) => {
      const result = await generateText({ model, prompt: retry === undefined ? TASK : `${TASK}\n\n${retry.feedback}` });
      return { text: result.text };
    },
    readTests: ({ step }) => script.tests[step - 1] ?? PASS,
    evaluateCriteria: async ({ step }) => {
      judged.push(step);
      return script.criteria[step - 1] ?? SURE;
    },
    onDecision: (decision) => {
      decisions.push(decision);
    },
    ...extra,
  });
  return { model, judged, decisions, run };
}

describe('runManualCompletionLoop', () => {
  it('retries with the reason in the next prompt, then ends on stop_done', async () => {
    const { model, judged, decisions, run } = scriptedLoop({
      texts: ['Changed the loop bound.', 'Also handled the empty last page.'],
      tests: [FAIL, PASS],
      criteria: [NOT_DONE, SURE],
    });
    const result = await run;
    expect(result).toMatchObject({ action: 'stop_done', reason: 'tests_and_criteria_passed', step: 2 });
    expect(result.text).toBe('Also handled the empty last page.');
    expect(result.decision.rule).toBe(6);
    expect(judged).toEqual([1, 2]);
    expect(decisions.map((d) => [d.action, d.reason])).toEqual([
      ['retry', 'tests_failed'],
      ['stop_done', 'tests_and_criteria_passed'],
    ]);

    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptText(model.doGenerateCalls[0]!)).toBe(`user: ${TASK}`);
    const second = promptText(model.doGenerateCalls[1]!);
    expect(second).toBe(
      `user: ${TASK}\n\n1 test failed: paginate > last page. Fix it and run the tests again before you finish.\n- paginate > last page: expected [7] to equal []`,
    );
  });

  it('tells the model that no tests ran, without asking the decision model', async () => {
    const { model, judged, run } = scriptedLoop({ texts: ['Done, I think.', 'Ran the suite.'], tests: [NONE, PASS], criteria: [SURE, SURE] });
    const result = await run;
    expect(result).toMatchObject({ action: 'stop_done', step: 2 });
    expect(judged).toEqual([2]);
    expect(promptText(model.doGenerateCalls[1]!)).toContain('No tests ran: there is no test result for this step.');
  });

  it('names the criterion below the threshold when the judgement is in the mid band', async () => {
    const { model, run } = scriptedLoop({ texts: ['Changed it.', 'Changed it and showed the last page.'], tests: [PASS, PASS], criteria: [UNSURE, SURE] });
    expect(await run).toMatchObject({ action: 'stop_done', step: 2 });
    const second = promptText(model.doGenerateCalls[1]!);
    expect(second).toContain('The decision model is not convinced the task is done: acceptanceCovered = 0.55 (each must reach 0.7).');
    expect(second).not.toContain('noOpenQuestions');
  });

  it('hands off with evidence_contradicts_model when tests fail while the model says done', async () => {
    const { model, run } = scriptedLoop({ texts: ['All fixed!'], tests: [FAIL], criteria: [SURE] });
    const result = await run;
    expect(result).toMatchObject({ action: 'handoff_human', reason: 'evidence_contradicts_model', step: 1, text: 'All fixed!' });
    expect(result.decision).toMatchObject({ rule: 4, evaluated: true, probabilities: SURE });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('hands off as stalled when the same output and test result repeat stallRounds times', async () => {
    const same = 'I changed the loop bound.';
    const { judged, run } = scriptedLoop({ texts: [same, same, same, same], tests: [FAIL, FAIL, FAIL, FAIL], criteria: [NOT_DONE, NOT_DONE, NOT_DONE] });
    const result = await run;
    expect(result).toMatchObject({ action: 'handoff_human', reason: 'stalled', step: 3 });
    expect(result.decision).toMatchObject({ rule: 2, evaluated: false });
    expect(judged).toEqual([1, 2]);
  });

  it('hands off with hard_cap at the cap, with step equal to the cap', async () => {
    const texts = ['try 1', 'try 2', 'try 3', 'try 4', 'try 5'];
    const { model, run } = scriptedLoop({ texts, tests: [PASS, PASS, PASS, PASS, PASS], criteria: [UNSURE, UNSURE, UNSURE, UNSURE, UNSURE] }, { maxSteps: 4 });
    const result = await run;
    expect(result).toMatchObject({ action: 'handoff_human', reason: 'hard_cap', step: 4, text: 'try 4' });
    expect(result.decision.values).toEqual({ step: 4, maxSteps: 4 });
    expect(model.doGenerateCalls).toHaveLength(4);
  });

  it('hands off with criteria_low when the tests pass but the judgement is low', async () => {
    const { run } = scriptedLoop({ texts: ['Rewrote the module.'], tests: [PASS], criteria: [NOT_DONE] });
    expect(await run).toMatchObject({ action: 'handoff_human', reason: 'criteria_low', step: 1 });
  });

  it('takes maxSteps over policy.maxSteps and the rest of the policy as given', async () => {
    const { run } = scriptedLoop(
      { texts: ['a', 'b', 'c'], tests: [PASS, PASS, PASS], criteria: [UNSURE, UNSURE, UNSURE] },
      { policy: { doneThreshold: 0.5, midBandLow: 0.4, maxSteps: 1, stallRounds: 3 }, maxSteps: 3 },
    );
    expect(await run).toMatchObject({ action: 'stop_done', step: 1 });
  });

  it('never turns an error into a decision', async () => {
    const stepFailure = new Error('provider unavailable');
    await expect(
      runManualCompletionLoop({
        generateStep: () => Promise.reject(stepFailure),
        readTests: () => PASS,
        evaluateCriteria: () => SURE,
      }),
    ).rejects.toBe(stepFailure);
    await expect(
      runManualCompletionLoop({ generateStep: () => ({ text: 'x' }), readTests: () => PASS, evaluateCriteria: () => ({ acceptanceCovered: 1.5 }) }),
    ).rejects.toThrow(RangeError);
    for (const forgotten of [undefined, null, 0.9]) {
      await expect(
        runManualCompletionLoop({
          generateStep: () => ({ text: 'x' }),
          readTests: () => PASS,
          evaluateCriteria: () => forgotten as unknown as { acceptanceCovered: number },
        }),
      ).rejects.toThrow(RangeError);
    }
    await expect(
      runManualCompletionLoop({
        generateStep: () => ({ text: 'x' }),
        readTests: () => ({ passed: true }) as unknown as TestEvidence,
        evaluateCriteria: () => SURE,
      }),
    ).rejects.toThrow(/tests.ran must be a non-negative integer/);
    await expect(
      runManualCompletionLoop({ generateStep: () => ({}) as { text: string }, readTests: () => PASS, evaluateCriteria: () => SURE }),
    ).rejects.toThrow(/step 1 must resolve to \{ text: string \}/);
    await expect(
      runManualCompletionLoop({ maxSteps: 0, generateStep: () => ({ text: 'x' }), readTests: () => PASS, evaluateCriteria: () => SURE }),
    ).rejects.toThrow(/maxSteps must be a positive integer/);
  });

  it('stops before the next step once the signal is aborted', async () => {
    const controller = new AbortController();
    let steps = 0;
    const run = runManualCompletionLoop({
      signal: controller.signal,
      generateStep: () => {
        steps += 1;
        controller.abort(new Error('cancelled by the user'));
        return { text: 'x' };
      },
      readTests: () => NONE,
      evaluateCriteria: () => SURE,
    });
    await expect(run).rejects.toThrow('cancelled by the user');
    expect(steps).toBe(1);
  });
});
