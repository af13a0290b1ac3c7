import { describe, expect, it } from 'vitest';
import { booleanQuestion, doneCriteria } from '../../src/decision-model/boolean-question.js';
import { checkCompletion } from '../../src/decision-model/check-completion.js';
import type { DecisionModelClient } from '../../src/decision-model/decision-model-client.js';
import { DecisionModelError, isDecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';

const PASS = { passed: true, failed: [], ran: 40 };
const FAIL = { passed: false, failed: ['cart > applies the discount once'], ran: 40 };
const NONE = { passed: false, failed: [], ran: 0 };
const INPUT = {
  task: 'Apply the discount code once per cart',
  output: 'The discount is now applied once; a second code is rejected.',
  acceptance: ['a code applies once', 'a second code is rejected with a message'],
  tests: PASS,
};
const HIGH = { acceptanceCovered: 0.92, noOpenQuestions: 0.85 };

describe('checkCompletion', () => {
  it('sends one request with every question and the state the spec names', async () => {
    const client = createScriptedClient([HIGH]);
    const check = await checkCompletion(client, { ...INPUT, tests: { ...FAIL, durationMs: 99 } });
    expect(client.calls).toHaveLength(1);
    expect(client.calls[0]).toEqual({
      state: {
        task: INPUT.task,
        output: INPUT.output,
        acceptance: INPUT.acceptance,
        tests: { passed: false, ran: 40, failed: ['cart > applies the discount once'] },
      },
      questions: doneCriteria,
    });
    expect(check).toMatchObject({ done: false, reason: 'tests_failed', modelSaysDone: true, model: 'scripted' });
  });

  it('is done when tests pass and every criterion meets the threshold', async () => {
    const check = await checkCompletion(createScriptedClient([HIGH]), INPUT);
    expect(check).toEqual({
      done: true,
      reason: 'tests_and_criteria_passed',
      modelSaysDone: true,
      lowestProbability: 0.85,
      probabilities: HIGH,
      model: 'scripted',
    });
  });

  it('reports each not-done reason with the probabilities', async () => {
    expect(await checkCompletion(createScriptedClient([HIGH]), { ...INPUT, tests: NONE })).toMatchObject({
      done: false,
      reason: 'no_tests_ran',
      modelSaysDone: true,
    });
    const low = { acceptanceCovered: 0.3, noOpenQuestions: 0.9 };
    expect(await checkCompletion(createScriptedClient([low]), INPUT)).toMatchObject({
      done: false,
      reason: 'criteria_below_threshold',
      modelSaysDone: false,
      probabilities: low,
    });
  });

  it('applies the policy thresholds', async () => {
    const policy = createStopPolicy({ doneThreshold: 0.9 });
    expect((await checkCompletion(createScriptedClient([HIGH]), { ...INPUT, policy })).done).toBe(false);
  });

  it('asks any number of named questions', async () => {
    const questions = {
      docsUpdated: booleanQuestion('Are the docs updated?'),
      noRegression: booleanQuestion('Is behaviour outside the task unchanged?'),
      changelog: booleanQuestion('Is there a changelog entry?'),
    };
    const client = createScriptedClient([{ docsUpdated: 0.9, noRegression: 0.8, changelog: 0.75 }]);
    const check = await checkCompletion(client, { ...INPUT, questions });
    expect(check.done).toBe(true);
    expect(client.calls[0]?.questions).toBe(questions);
  });

  it('validates again what a hand-written client returns', async () => {
    const cases: [string, unknown][] = [
      ['a probability of 1.5', { answers: { acceptanceCovered: { probability: 1.5 }, noOpenQuestions: { probability: 0.9 } }, model: 'x' }],
      ['NaN', { answers: { acceptanceCovered: { probability: Number.NaN }, noOpenQuestions: { probability: 0.9 } }, model: 'x' }],
      ['a string', { answers: { acceptanceCovered: { probability: '0.99' }, noOpenQuestions: { probability: 0.9 } }, model: 'x' }],
      ['a missing answer', { answers: { acceptanceCovered: { probability: 0.99 } }, model: 'x' }],
      ['nothing', undefined],
    ];
    for (const [label, result] of cases) {
      const client = { evaluate: async () => result } as unknown as DecisionModelClient;
      const error = await checkCompletion(client, INPUT).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isDecisionModelError(error), label).toBe(true);
      expect((error as DecisionModelError).kind, label).toBe('invalid_response');
    }
  });

  it('passes a client error through unchanged, and never turns it into a decision', async () => {
    const failure = new DecisionModelError('rate_limited', 'slow down', { status: 429 });
    await expect(checkCompletion(createScriptedClient([failure]), INPUT)).rejects.toBe(failure);
  });

  it('passes the caller signal to the client and refuses an aborted one', async () => {
    let seen: AbortSignal | undefined;
    const client: DecisionModelClient = {
      evaluate: async (_request, options) => {
        seen = options?.signal;
        return { answers: { acceptanceCovered: { probability: 1 }, noOpenQuestions: { probability: 1 } }, model: 'x' };
      },
    };
    const controller = new AbortController();
    await checkCompletion(client, INPUT, { signal: controller.signal });
    expect(seen).toBe(controller.signal);
    await expect(checkCompletion(client, INPUT, { signal: AbortSignal.abort() })).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('throws a TypeError for misuse', async () => {
    await expect(checkCompletion({} as DecisionModelClient, INPUT)).rejects.toThrow(TypeError);
    await expect(checkCompletion(createScriptedClient([HIGH]), { ...INPUT, output: 42 } as never)).rejects.toThrow(/output/);
    await expect(
      checkCompletion(createScriptedClient([HIGH]), { ...INPUT, policy: { ...createStopPolicy(), doneThreshold: 2 } }),
    ).rejects.toThrow(/doneThreshold/);
  });
});

describe('checkCompletion with a question named __proto__', () => {
  it('keeps the answer, so a low probability is not lost and the run is not done', async () => {
    const questions = JSON.parse('{"__proto__": {"type": "boolean", "instructions": "Is every item handled?"}}') as Record<
      string,
      ReturnType<typeof booleanQuestion>
    >;
    const client: DecisionModelClient = {
      evaluate: async () => ({ model: 'm', answers: JSON.parse('{"__proto__": {"probability": 0.02}}') as Record<string, { probability: number }> }),
    };
    const check = await checkCompletion(client, { ...INPUT, questions });
    expect(check.done).toBe(false);
    expect(Object.keys(check.probabilities)).toEqual(['__proto__']);
    expect(check.lowestProbability).toBe(0.02);
  });
});
