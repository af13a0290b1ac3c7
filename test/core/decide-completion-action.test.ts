import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentLoopState } from '../../src/core/agent-loop-state.js';
import { decideCompletionAction } from '../../src/core/decide-completion-action.js';
import { decide, needsJudgement } from '../../src/core/policy/decide.js';
import { seedStopPolicy } from '../../src/core/policy/seed-stop-policy.js';
import { toCompletionAction } from '../../src/core/policy/to-completion-action.js';
import { seedStep } from '../../src/core/seed-step.js';
import { createStopPolicy, DEFAULT_POLICY, type StopPolicy } from '../../src/core/stop-policy.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { loopState, probabilities, stopPolicy, testEvidence } from './arbitraries.js';

const PASS: TestEvidence = { passed: true, failed: [], ran: 12 };
const FAIL: TestEvidence = { passed: false, failed: ['auth > rejects expired token'], ran: 12 };
const NONE: TestEvidence = { passed: false, failed: [], ran: 0 };
const LOOP: AgentLoopState = { step: 2, recentFingerprints: ['a', 'b'] };
const both = (p: number) => ({ acceptanceCovered: p, noOpenQuestions: 0.99 });

/** What the seed preset decides from the evidence and the loop state alone, without the model (rules 1 to 3), or undefined when it needs the model. */
function decidedWithoutModel(tests: TestEvidence, loop: AgentLoopState, policy: StopPolicy = DEFAULT_POLICY) {
  const document = seedStopPolicy(policy);
  const { state, event } = seedStep(document, loop, tests);
  if (needsJudgement(document, state, event)) return undefined;
  return toCompletionAction(decide(document, state, event).decision, policy);
}

describe('decideCompletionAction: one case per rule', () => {
  it('rule 1: step at the cap hands off with hard_cap', () => {
    const action = decideCompletionAction(both(0.99), PASS, { step: 20, recentFingerprints: [] });
    expect(action).toEqual({ action: 'handoff_human', reason: 'hard_cap', rule: 1, values: { step: 20, maxSteps: 20 } });
    expect(decideCompletionAction(both(0.99), PASS, { step: 25, recentFingerprints: [] }).reason).toBe('hard_cap');
    expect(decideCompletionAction(both(0.99), PASS, { step: 19, recentFingerprints: [] }).reason).not.toBe('hard_cap');
  });

  it('rule 2: three identical fingerprints hand off with stalled', () => {
    const action = decideCompletionAction(both(0.99), PASS, { step: 5, recentFingerprints: ['x', 'f', 'f', 'f'] });
    expect(action).toEqual({
      action: 'handoff_human',
      reason: 'stalled',
      rule: 2,
      values: { step: 5, stallRounds: 3, fingerprint: 'f' },
    });
  });

  it('rule 2 needs at least stallRounds fingerprints, all identical', () => {
    expect(decideCompletionAction(both(0.99), PASS, { step: 5, recentFingerprints: ['f', 'f'] }).reason).toBe(
      'tests_and_criteria_passed',
    );
    expect(decideCompletionAction(both(0.99), PASS, { step: 5, recentFingerprints: ['f', 'g', 'f'] }).reason).toBe(
      'tests_and_criteria_passed',
    );
  });

  it('rule 3: no tests ran retries, even when the result says failed or passed', () => {
    expect(decideCompletionAction(both(0.99), NONE, LOOP)).toEqual({
      action: 'retry',
      reason: 'no_tests_ran',
      rule: 3,
      values: { step: 2, ran: 0 },
    });
    expect(decideCompletionAction(both(0.99), { passed: true, failed: [], ran: 0 }, LOOP).reason).toBe('no_tests_ran');
    expect(decideCompletionAction(both(0.99), { passed: false, failed: ['x'], ran: 0 }, LOOP).reason).toBe(
      'no_tests_ran',
    );
  });

  it('rule 4: failed tests while the model says done hand off', () => {
    const action = decideCompletionAction(both(0.95), FAIL, LOOP);
    expect(action).toMatchObject({
      action: 'handoff_human',
      reason: 'evidence_contradicts_model',
      rule: 4,
      values: { failed: ['auth > rejects expired token'], lowestProbability: 0.95, doneThreshold: 0.7 },
    });
  });

  it('rule 5: failed tests while the model agrees it is not done retry', () => {
    expect(decideCompletionAction(both(0.3), FAIL, LOOP)).toMatchObject({
      action: 'retry',
      reason: 'tests_failed',
      rule: 5,
      values: { failed: ['auth > rejects expired token'], lowestProbability: 0.3 },
    });
  });

  it('rule 6: passing tests and every criterion at or above the threshold stop done', () => {
    expect(decideCompletionAction(both(0.8), PASS, LOOP)).toEqual({
      action: 'stop_done',
      reason: 'tests_and_criteria_passed',
      rule: 6,
      values: {
        step: 2,
        ran: 12,
        lowestProbability: 0.8,
        lowestCriterion: 'acceptanceCovered',
        doneThreshold: 0.7,
        midBandLow: 0.4,
      },
    });
  });

  it('rule 7: passing tests with the lowest probability in the mid band retry', () => {
    expect(decideCompletionAction(both(0.55), PASS, LOOP)).toMatchObject({ action: 'retry', reason: 'criteria_mid_band', rule: 7 });
  });

  it('rule 8: passing tests with the lowest probability below the band hand off', () => {
    expect(decideCompletionAction(both(0.2), PASS, LOOP)).toMatchObject({
      action: 'handoff_human',
      reason: 'criteria_low',
      rule: 8,
    });
  });

  it('a passed run that lists failed names counts as failed', () => {
    expect(decideCompletionAction(both(0.9), { passed: true, failed: ['x'], ran: 3 }, LOOP).reason).toBe(
      'evidence_contradicts_model',
    );
  });
});

