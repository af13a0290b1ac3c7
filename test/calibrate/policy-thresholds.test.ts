import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScoredCase } from '../../src/calibrate/labelled-case.js';
import {
  caseDecisions,
  decideCase,
  handsOff,
  policyThresholds,
  stopsAsDone,
  uncertified,
  verdictCounts,
  verdictOf,
  withThresholds,
    type CaseVerdict,
  type PolicyThresholds,
  type VerdictCounts,
} from '../../src/calibrate/policy-thresholds.js';
import { decideCompletionAction } from '../../src/core/decide-completion-action.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY, seedStopPolicy } from '../../src/core/policy/seed-stop-policy.js';
import type { RuleCondition, RuleOutcome, StopPolicyDocument } from '../../src/core/policy/stop-policy-document.js';
import { setStopObserver } from '../../src/core/stop-observer.js';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { probabilities, stopPolicy, testEvidence } from '../core/arbitraries.js';

const PASSED: TestEvidence = { passed: true, failed: [], ran: 3 };
const FAILED: TestEvidence = { passed: false, failed: ['x'], ran: 3 };
const NONE: TestEvidence = { passed: false, failed: [], ran: 0 };

const stop = (exit: 'success' | 'need_help' | 'limit', reason: string): RuleOutcome => ({ kind: 'stop', exit, reason });

/** A policy that is not the seed: nested conditions, a named criterion with a bound of its own, a task type. */
const custom = parseStopPolicy({
  version: 2,
  name: 'custom',
  rules: [
    { id: 'docs_low', when: { all: [{ taskType: 'docs' }, { criteria: { criterion: 'docsUpdated', lt: 0.5 } }] }, then: { kind: 'retry', reason: 'docs_low' } },
    {
      id: 'done',
      when: { all: [{ any: [{ tests: 'passed' }, { taskType: 'docs' }] }, { not: { tests: 'failed' } }, { criteria: { gte: 0.8 } }] },
      then: stop('success', 'done'),
    },
    { id: 'band', when: { criteria: { within: [0.3, 0.8] } }, then: { kind: 'retry', reason: 'band' } },
    { id: 'low', when: { atLeast: { count: 1, of: [{ criteria: { lt: 0.3 } }, { criteria: { criterion: 'docsUpdated', lt: 0.1 } }] } }, then: stop('need_help', 'low') },
    { id: 'rest', when: { always: true }, then: { kind: 'continue' } },
  ],
});

const scored = (score: number, tests?: TestEvidence, extra: Partial<ScoredCase> = {}): ScoredCase => ({
  probabilities: { acceptanceCovered: score },
  label: 'done',
  ...(tests === undefined ? {} : { tests }),
  ...extra,
});

afterEach(() => {
  setStopObserver(undefined);
});

describe('policyThresholds', () => {
  it('reads the done bound of the success rules and the highest hand-off bound below it, through nested conditions', () => {
    expect(policyThresholds(SEED_STOP_POLICY)).toEqual({ done: 0.7, low: 0.4 });
    expect(policyThresholds(seedStopPolicy(createStopPolicy({ doneThreshold: 0.9, midBandLow: 0.2 })))).toEqual({ done: 0.9, low: 0.2 });
    expect(policyThresholds(custom)).toEqual({ done: 0.8, low: 0.3 });
    const banded = parseStopPolicy({ version: 2, rules: [{ id: 'ok', when: { not: { not: { criteria: { within: [0.6, 1] } } } }, then: stop('success', 'ok') }] });
    expect(policyThresholds(banded)).toEqual({ done: 0.6 });
  });

  it('refuses a policy with nothing to calibrate, or with several done bounds', () => {
    const unjudged = parseStopPolicy({ version: 2, name: 'tests only', rules: [{ id: 'ok', when: { tests: 'passed' }, then: stop('success', 'ok') }] });
    expect(() => policyThresholds(unjudged)).toThrow(/policy "tests only" stops as success on a criteria comparison/);
    const two = parseStopPolicy({
      version: 2,
      rules: [
        { id: 'a', when: { criteria: { gte: 0.8 } }, then: stop('success', 'a') },
        { id: 'b', when: { criteria: { criterion: 'docs', gte: 0.9 } }, then: stop('success', 'b') },
      ],
    });
    expect(() => policyThresholds(two)).toThrow(/several thresholds \(0\.8, 0\.9\)/);
  });
});

