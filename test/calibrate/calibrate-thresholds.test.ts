import { describe, expect, it } from 'vitest';
import { calibrateThresholds } from '../../src/calibrate/calibrate-thresholds.js';
import type { ScoredCase } from '../../src/calibrate/labelled-case.js';
import { createSeededRandom } from '../../src/calibrate/seeded-random.js';
import { policyThresholds, uncertified } from '../../src/calibrate/policy-thresholds.js';
import { decideCompletionAction } from '../../src/core/decide-completion-action.js';
import { decide, initialStopState } from '../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import { drawCase, measureTrueRates, type Miscalibration } from './simulation.js';

const ALPHA = 0.05;
const DELTA = 0.1;
const RUNS = 400;
const CASES_PER_RUN = 400;
// One-sided allowance for the simulation's own error: three binomial standard
// errors of a share near delta over RUNS runs (about 0.045 for 400 runs).
const TOLERANCE = 3 * Math.sqrt((DELTA * (1 - DELTA)) / RUNS);
// Each simulation calibrates hundreds of case sets: CPU-bound, so a busy machine stretches it.
const SIMULATION_TIMEOUT_MS = 180_000;

function cases(count: number, spec: (index: number) => Omit<ScoredCase, 'probabilities'> & { score: number }): ScoredCase[] {
  return Array.from({ length: count }, (_, index) => {
    const { score, ...rest } = spec(index);
    return { ...rest, probabilities: { acceptanceCovered: score } };
  });
}

const PASSED = { passed: true, failed: [], ran: 5 };

describe('calibrateThresholds: the guarantee, by simulation', () => {
  for (const kind of ['well_calibrated', 'over_confident', 'under_confident'] as Miscalibration[]) {
    it(`keeps the true false-done rate at or below alpha in at least 1 - delta of the runs (${kind})`, () => {
      const truth = measureTrueRates(kind, 1_000_000, createSeededRandom(99)).joint;
      let exceeded = 0;
      let naiveExceeded = 0;
      let certified = 0;
      for (let run = 0; run < RUNS; run++) {
        const random = createSeededRandom(10_000 + run);
        const drawn = Array.from({ length: CASES_PER_RUN }, () => drawCase(kind, random));
        const result = calibrateThresholds(drawn, { alpha: ALPHA, delta: DELTA, seed: run });
        if (result.thresholds === null) continue;
        certified++;
        if ((truth[Math.round(result.thresholds.doneThreshold * 100)] as number) > ALPHA) exceeded++;
        // The naive choice, for contrast: the lowest threshold whose observed rate is within alpha.
        const naive = result.curves.calibration.find((point) => point.falseDoneRate !== null && point.falseDoneRate <= ALPHA);
        if (naive !== undefined && (truth[Math.round(naive.threshold * 100)] as number) > ALPHA) naiveExceeded++;
      }
      expect(certified).toBeGreaterThan(RUNS * 0.9);
      expect(exceeded / RUNS).toBeLessThanOrEqual(DELTA + TOLERANCE);
      // The check can fail: picking on the observed rate alone breaks the target far more often.
      expect(naiveExceeded / RUNS).toBeGreaterThan(DELTA + TOLERANCE);
    }, SIMULATION_TIMEOUT_MS);
  }

  it('keeps one minus precision within alpha for the conditional risk', () => {
    const truth = measureTrueRates('well_calibrated', 1_000_000, createSeededRandom(7)).conditional;
    // The walk starts where enough cases stop for a precision test to pass at all.
    const grid = Array.from({ length: 80 }, (_, index) => (90 - index) / 100);
    let exceeded = 0;
    let certified = 0;
    const runs = 300;
    for (let run = 0; run < runs; run++) {
      const random = createSeededRandom(50_000 + run);
      const drawn = Array.from({ length: CASES_PER_RUN }, () => drawCase('well_calibrated', random));
      const result = calibrateThresholds(drawn, { alpha: 0.15, delta: DELTA, seed: run, risk: 'conditional', grid });
      if (result.thresholds === null) continue;
      certified++;
      if ((truth[Math.round(result.thresholds.doneThreshold * 100)] as number) > 0.15) exceeded++;
    }
    expect(certified).toBeGreaterThan(runs / 2);
    expect(exceeded / runs).toBeLessThanOrEqual(DELTA + 3 * Math.sqrt((DELTA * (1 - DELTA)) / runs));
  }, SIMULATION_TIMEOUT_MS);
});

