import { describe, expect, it } from 'vitest';
import { decideCompletionAction } from '../../src/core/decide-completion-action.js';
import { describeAction } from '../../src/core/describe-action.js';

describe('describeAction', () => {
  it('names the rule and the values for every reason', () => {
    const pass = { passed: true, failed: [], ran: 4 };
    const fail = { passed: false, failed: ['a', 'b', 'c', 'd', 'e', 'f'], ran: 9 };
    const loop = { step: 2, recentFingerprints: [] };
    const cases = [
      [decideCompletionAction({ a: 0.9 }, pass, { step: 20, recentFingerprints: [] }), /rule 1\): step 20 reached the step cap of 20/],
      [decideCompletionAction({ a: 0.9 }, pass, { step: 4, recentFingerprints: ['f', 'f', 'f'] }), /rule 2\): the last 3 steps/],
      [decideCompletionAction({ a: 0.9 }, { passed: true, failed: [], ran: 0 }, loop), /rule 3\): no tests ran/],
      [decideCompletionAction({ a: 0.9 }, fail, loop), /rule 4\): 6 tests failed: a, b, c, d, e and 1 more while the decision model says done \(lowest criterion a=0\.9 >= 0\.7\)/],
      [decideCompletionAction({ a: 0.2 }, { passed: false, failed: [], ran: 3 }, loop), /rule 5\): the test run failed/],
      [decideCompletionAction({ a: 0.9 }, pass, loop), /rule 6\): 4 tests passed and lowest criterion a=0\.9 >= 0\.7/],
      [decideCompletionAction({ a: 0.5 }, pass, loop), /rule 7\).*retry band \[0\.4, 0\.7\)/],
      [decideCompletionAction({ a: 0.1 }, pass, loop), /rule 8\).*a=0\.1 < 0\.4/],
      [decideCompletionAction({}, pass, loop), /no criteria/],
    ] as const;
    for (const [action, pattern] of cases) expect(describeAction(action)).toMatch(pattern);
  });
});
