import { lowestCriterion, type CriterionProbabilities } from './criterion-probabilities.js';
import { DEFAULT_POLICY, assertStopPolicy, type StopPolicy } from './stop-policy.js';
import { assertTestEvidence, noTestsRan, testsFailed, type TestEvidence } from './test-evidence.js';

/** Whether a run is done, combining test evidence and criterion probabilities. */
export type DoneSignal =
  | {
      readonly done: false;
      readonly reason: 'no_tests_ran';
      readonly modelSaysDone: boolean;
      readonly lowestProbability: number;
    }
  | {
      readonly done: false;
      readonly reason: 'tests_failed';
      readonly modelSaysDone: boolean;
      readonly lowestProbability: number;
      readonly failed: readonly string[];
    }
  | {
      readonly done: false;
      readonly reason: 'criteria_below_threshold';
      readonly modelSaysDone: false;
      readonly lowestProbability: number;
    }
  | {
      readonly done: true;
      readonly reason: 'tests_and_criteria_passed';
      readonly modelSaysDone: true;
      readonly lowestProbability: number;
    };

/**
 * Combines criterion probabilities (AND: the lowest decides) with test evidence.
 *
 * First match wins: no tests ran; tests failed; the model does not say done;
 * otherwise done. However high the probabilities, failed or missing tests
 * mean not done. `modelSaysDone` is reported in every case.
 *
 * @example
 * combineDoneSignal({ acceptanceCovered: 0.9 }, { passed: true, failed: [], ran: 12 });
 * // { done: true, reason: 'tests_and_criteria_passed', modelSaysDone: true, lowestProbability: 0.9 }
 */
export function combineDoneSignal(
  probabilities: CriterionProbabilities,
  tests: TestEvidence,
  policy: StopPolicy = DEFAULT_POLICY,
): DoneSignal {
  assertStopPolicy(policy);
  assertTestEvidence(tests);
  const lowestProbability = lowestCriterion(probabilities).probability;
  const modelSaysDone = lowestProbability >= policy.doneThreshold;
  if (noTestsRan(tests)) return { done: false, reason: 'no_tests_ran', modelSaysDone, lowestProbability };
  if (testsFailed(tests)) {
    return { done: false, reason: 'tests_failed', modelSaysDone, lowestProbability, failed: [...tests.failed] };
  }
  if (!modelSaysDone) return { done: false, reason: 'criteria_below_threshold', modelSaysDone, lowestProbability };
  return { done: true, reason: 'tests_and_criteria_passed', modelSaysDone, lowestProbability };
}