describe('withThresholds', () => {
  it('moves every bound equal to a found one, bands with them, and keeps the rules, their order and the fixed bounds', () => {
    const moved = withThresholds(custom, policyThresholds(custom), { done: 0.9, low: 0.2 });
    expect(moved.rules.map((rule) => rule.id)).toEqual(custom.rules.map((rule) => rule.id));
    expect(moved.rules[0]?.when).toEqual(custom.rules[0]?.when);
    expect(moved.rules[1]?.when).toEqual({ all: [{ any: [{ tests: 'passed' }, { taskType: 'docs' }] }, { not: { tests: 'failed' } }, { criteria: { gte: 0.9 } }] });
    expect(moved.rules[2]?.when).toEqual({ criteria: { within: [0.2, 0.9] } });
    expect(moved.rules[3]?.when).toEqual({ atLeast: { count: 1, of: [{ criteria: { lt: 0.2 } }, { criteria: { criterion: 'docsUpdated', lt: 0.1 } }] } });
    expect(Object.isFrozen(moved)).toBe(true);
    expect(policyThresholds(moved)).toEqual({ done: 0.9, low: 0.2 });
  });

  it('refuses thresholds that turn a band upside down', () => {
    expect(() => withThresholds(SEED_STOP_POLICY, policyThresholds(SEED_STOP_POLICY), { done: 0.3, low: 0.5 })).toThrow(/low is above high/);
  });
});

describe('uncertified', () => {
  it('hands off where a success rule would stop on the decision model, and keeps every other rule', () => {
    const none = uncertified(SEED_STOP_POLICY);
    expect(none.rules.find((rule) => rule.id === 'tests_and_criteria_passed')?.then).toEqual(stop('need_help', 'not_certified'));
    expect(none.rules.filter((rule) => rule.id !== 'tests_and_criteria_passed')).toEqual(SEED_STOP_POLICY.rules.filter((rule) => rule.id !== 'tests_and_criteria_passed'));
    expect(decideCase(none, scored(0.99, PASSED))).toMatchObject({ kind: 'stop', exit: 'need_help', reason: 'not_certified' });
    expect(decideCase(none, scored(0.99, FAILED))).toMatchObject({ kind: 'stop', exit: 'need_help', reason: 'evidence_contradicts_model' });
  });
});

