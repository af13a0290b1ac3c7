import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideCompletionAction } from '../../../src/core/decide-completion-action.js';
import { DEFAULT_POLICY } from '../../../src/core/stop-policy.js';
import { isEvaluationError } from '../../../src/judge/evaluation-error.js';
import { judgeStep } from '../../../src/integrations/ai-sdk/judge-step.js';
import { answeringClient } from './answering-client.js';

const input = {
  task: 'Fix paginate',
  output: 'Fixed it.',
  acceptance: ['the last page is returned'],
  tests: { passed: true, failed: [], ran: 3 },
  loop: { step: 1, recentFingerprints: [] },
};

describe('judgeStep', () => {
  it('asks every question in one request and decides with the answers', async () => {
    const client = answeringClient([{ acceptanceCovered: 0.9, noOpenQuestions: 0.8 }]);
    const decision = await judgeStep(client, input);
    expect(decision).toMatchObject({ action: 'stop_done', evaluated: true, model: 'scripted-judge', probabilities: { acceptanceCovered: 0.9, noOpenQuestions: 0.8 } });
    expect(client.calls).toHaveLength(1);
    expect(client.calls[0]?.state).toEqual({ task: 'Fix paginate', output: 'Fixed it.', acceptance: ['the last page is returned'], tests: { passed: true, ran: 3, failed: [] } });
  });

  it('does not ask when rules 1 to 3 decide', async () => {
    const client = answeringClient([]);
    expect(await judgeStep(client, { ...input, tests: { passed: true, failed: [], ran: 0 } })).toMatchObject({ reason: 'no_tests_ran', evaluated: false });
    expect(await judgeStep(client, { ...input, loop: { step: 20, recentFingerprints: [] } })).toMatchObject({ reason: 'hard_cap', evaluated: false });
    expect(client.calls).toHaveLength(0);
  });

  it('reaches the same action as asking first would', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 25 }),
        async (probability, passed, ran, step) => {
          const tests = { passed, failed: passed ? [] : ['t'], ran };
          const loop = { step, recentFingerprints: [] };
          const answers = { acceptanceCovered: probability, noOpenQuestions: 1 };
          const { evaluated: _evaluated, probabilities: _p, model: _m, ...action } = await judgeStep(answeringClient([answers]), { ...input, tests, loop });
          expect(action).toEqual(decideCompletionAction(answers, tests, loop, DEFAULT_POLICY));
        },
      ),
    );
  });

  it('rejects an answer set that is not a probability for every asked question', async () => {
    for (const answers of [{ acceptanceCovered: 0.9 }, { acceptanceCovered: Number.NaN, noOpenQuestions: 1 }, { acceptanceCovered: -0.1, noOpenQuestions: 1 }]) {
      await expect(judgeStep(answeringClient([answers]), input)).rejects.toSatisfy(
        (error: unknown) => isEvaluationError(error) && error.kind === 'invalid_response',
      );
    }
    const noAnswers = { evaluate: async () => ({ model: 'm' }) as never };
    await expect(judgeStep(noAnswers, input)).rejects.toThrow(/no answers object/);
  });
});