describe('decideCompletionAction: boundaries', () => {
  it('0.7 is done (inclusive), just below is mid band', () => {
    expect(decideCompletionAction(both(0.7), PASS, LOOP).action).toBe('stop_done');
    expect(decideCompletionAction(both(0.6999999999999999), PASS, LOOP).reason).toBe('criteria_mid_band');
  });

  it('0.4 is mid band (inclusive), just below is criteria_low', () => {
    expect(decideCompletionAction(both(0.4), PASS, LOOP).reason).toBe('criteria_mid_band');
    expect(decideCompletionAction(both(0.39999999999999997), PASS, LOOP).reason).toBe('criteria_low');
  });

  it('0.7 with failing tests is evidence_contradicts_model, just below is tests_failed', () => {
    expect(decideCompletionAction(both(0.7), FAIL, LOOP).reason).toBe('evidence_contradicts_model');
    expect(decideCompletionAction(both(0.69), FAIL, LOOP).reason).toBe('tests_failed');
  });

  it('uses the thresholds of the policy it is given', () => {
    const policy = createStopPolicy({ doneThreshold: 0.9, midBandLow: 0.6, maxSteps: 5, stallRounds: 2 });
    expect(decideCompletionAction(both(0.85), PASS, LOOP, policy).reason).toBe('criteria_mid_band');
    expect(decideCompletionAction(both(0.5), PASS, LOOP, policy).reason).toBe('criteria_low');
    expect(decideCompletionAction(both(0.95), PASS, { step: 5, recentFingerprints: [] }, policy).reason).toBe('hard_cap');
    expect(decideCompletionAction(both(0.95), PASS, { step: 1, recentFingerprints: ['z', 'z'] }, policy).reason).toBe(
      'stalled',
    );
  });
});

describe('decideCompletionAction: rule order', () => {
  it('cap before stall before no tests', () => {
    const stalledAtCap = { step: 20, recentFingerprints: ['f', 'f', 'f'] };
    expect(decideCompletionAction(both(0.1), NONE, stalledAtCap).reason).toBe('hard_cap');
    expect(decideCompletionAction(both(0.1), NONE, { ...stalledAtCap, step: 3 }).reason).toBe('stalled');
    expect(decideCompletionAction(both(0.1), NONE, { step: 3, recentFingerprints: ['f'] }).reason).toBe('no_tests_ran');
  });

  it('no tests before evidence_contradicts_model', () => {
    expect(decideCompletionAction(both(0.99), { passed: false, failed: ['a'], ran: 0 }, LOOP).reason).toBe('no_tests_ran');
  });
});