describe('decideCase', () => {
  it('reads the evidence of a case as the seed does: failing tests are never done, no tests ran retries, no evidence counts as passing', () => {
    expect(decideCase(SEED_STOP_POLICY, scored(0.9, PASSED))).toMatchObject({ kind: 'stop', exit: 'success', reason: 'tests_and_criteria_passed' });
    expect(decideCase(SEED_STOP_POLICY, scored(0.9, FAILED))).toMatchObject({ kind: 'stop', exit: 'need_help', reason: 'evidence_contradicts_model' });
    // "Passed" with a failed name counts as failed, as everywhere.
    expect(decideCase(SEED_STOP_POLICY, scored(0.9, { passed: true, failed: ['x'], ran: 3 }))).toMatchObject({ reason: 'evidence_contradicts_model' });
    expect(decideCase(SEED_STOP_POLICY, scored(0.9, NONE))).toMatchObject({ kind: 'retry', reason: 'no_tests_ran' });
    expect(decideCase(SEED_STOP_POLICY, scored(0.9))).toMatchObject({ kind: 'stop', exit: 'success' });
    // No criteria: the lowest probability is 1.
    expect(decideCase(SEED_STOP_POLICY, { probabilities: {}, label: 'not_done' })).toMatchObject({ kind: 'stop', exit: 'success' });
    expect(decideCase(custom, scored(0.2, FAILED, { taskType: 'docs', probabilities: { acceptanceCovered: 0.9, docsUpdated: 0.2 } }))).toMatchObject({ kind: 'retry', reason: 'docs_low' });
  });

  it('decides a case outside any loop: a step cap of one step and a stall window of one never fire', () => {
    const tight = seedStopPolicy(createStopPolicy({ maxSteps: 1, stallRounds: 1 }));
    expect(decideCase(tight, scored(0.9, PASSED))).toMatchObject({ kind: 'stop', exit: 'success', reason: 'tests_and_criteria_passed' });
    expect(decideCase(tight, scored(0.5, PASSED))).toMatchObject({ kind: 'retry', reason: 'criteria_mid_band' });
  });

  it('gives the seed preset the action decideCompletionAction gives, for any numbers (property)', () => {
    const labelled = fc.record({ probabilities, tests: testEvidence, label: fc.constantFrom('done' as const, 'not_done' as const) }, { requiredKeys: ['probabilities', 'label'] });
    fc.assert(
      fc.property(labelled, stopPolicy, (one, numbers) => {
        const expected = decideCompletionAction(one.probabilities, one.tests ?? PASSED, { step: 0, recentFingerprints: [] }, numbers).action;
        const decision = decideCase(seedStopPolicy(numbers), one);
        expect({ stop_done: 'done', retry: 'retry', handoff_human: 'handoff' }[expected]).toBe(verdictOf(decision));
        expect(stopsAsDone(decision)).toBe(expected === 'stop_done');
        expect(handsOff(decision)).toBe(expected === 'handoff_human');
      }),
      { numRuns: 500 },
    );
  });
});

/** Leaves whose criteria comparisons are at the done bound D, the low bound L or a fixed bound F of a named criterion. */
function leaves(D: number, L: number, F: number, forSuccess: boolean): fc.Arbitrary<RuleCondition> {
  const common: fc.Arbitrary<RuleCondition>[] = [
    fc.constantFrom<RuleCondition>({ tests: 'passed' }, { tests: 'failed' }, { tests: 'no_tests_ran' }, { taskType: 'docs' }, { always: true }),
    fc.constant<RuleCondition>({ criteria: { gte: D } }),
    fc.constant<RuleCondition>({ criteria: { within: [D, 1] } }),
  ];
  if (forSuccess) return fc.oneof(...common);
  return fc.oneof(
    ...common,
    fc.constant<RuleCondition>({ criteria: { lt: L } }),
    fc.constant<RuleCondition>({ criteria: { lt: D } }),
    fc.constant<RuleCondition>({ criteria: { within: [L, D] } }),
    fc.constantFrom<RuleCondition>({ criteria: { criterion: 'docs', gte: F } }, { criteria: { criterion: 'docs', lt: F } }),
  );
}

function tree(leaf: fc.Arbitrary<RuleCondition>): fc.Arbitrary<RuleCondition> {
  return fc.letrec<{ node: RuleCondition }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((all) => ({ all })),
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((any) => ({ any })),
      tie('node').map((not) => ({ not })),
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).chain((of) => fc.integer({ min: 1, max: of.length }).map((count) => ({ atLeast: { count, of } }))),
    ),
  })).node;
}

