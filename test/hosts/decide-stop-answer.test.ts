import { describe, expect, it } from 'vitest';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import { decideStopAnswer, type StopAnswerParts } from '../../src/hosts/decide-stop-answer.js';
import type { StopHookCheck } from '../../src/hosts/decide-stop-hook.js';

const policy = createStopPolicy({});
const config = { task: 'Reject expired tokens', acceptance: ['expired tokens get a 401'], policy };
const input = { hook_event_name: 'Stop', session_id: 's', stop_hook_active: false } as const;
const green = { passed: true, failed: [], ran: 4 };
const red = { passed: false, failed: ['auth > refreshes'], ran: 4 };
const none = { passed: false, failed: [], ran: 0 };
const firstAttempt = { step: 1, recentFingerprints: [] };
const below: StopHookCheck = { modelSaysDone: false, probabilities: { acceptanceCovered: 0.2, noOpenQuestions: 0.9 } };

function asking(check: StopHookCheck): { askModel: () => Promise<StopHookCheck>; asked: () => number } {
  let count = 0;
  return {
    askModel: async () => {
      count += 1;
      return check;
    },
    asked: () => count,
  };
}

function parts(overrides: Partial<StopAnswerParts>): StopAnswerParts {
  return { input, config, tests: green, loop: firstAttempt, reEntered: false, ...overrides };
}

describe('decideStopAnswer', () => {
  it('asks the decision model on passing tests and blocks below the threshold with the task as context', async () => {
    const model = asking(below);
    const answer = await decideStopAnswer(parts({ askModel: model.askModel }));
    expect(model.asked()).toBe(1);
    expect(answer.decision).toMatchObject({ decision: 'block', reason: expect.stringContaining('acceptanceCovered') });
    expect(answer.additionalContext).toBe('Task: Reject expired tokens\nAcceptance criteria:\n- expired tokens get a 401');
  });

  it('asks the decision model on failing tests too (a model that says done hands off), with no context on the block', async () => {
    const model = asking({ modelSaysDone: true, probabilities: { acceptanceCovered: 0.95, noOpenQuestions: 0.95 } });
    const answer = await decideStopAnswer(parts({ tests: red, askModel: model.askModel }));
    expect(model.asked()).toBe(1);
    expect(answer).toEqual({ decision: { systemMessage: expect.stringContaining('a person should review') } });
    expect(await decideStopAnswer(parts({ tests: red }))).toEqual({ decision: expect.objectContaining({ decision: 'block' }) });
  });

  it('does not ask when no test ran or the attempt re-enters', async () => {
    const model = asking(below);
    expect((await decideStopAnswer(parts({ tests: none, askModel: model.askModel }))).decision).toMatchObject({ decision: 'block' });
    expect(await decideStopAnswer(parts({ reEntered: true, askModel: model.askModel }))).toEqual({ decision: undefined });
    expect(model.asked()).toBe(0);
  });

  it('hands off at the step cap before asking anything', async () => {
    const model = asking(below);
    const answer = await decideStopAnswer(parts({ loop: { step: policy.maxSteps, recentFingerprints: [] }, tests: red, askModel: model.askModel }));
    expect(answer.decision).toEqual({ systemMessage: expect.stringContaining('step cap') });
    expect(model.asked()).toBe(0);
  });

  it('allows passing tests silently without a model', async () => {
    expect(await decideStopAnswer(parts({}))).toEqual({ decision: undefined });
  });
});
