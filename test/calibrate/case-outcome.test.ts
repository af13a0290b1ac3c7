import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseOutcome, decideCaseAction, outcomeAction } from '../../src/calibrate/case-outcome.js';
import type { ScoredCase } from '../../src/calibrate/labelled-case.js';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import { probabilities, probability, testEvidence } from '../core/arbitraries.js';

const scoredCase: fc.Arbitrary<ScoredCase> = fc.record(
  {
    probabilities,
    tests: testEvidence,
    label: fc.constantFrom('done' as const, 'not_done' as const),
  },
  { requiredKeys: ['probabilities', 'label'] },
);

describe('case outcomes', () => {
  it('reads the evidence class from the action table', () => {
    const base = { probabilities: { a: 0.5 }, label: 'done' as const };
    expect(caseOutcome({ ...base, tests: { passed: true, failed: [], ran: 3 } })).toEqual({ score: 0.5, evidence: 'passed', done: true });
    expect(caseOutcome({ ...base, tests: { passed: false, failed: ['x'], ran: 3 } }).evidence).toBe('failed');
    // "passed with a failed name" counts as failed, as in the core.
    expect(caseOutcome({ ...base, tests: { passed: true, failed: ['x'], ran: 3 } }).evidence).toBe('failed');
    expect(caseOutcome({ ...base, tests: { passed: true, failed: [], ran: 0 } }).evidence).toBe('none');
    expect(caseOutcome(base).evidence).toBe('passed');
    expect(caseOutcome({ probabilities: {}, label: 'not_done' })).toEqual({ score: 1, evidence: 'passed', done: false });
  });

  it('gives the same action as the real action table for every policy (property)', () => {
    fc.assert(
      fc.property(scoredCase, probability, probability, (labelled, x, y) => {
        const policy = createStopPolicy({ doneThreshold: Math.max(x, y), midBandLow: Math.min(x, y) });
        const expected = decideCaseAction(labelled, policy).action;
        expect(outcomeAction(caseOutcome(labelled), policy.doneThreshold, policy.midBandLow)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('decides a labelled case outside any loop: the step cap never fires', () => {
    const policy = createStopPolicy({ maxSteps: 1 });
    expect(decideCaseAction({ probabilities: { a: 0.9 }, label: 'done' }, policy).action).toBe('stop_done');
  });
});