describe('calibrateThresholds', () => {
  const random = createSeededRandom(3);
  const sample = Array.from({ length: 600 }, (_, index) => ({ ...drawCase('well_calibrated', random), taskType: index % 2 === 0 ? 'bugfix' : 'feature' }));

  it("certifies thresholds that the policy it returns and the seed's action table both apply, and says so in words", () => {
    const result = calibrateThresholds(sample, { seed: 1 });
    expect(result.certified).toBe(true);
    const policy = result.thresholds;
    if (policy === null) throw new Error('expected thresholds');
    expect(policyThresholds(result.policy)).toEqual({ done: policy.doneThreshold, low: policy.midBandLow });
    expect(result.policy.rules.map((rule) => rule.id)).toEqual(SEED_STOP_POLICY.rules.map((rule) => rule.id));
    expect(policy.midBandLow).toBeLessThanOrEqual(policy.doneThreshold);
    expect(result.guarantee).toContain(`at least ${policy.doneThreshold}`);
    expect(result.guarantee).toContain('90%');
    expect(result.guarantee).toContain('5% of all cases');
    // The last tested threshold failed and the one before is the certified one.
    const tests = result.doneThreshold.tests;
    expect(tests.at(-1)?.passed).toBe(false);
    expect(tests.at(-2)?.threshold).toBe(policy.doneThreshold);
    expect(tests.slice(0, -1).every((test) => test.pValue <= 0.1)).toBe(true);
    // Held-out figures: counted with the real action table.
    const heldOut = result.heldOut;
    if (heldOut === null) throw new Error('expected held-out figures');
    expect(heldOut.evaluation.cases).toBe(result.cases.holdout);
    expect(heldOut.falseDoneUpper).toBeGreaterThanOrEqual(heldOut.falseDones / heldOut.falseDoneBase);
    const numbers = createStopPolicy(policy);
    const decided = sample.map((labelled) =>
      decideCompletionAction(labelled.probabilities, labelled.tests ?? PASSED, { step: 0, recentFingerprints: [] }, numbers),
    );
    const stoppedByPolicy = sample.filter((labelled) => {
      const decision = decide(result.policy, initialStopState(result.policy), { step: 1, tests: labelled.tests ?? PASSED, probabilities: labelled.probabilities }).decision;
      return decision.kind === 'stop' && decision.exit === 'success';
    });
    expect(decided.filter((action) => action.action === 'stop_done').length).toBe(stoppedByPolicy.length);
    expect(stoppedByPolicy.length).toBe(
      (result.calibrationEvaluation?.confusion.stopDone.done ?? 0) +
        (result.calibrationEvaluation?.confusion.stopDone.notDone ?? 0) +
        heldOut.evaluation.confusion.stopDone.done +
        heldOut.evaluation.confusion.stopDone.notDone,
    );
  });

  it('is deterministic for a seed and stratifies the split by task type and label', () => {
    const a = calibrateThresholds(sample, { seed: 5 });
    const b = calibrateThresholds(sample, { seed: 5 });
    expect(b).toEqual(a);
    // Each (task type, label) group is rounded on its own.
    expect(Math.abs(a.cases.holdout - 180)).toBeLessThanOrEqual(2);
    expect(Object.keys(a.byTaskType)).toEqual(['bugfix', 'feature']);
    expect(a.byTaskType.bugfix?.cases.total).toBe(300);
    expect((a.byTaskType.bugfix?.cases.holdout ?? 0) + (a.byTaskType.feature?.cases.holdout ?? 0)).toBe(a.cases.holdout);
  });

  it('certifies no thresholds on too few cases, returns a policy that hands off instead of stopping, and says how many would be needed', () => {
    const few = cases(30, (index) => ({ score: 0.5 + index / 100, tests: PASSED, label: 'done' }));
    const result = calibrateThresholds(few, { holdout: 0 });
    expect(result.certified).toBe(false);
    expect(result.thresholds).toBeNull();
    expect(result.policy).toEqual(uncertified(SEED_STOP_POLICY));
    expect(result.guarantee).toContain('No guarantee: on 30 calibration cases');
    // (1 - 0.05)^n <= 0.1 first holds at n = 45.
    expect(result.casesNeeded).toEqual({ basis: 'no_false_done', observedRate: 0, calibrationCases: 45, totalCases: 45 });
    expect(result.recommendation).toContain("Never stop on the decision model's word alone");
    expect(result.recommendation).toContain('About 45 labelled cases');
    expect(calibrateThresholds(few, { holdout: 0.3 }).casesNeeded).toMatchObject({ totalCases: 65 });
  });

  it('says that more cases will not help when the most confident cases are wrong too often', () => {
    const bad = cases(200, (index) => ({ score: 0.995, tests: PASSED, label: index % 5 === 0 ? 'not_done' : 'done' }));
    const result = calibrateThresholds(bad, { holdout: 0 });
    expect(result.thresholds).toBeNull();
    expect(result.casesNeeded).toEqual({ basis: 'rate_too_high', observedRate: 0.2 });
    expect(result.recommendation).toContain('more cases will not help');
  });

  it('never counts a case whose tests failed or did not run as a false done', () => {
    const failing = cases(300, (index) => ({
      score: 0.99,
      tests: index % 2 === 0 ? { passed: false, failed: ['t'], ran: 3 } : { passed: false, failed: [], ran: 0 },
      label: 'not_done',
    }));
    const result = calibrateThresholds(failing, { holdout: 0 });
    expect(result.doneThreshold.tests.every((test) => test.falseDones === 0)).toBe(true);
    expect(result.thresholds?.doneThreshold).toBe(0.01);
    expect(result.warnings.join(' ')).toContain('every case is labelled not_done');
  });

  it('treats a case without tests as if its tests had passed, and warns', () => {
    const noTests = cases(300, (index) => ({ score: 0.995, label: index < 30 ? 'not_done' : 'done' }));
    const result = calibrateThresholds(noTests, { holdout: 0 });
    expect(result.doneThreshold.tests[0]?.falseDones).toBe(30);
    expect(result.thresholds).toBeNull();
    expect(result.warnings.join(' ')).toContain('300 cases carry no test evidence');
  });

  it('accepts holdout 0 and reports no held-out figures', () => {
    const result = calibrateThresholds(sample, { holdout: 0 });
    expect(result.heldOut).toBeNull();
    expect(result.cases.calibration).toBe(600);
    expect(result.recommendation).toContain('No cases were held out');
  });

  it('uses the Hoeffding–Bentkus p-values when asked, never certifying lower than the exact test', () => {
    const exact = calibrateThresholds(sample, { seed: 2 });
    const bounded = calibrateThresholds(sample, { seed: 2, method: 'hoeffding-bentkus' });
    expect(bounded.thresholds?.doneThreshold).toBeGreaterThanOrEqual(exact.thresholds?.doneThreshold ?? 1);
    for (const test of bounded.doneThreshold.tests) expect(test.pValue).toBe(test.hoeffdingBentkusPValue);
  });

  it('calibrates the thresholds of the policy given and keeps its other rules', () => {
    const team = parseStopPolicy({
      version: 2,
      name: 'team',
      rules: [
        { id: 'cap', when: { limit: { of: 'cost', max: 5 } }, then: { kind: 'stop', exit: 'limit', reason: 'cap' } },
        { id: 'red', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'red' } },
        { id: 'ok', when: { all: [{ tests: 'passed' }, { criteria: { criterion: 'criterion', gte: 0.5 } }] }, then: { kind: 'stop', exit: 'success', reason: 'ok' } },
        { id: 'unsure', when: { criteria: { lt: 0.2 } }, then: { kind: 'stop', exit: 'need_help', reason: 'unsure' } },
        { id: 'again', when: { always: true }, then: { kind: 'retry', reason: 'again' } },
      ],
    });
    const result = calibrateThresholds(sample, { seed: 1, policy: team });
    const thresholds = result.thresholds;
    if (thresholds === null) throw new Error('expected thresholds');
    expect(result.policy.rules.map((rule) => rule.id)).toEqual(['cap', 'red', 'ok', 'unsure', 'again']);
    expect(result.policy.rules[0]).toEqual(team.rules[0]);
    expect(result.policy.rules[2]?.when).toEqual({ all: [{ tests: 'passed' }, { criteria: { criterion: 'criterion', gte: thresholds.doneThreshold } }] });
    expect(result.policy.rules[3]?.when).toEqual({ criteria: { lt: thresholds.midBandLow } });
    expect(result.settings).not.toHaveProperty('policy');
    // The same cases under the seed: the same walk, since both stop only passing cases at the bound.
    expect(result.doneThreshold.tests.map((test) => test.falseDones)).toEqual(calibrateThresholds(sample, { seed: 1 }).doneThreshold.tests.map((test) => test.falseDones));
    expect(() => calibrateThresholds(sample, { policy: parseStopPolicy({ version: 2, rules: [{ id: 'x', when: { always: true }, then: { kind: 'continue' } }] }) })).toThrow(/no threshold to calibrate/);
  });

  it('rejects bad options and unscored cases with the field named', () => {
    expect(() => calibrateThresholds(sample, { alpha: 0 })).toThrow(/alpha/);
    expect(() => calibrateThresholds(sample, { delta: 1 })).toThrow(/delta/);
    expect(() => calibrateThresholds(sample, { holdout: 1 })).toThrow(/holdout/);
    expect(() => calibrateThresholds(sample, { seed: 1.5 })).toThrow(/seed/);
    expect(() => calibrateThresholds(sample, { grid: [] })).toThrow(/grid/);
    expect(() => calibrateThresholds(sample, { grid: [1.2] })).toThrow(/grid/);
    expect(() => calibrateThresholds(sample, { risk: 'other' as 'joint' })).toThrow(/risk/);
    expect(() => calibrateThresholds(sample, { maxFalseHandoff: 0 })).toThrow(/maxFalseHandoff/);
    expect(() => calibrateThresholds([{ label: 'done', task: 't', output: 'o' } as unknown as ScoredCase])).toThrow(
      /case 0 has no probabilities/,
    );
  });
});
