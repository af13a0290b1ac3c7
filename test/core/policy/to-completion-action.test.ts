import { describe, expect, it } from 'vitest';
import { decide, initialStopState } from '../../../src/core/policy/decide.js';
import { SEED_STOP_POLICY, seedStopPolicy } from '../../../src/core/policy/seed-stop-policy.js';
import { toCompletionAction } from '../../../src/core/policy/to-completion-action.js';
import { createStopPolicy, DEFAULT_POLICY } from '../../../src/core/stop-policy.js';

describe('toCompletionAction', () => {
  it('maps each exit of the preset to the CompletionAction of its rule', () => {
    const state = initialStopState(SEED_STOP_POLICY);
    const cases = [
      [{ step: 20, tests: { passed: true, failed: [], ran: 3 }, probabilities: { a: 1 } }, 'handoff_human', 'hard_cap', 'limit'],
      [{ step: 1, tests: { passed: false, failed: [], ran: 0 } }, 'retry', 'no_tests_ran', undefined],
      [{ step: 1, tests: { passed: false, failed: ['t'], ran: 2 }, probabilities: { a: 0.9 } }, 'handoff_human', 'evidence_contradicts_model', 'need_help'],
      [{ step: 1, tests: { passed: true, failed: [], ran: 2 }, probabilities: { a: 0.9 } }, 'stop_done', 'tests_and_criteria_passed', 'success'],
      [{ step: 1, tests: { passed: true, failed: [], ran: 2 }, probabilities: { a: 0.1 } }, 'handoff_human', 'criteria_low', 'need_help'],
    ] as const;
    for (const [event, action, reason, exit] of cases) {
      const { decision } = decide(SEED_STOP_POLICY, state, event);
      expect(toCompletionAction(decision)).toMatchObject({ action, reason });
      if (exit !== undefined) expect(decision).toMatchObject({ kind: 'stop', exit });
    }
  });

  it('refuses to map a decision made with other thresholds, or by another policy', () => {
    const strict = createStopPolicy({ doneThreshold: 0.9 });
    const { decision } = decide(seedStopPolicy(strict), initialStopState(SEED_STOP_POLICY), {
      step: 1,
      tests: { passed: true, failed: [], ran: 2 },
      probabilities: { a: 0.95 },
    });
    expect(toCompletionAction(decision, strict).action).toBe('stop_done');
    expect(() => toCompletionAction(decision, DEFAULT_POLICY)).toThrow(/pass the StopPolicy the seed preset was made with/);
    expect(() => toCompletionAction({ ...decision, rule: 'my_rule' })).toThrow(/not a rule of the seed preset/);
  });

  it('gives each rule of the preset its number and the values of the action table', () => {
    const state = initialStopState(SEED_STOP_POLICY);
    const action = (event: Parameters<typeof decide>[2], from = state) => toCompletionAction(decide(SEED_STOP_POLICY, from, event).decision);
    const pass = { passed: true, failed: [], ran: 2 };
    expect(action({ step: 20, tests: pass, probabilities: { a: 1 } })).toEqual({ action: 'handoff_human', reason: 'hard_cap', rule: 1, values: { step: 20, maxSteps: 20 } });
    expect(action({ step: 3, tests: pass, probabilities: { a: 1 }, fingerprint: 'f' }, { ...state, step: 2, fingerprints: ['f', 'f'] })).toEqual({
      action: 'handoff_human', reason: 'stalled', rule: 2, values: { step: 3, stallRounds: 3, fingerprint: 'f' },
    });
    expect(action({ step: 1, tests: { passed: false, failed: ['t'], ran: 2 }, probabilities: { a: 0.2 } })).toEqual({
      action: 'retry', reason: 'tests_failed', rule: 5,
      values: { step: 1, ran: 2, lowestProbability: 0.2, lowestCriterion: 'a', doneThreshold: 0.7, midBandLow: 0.4, failed: ['t'] },
    });
    expect(action({ step: 1, tests: pass, probabilities: { a: 0.5 } })).toMatchObject({ action: 'retry', reason: 'criteria_mid_band', rule: 7 });
  });
});