const grid = [0, 0.1, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 1];
const calibratable = fc
  .record({ D: fc.constantFrom(0.6, 0.7, 0.8), L: fc.constantFrom(0.25, 0.4), F: fc.constantFrom(0.1, 0.5, 0.75) })
  .chain(({ D, L, F }) =>
    fc
      .record({
        success: tree(leaves(D, L, F, true)),
        others: fc.array(
          fc.record({
            when: tree(leaves(D, L, F, false)),
            then: fc.constantFrom<RuleOutcome>({ kind: 'retry', reason: 'again' }, { kind: 'continue' }, stop('need_help', 'ask'), stop('limit', 'cap')),
          }),
          { maxLength: 4 },
        ),
        at: fc.nat(4),
        fallback: fc.constantFrom<RuleOutcome>({ kind: 'retry', reason: 'fallback' }, stop('need_help', 'fallback')),
      })
      .map(({ success, others, at, fallback }) => {
        const rules = others.map((rule, index) => ({ id: `r${index}`, ...rule }));
        rules.splice(Math.min(at, rules.length), 0, { id: 'done', when: { all: [success, { criteria: { gte: D } }] }, then: stop('success', 'done') });
        rules.push({ id: 'fallback', when: { always: true }, then: fallback });
        return parseStopPolicy({ version: 2, rules });
      }),
  );
const value = fc.oneof(fc.constantFrom(...grid), fc.double({ min: 0, max: 1, noNaN: true }));
const labelledCase: fc.Arbitrary<ScoredCase> = fc.record(
  {
    probabilities: fc.record({ acceptanceCovered: value, docs: value }, { requiredKeys: [] }),
    tests: fc.constantFrom(PASSED, FAILED, NONE),
    taskType: fc.constantFrom('docs', 'bugfix'),
    label: fc.constantFrom('done' as const, 'not_done' as const),
  },
  { requiredKeys: ['probabilities', 'label'] },
);
// Any pair: a low bound above the done one is refused where it would turn a band upside down, and taken where there is none.
const thresholds: fc.Arbitrary<PolicyThresholds> = fc.record({ done: fc.constantFrom(...grid), low: fc.constantFrom(...grid) });

const outcome = (decided: () => unknown): unknown => {
  try {
    return decided();
  } catch {
    return 'throws';
  }
};

/** The counts per verdict and label of deciding every case with `policy`, or 'throws' when a case cannot be decided. */
function tally(policy: StopPolicyDocument, cases: readonly ScoredCase[]): VerdictCounts | 'throws' {
  const counts = { done: { done: 0, notDone: 0 }, handoff: { done: 0, notDone: 0 }, retry: { done: 0, notDone: 0 } };
  for (const labelled of cases) {
    const verdict = outcome(() => verdictOf(decideCase(policy, labelled)));
    if (verdict === 'throws') return 'throws';
    counts[verdict as CaseVerdict][labelled.label === 'done' ? 'done' : 'notDone']++;
  }
  return counts;
}

