import { describe, expect, it } from 'vitest';
import { hookStopPolicy } from '../../src/core/policy/hook-stop-policy.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { initialStopState } from '../../src/core/policy/stop-state.js';
import { decideStopAttempt, type StopAttemptParts } from '../../src/hosts/decide-stop-attempt.js';
import type { StopHookCheck } from '../../src/hosts/stop-hook-decision.js';

const green = { passed: true, failed: [], ran: 3 };
const none = { passed: false, failed: [], ran: 0 };
const policy = hookStopPolicy();

function parts(overrides: Partial<StopAttemptParts>): StopAttemptParts {
  return { policy, state: initialStopState(policy), tests: green, output: 'done', reentered: false, maxConsecutiveBlocks: 1, ...overrides };
}

function model(check: StopHookCheck): { askModel: () => Promise<StopHookCheck>; calls: () => number } {
  let calls = 0;
  return { askModel: async () => (calls++, check), calls: () => calls };
}

describe('decideStopAttempt', () => {
  it('asks the decision model only when the rules need it, and puts its answer in the event', async () => {
    const asked = model({ modelSaysDone: false, probabilities: { acceptanceCovered: 0.3 } });
    const result = await decideStopAttempt(parts({ askModel: asked.askModel }));
    expect(asked.calls()).toBe(1);
    expect(result.event).toEqual({ step: 1, tests: green, output: 'done', probabilities: { acceptanceCovered: 0.3 } });
    expect(result.decision).toMatchObject({ kind: 'retry', rule: 'criteria_below_threshold' });
    expect(result.answer).toMatchObject({ decision: 'block', reason: expect.stringContaining('acceptanceCovered') });
    const skipped = await decideStopAttempt(parts({ tests: none, askModel: asked.askModel }));
    expect(asked.calls()).toBe(1);
    expect(skipped.event).toEqual({ step: 1, tests: none, output: 'done' });
  });

  it('says why an event has no probabilities: no model, or a model that could not be asked', async () => {
    expect((await decideStopAttempt(parts({}))).event).toMatchObject({ judge: 'none' });
    const down = await decideStopAttempt(parts({ askModel: async () => new Error('HTTP 503') }));
    expect(down.event).toMatchObject({ judge: 'unavailable' });
    expect(down.answer).toEqual({ systemMessage: expect.stringContaining('could not be asked (HTTP 503)') });
  });

  it('numbers the attempt after the state, and carries the host flag and the task type', async () => {
    const first = await decideStopAttempt(parts({ tests: none }));
    const second = await decideStopAttempt(parts({ tests: none, state: first.state, reentered: true, taskType: 'bugfix' }));
    expect(second.event).toMatchObject({ step: 2, reentered: true, taskType: 'bugfix' });
    expect(second.decision).toMatchObject({ kind: 'stop', rule: 'no_tests_after_block' });
  });

  it('hands off a block that a policy asks for after maxConsecutiveBlocks blocks in a row', async () => {
    const always = parseStopPolicy({ version: 1, rules: [{ id: 'again', when: { always: true }, then: { kind: 'retry', reason: 'again' } }] });
    let state = initialStopState(always);
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const result = await decideStopAttempt(parts({ policy: always, state, output: `try ${i}`, maxConsecutiveBlocks: 2 }));
      answers.push(result.answer === undefined ? 'allow' : 'decision' in result.answer ? 'block' : 'handoff');
      state = result.state;
    }
    expect(answers).toEqual(['block', 'block', 'handoff']);
  });
});