describe('decideCompletionAction: criteria', () => {
  it('combines any number of named criteria with AND', () => {
    const many = { a: 0.99, b: 0.95, c: 0.71, d: 0.9, e: 0.88 };
    expect(decideCompletionAction(many, PASS, LOOP)).toMatchObject({ action: 'stop_done', values: { lowestCriterion: 'c' } });
    expect(decideCompletionAction({ ...many, f: 0.69 }, PASS, LOOP)).toMatchObject({
      reason: 'criteria_mid_band',
      values: { lowestCriterion: 'f', lowestProbability: 0.69 },
    });
  });

  it('with no criteria, evidence alone decides (the judgement is vacuous)', () => {
    const action = decideCompletionAction({}, PASS, LOOP);
    expect(action).toMatchObject({ action: 'stop_done', values: { lowestProbability: 1 } });
    expect(action.values).not.toHaveProperty('lowestCriterion');
    expect(decideCompletionAction({}, FAIL, LOOP).reason).toBe('evidence_contradicts_model');
  });

  it.each([Number.NaN, -0.5, 1.5, Number.POSITIVE_INFINITY, undefined, null, '0.9'])(
    'throws a RangeError for the probability %s, even when a rule 1-3 would fire',
    (bad) => {
      const probabilities = { acceptanceCovered: 0.99, noOpenQuestions: bad as number };
      expect(() => decideCompletionAction(probabilities, PASS, LOOP)).toThrow(RangeError);
      expect(() => decideCompletionAction(probabilities, NONE, { step: 99, recentFingerprints: [] })).toThrow(
        /noOpenQuestions/,
      );
    },
  );

  it('rejects a malformed policy, evidence or loop state instead of deciding', () => {
    expect(() => decideCompletionAction(both(0.9), PASS, LOOP, { ...DEFAULT_POLICY, doneThreshold: Number.NaN })).toThrow(
      TypeError,
    );
    expect(() => decideCompletionAction(both(0.9), { passed: true, failed: [], ran: Number.NaN }, LOOP)).toThrow(TypeError);
    expect(() => decideCompletionAction(both(0.9), PASS, { step: -1, recentFingerprints: [] })).toThrow(TypeError);
  });
});

describe('the seed preset without the model (needsJudgement + decide)', () => {
  it('needs the model when the evidence alone does not decide', () => {
    expect(decidedWithoutModel(PASS, LOOP)).toBeUndefined();
    expect(decidedWithoutModel(FAIL, LOOP)).toBeUndefined();
  });

  it('decides rules 1 to 3 without it', () => {
    expect(decidedWithoutModel(PASS, { step: 20, recentFingerprints: [] })?.reason).toBe('hard_cap');
    expect(decidedWithoutModel(PASS, { step: 3, recentFingerprints: ['f', 'f', 'f'] })?.reason).toBe('stalled');
    expect(decidedWithoutModel(NONE, LOOP)?.reason).toBe('no_tests_ran');
  });
});

describe('properties', { timeout: 120_000 }, () => {
  // Each new policy of the arbitrary is parsed once (milliseconds on a busy machine): runs in the hundreds.
  const config = { numRuns: 300 };

  it('never stops done when tests failed or none ran', () => {
    fc.assert(
      fc.property(probabilities, testEvidence, loopState, stopPolicy, (p, tests, loop, policy) => {
        const failedOrNone = tests.ran === 0 || !tests.passed || tests.failed.length > 0;
        fc.pre(failedOrNone);
        expect(decideCompletionAction(p, tests, loop, policy).action).not.toBe('stop_done');
      }),
      config,
    );
  });

  it('always hands off with hard_cap at or past the cap', () => {
    fc.assert(
      fc.property(probabilities, testEvidence, loopState, stopPolicy, fc.nat(50), (p, tests, loop, policy, extra) => {
        const action = decideCompletionAction(p, tests, { ...loop, step: policy.maxSteps + extra }, policy);
        expect(action).toMatchObject({ action: 'handoff_human', reason: 'hard_cap', rule: 1 });
      }),
      config,
    );
  });

  it('agrees with the decision made without the model whenever rules 1 to 3 fire', () => {
    fc.assert(
      fc.property(probabilities, testEvidence, loopState, stopPolicy, (p, tests, loop, policy) => {
        const early = decidedWithoutModel(tests, loop, policy);
        const full = decideCompletionAction(p, tests, loop, policy);
        if (early === undefined) expect(full.rule).toBeGreaterThanOrEqual(4);
        else expect(full).toEqual(early);
      }),
      config,
    );
  });

  it('raising every probability never turns stop_done into anything else', () => {
    // Only passing evidence can be stop_done (the first property): the evidence is drawn from exactly those values
    // rather than filtered out of all of them by the precondition, which cost most of the runs.
    const passing = testEvidence.map((tests) => ({ ...tests, passed: true, failed: [], ran: Math.max(1, tests.ran) }));
    fc.assert(
      fc.property(
        probabilities,
        passing,
        loopState,
        stopPolicy,
        fc.double({ min: 0, max: 1, noNaN: true }),
        (p, tests, loop, policy, lift) => {
          fc.pre(decideCompletionAction(p, tests, loop, policy).action === 'stop_done');
          const raised = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, Math.min(1, v + (1 - v) * lift)]));
          expect(decideCompletionAction(raised, tests, loop, policy).action).toBe('stop_done');
        },
      ),
      // Most runs are skipped by the precondition: fewer than the others.
      { numRuns: 150 },
    );
  });

  it('returns plain JSON data', () => {
    fc.assert(
      fc.property(probabilities, testEvidence, loopState, (p, tests, loop) => {
        const action = decideCompletionAction(p, tests, loop);
        expect(JSON.parse(JSON.stringify(action))).toEqual(action);
      }),
      { numRuns: 300 },
    );
  });
});