describe('verdictCounts', () => {
  it('counts what decide decides on every case with the policy moved to each threshold, for any calibratable policy (property)', () => {
    fc.assert(
      fc.property(calibratable, fc.array(labelledCase, { minLength: 1, maxLength: 30 }), fc.array(thresholds, { minLength: 1, maxLength: 8 }), (policy, cases, walk) => {
        const countAt = verdictCounts(policy, cases);
        const found = policyThresholds(policy);
        for (const at of walk) {
          let moved: StopPolicyDocument;
          try {
            moved = withThresholds(policy, found, at);
          } catch {
            expect(() => countAt(at)).toThrow();
            continue;
          }
          expect(outcome(() => countAt(at))).toEqual(tally(moved, cases));
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('decides each kind of case once per side of the bounds, not once per threshold', () => {
    let decisions = 0;
    setStopObserver({ decision: () => void decisions++ });
    const policy = seedStopPolicy(createStopPolicy({ doneThreshold: 0.65, midBandLow: 0.35 }));
    const cases = Array.from({ length: 200 }, (_, index) => scored(index / 200, index % 2 === 0 ? PASSED : FAILED));
    const countAt = verdictCounts(policy, cases);
    let stopped = 0;
    let counted = 0;
    for (let step = 1; step <= 99; step++) {
      const counts = countAt({ done: step / 100, low: Math.min(0.35, step / 100) });
      stopped += counts.done.done;
      counted += counts.done.done + counts.done.notDone + counts.handoff.done + counts.handoff.notDone + counts.retry.done + counts.retry.notDone;
    }
    // Two kinds of evidence, three sides of (done, low) each: at most six decisions for 19,800 verdicts.
    expect(decisions).toBeLessThanOrEqual(6);
    expect(counted).toBe(19_800);
    // The counts are those of deciding every case at every threshold.
    expect(stopped).toBe(Array.from({ length: 99 }, (_, step) => cases.filter((labelled) => labelled.tests === PASSED && (labelled.probabilities.acceptanceCovered as number) >= (step + 1) / 100).length).reduce((a, b) => a + b, 0));
  });

  it('decides every time a case whose probabilities cannot be read, so decide says what is wrong', () => {
    const broken = { probabilities: { acceptanceCovered: 1.5 }, tests: PASSED, label: 'done' } as ScoredCase;
    const countAt = verdictCounts(SEED_STOP_POLICY, [scored(0.9, PASSED), broken]);
    expect(() => countAt({ done: 0.7, low: 0.4 })).toThrow(/acceptanceCovered/);
    expect(() => countAt({ done: 0.8, low: 0.4 })).toThrow(/acceptanceCovered/);
    expect(() => verdictCounts(SEED_STOP_POLICY, [{ ...broken, tests: NONE }])({ done: 0.8, low: 0.4 })).toThrow(/acceptanceCovered/);
  });

  it('keeps a criterion the decision model did not answer apart from one above both bounds', () => {
    // The custom policy reads docsUpdated by name; a case without it and one with it at 0.95 are different cases.
    const answered = { probabilities: { acceptanceCovered: 0.9, docsUpdated: 0.95 }, tests: PASSED, taskType: 'docs', label: 'done' } as ScoredCase;
    const unanswered = { probabilities: { acceptanceCovered: 0.9 }, tests: PASSED, taskType: 'docs', label: 'not_done' } as ScoredCase;
    for (const cases of [[answered, unanswered], [unanswered, answered]]) {
      const at = { done: 0.8, low: 0.3 };
      // decide refuses to read a criterion the decision model did not answer, so both orders throw.
      expect(outcome(() => verdictCounts(custom, cases)(at))).toEqual(tally(withThresholds(custom, policyThresholds(custom), at), cases));
      expect(outcome(() => verdictCounts(custom, cases)(at))).toBe('throws');
    }
  });

  it('refuses thresholds the moved policy would not take, even when every case is known', () => {
    const countAt = verdictCounts(SEED_STOP_POLICY, [scored(0.5, PASSED)]);
    expect(countAt({ done: 0.7, low: 0.4 })).toEqual({ done: { done: 0, notDone: 0 }, handoff: { done: 0, notDone: 0 }, retry: { done: 1, notDone: 0 } });
    expect(() => countAt({ done: 0.3, low: 0.5 })).toThrow(/low is above high/);
    expect(() => countAt({ done: 1.5, low: 0.4 })).toThrow(/rules\[3\]/);
  });
});

describe('caseDecisions', () => {
  it('gives the verdict and reason decide gives on each case, for any policy, one with nothing to calibrate included (property)', () => {
    const anyPolicy = fc.oneof(
      calibratable,
      tree(leaves(0.7, 0.4, 0.5, false)).map((when) =>
        parseStopPolicy({ version: 2, rules: [{ id: 'only', when, then: stop('need_help', 'only') }, { id: 'rest', when: { always: true }, then: { kind: 'continue' } }] }),
      ),
    );
    fc.assert(
      fc.property(anyPolicy, fc.array(labelledCase, { minLength: 1, maxLength: 20 }), (policy, cases) => {
        const expected = cases.map((labelled) =>
          outcome(() => {
            const decision = decideCase(policy, labelled);
            return { verdict: verdictOf(decision), reason: decision.reason };
          }),
        );
        if (expected.includes('throws')) expect(() => caseDecisions(policy, cases)).toThrow();
        else expect(caseDecisions(policy, cases)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
