import { describe, expect, it } from 'vitest';
import { formatUnmet } from '../../../src/core/policy/compile-stop-policy.js';
import { decide } from '../../../src/core/policy/decide.js';
import { describeDecision } from '../../../src/core/policy/describe-decision.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import { initialStopState } from '../../../src/core/policy/stop-state.js';

const state = initialStopState(SEED_STOP_POLICY);
const PASS = { passed: true, failed: [], ran: 12 };

describe('describeDecision', () => {
  it('says what was decided, by which rule, with the values compared', () => {
    expect(describeDecision(decide(SEED_STOP_POLICY, state, { step: 20, tests: PASS, probabilities: { a: 1 } }).decision)).toBe(
      'stop (limit: hard_cap) at step 20 by rule hard_cap: steps 20, maxSteps 20',
    );
    expect(describeDecision(decide(SEED_STOP_POLICY, state, { step: 4, tests: PASS, probabilities: { acceptanceCovered: 0.5 } }).decision)).toBe(
      'retry (criteria_mid_band) at step 4 by rule criteria_mid_band: ran 12, lowestCriterion acceptanceCovered, lowestProbability 0.5, band [0.4, 0.7] ' +
        '(Not done yet (criteria_mid_band, rule criteria_mid_band): not met yet: acceptanceCovered.)',
    );
  });
});

describe('formatUnmet', () => {
  it('writes the part of a condition that did not hold as one line', () => {
    const { decision } = decide(SEED_STOP_POLICY, state, { step: 14, tests: PASS, probabilities: { a: 0.9 } });
    expect(decision.trace.map((entry) => `${entry.rule}: ${formatUnmet(entry.unmet)}`)).toEqual([
      'hard_cap: limit.steps: 14 < 20',
      'stalled: stall.identical: 1 of 3 identical',
      'no_tests_ran: tests.no_tests_ran: 12 ran',
      'evidence_contradicts_model: all[0].tests.failed: 12 ran, none failed',
      'tests_failed: all[0].tests.failed: 12 ran, none failed',
    ]);
  });
});
