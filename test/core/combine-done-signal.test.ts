import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combineDoneSignal } from '../../src/core/combine-done-signal.js';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import { probabilities, testEvidence } from './arbitraries.js';

const PASS = { passed: true, failed: [], ran: 8 };

describe('combineDoneSignal', () => {
  it('1: no tests ran is not done, and reports what the model said', () => {
    expect(combineDoneSignal({ a: 0.95 }, { passed: true, failed: [], ran: 0 })).toEqual({
      done: false,
      reason: 'no_tests_ran',
      modelSaysDone: true,
      lowestProbability: 0.95,
    });
  });

  it('2: failed tests are not done and carry the failed names', () => {
    expect(combineDoneSignal({ a: 0.99 }, { passed: false, failed: ['t1', 't2'], ran: 5 })).toEqual({
      done: false,
      reason: 'tests_failed',
      modelSaysDone: true,
      lowestProbability: 0.99,
      failed: ['t1', 't2'],
    });
  });

  it('3: passing tests with the model below the threshold are not done', () => {
    expect(combineDoneSignal({ a: 0.9, b: 0.69 }, PASS)).toEqual({
      done: false,
      reason: 'criteria_below_threshold',
      modelSaysDone: false,
      lowestProbability: 0.69,
    });
  });

  it('4: passing tests with the model at the threshold are done', () => {
    expect(combineDoneSignal({ a: 0.7, b: 0.9 }, PASS)).toEqual({
      done: true,
      reason: 'tests_and_criteria_passed',
      modelSaysDone: true,
      lowestProbability: 0.7,
    });
  });

  it('uses the policy threshold', () => {
    expect(combineDoneSignal({ a: 0.8 }, PASS, createStopPolicy({ doneThreshold: 0.85 })).done).toBe(false);
  });

  it('is never done with failed or missing tests, however high the probabilities', () => {
    fc.assert(
      fc.property(probabilities, testEvidence, (p, tests) => {
        fc.pre(tests.ran === 0 || !tests.passed || tests.failed.length > 0);
        expect(combineDoneSignal(p, tests).done).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('throws a RangeError for a bad probability', () => {
    expect(() => combineDoneSignal({ a: Number.NaN }, PASS)).toThrow(RangeError);
  });
});
