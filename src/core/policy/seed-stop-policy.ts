import { DEFAULT_POLICY, assertStopPolicy, type StopPolicy } from '../stop-policy.js';
import { presetStopPolicy } from './parse-stop-policy.js';
import { STOP_POLICY_VERSION, type StopPolicyDocument } from './stop-policy-document.js';

/** The ids of the seed preset's rules, in order: the action table's rules 1 to 8. */
export const SEED_RULE_IDS = [
  'hard_cap',
  'stalled',
  'no_tests_ran',
  'evidence_contradicts_model',
  'tests_failed',
  'tests_and_criteria_passed',
  'criteria_mid_band',
  'criteria_low',
] as const;

const documents = new Map<string, StopPolicyDocument>();

/**
 * The action table of `decideCompletionAction` as a policy document, with the
 * numbers of `policy`: the step cap, the identical-fingerprint stall, no
 * tests ran, then the test evidence against the lowest criterion probability.
 * The same numbers give the same (frozen) document.
 *
 * @example
 * const policy = seedStopPolicy(createStopPolicy({ maxSteps: 30 }));
 */
export function seedStopPolicy(policy: StopPolicy = DEFAULT_POLICY): StopPolicyDocument {
  assertStopPolicy(policy);
  const key = `${policy.doneThreshold}/${policy.midBandLow}/${policy.maxSteps}/${policy.stallRounds}`;
  let document = documents.get(key);
  if (document === undefined) {
    document = presetStopPolicy(seedRules(policy));
    if (documents.size >= 64) documents.clear();
    documents.set(key, document);
  }
  return document;
}

function seedRules({ doneThreshold, midBandLow, maxSteps, stallRounds }: StopPolicy): StopPolicyDocument {
  return {
    version: STOP_POLICY_VERSION,
    name: 'seed',
    rules: [
      { id: 'hard_cap', when: { limit: { of: 'steps', max: maxSteps } }, then: { kind: 'stop', exit: 'limit', reason: 'hard_cap' } },
      { id: 'stalled', when: { stall: { detector: 'identical_fingerprints', rounds: stallRounds } }, then: { kind: 'stop', exit: 'need_help', reason: 'stalled' } },
      { id: 'no_tests_ran', when: { tests: 'no_tests_ran' }, then: { kind: 'retry', reason: 'no_tests_ran' } },
      {
        id: 'evidence_contradicts_model',
        when: { all: [{ tests: 'failed' }, { criteria: { gte: doneThreshold } }] },
        then: { kind: 'stop', exit: 'need_help', reason: 'evidence_contradicts_model' },
      },
      { id: 'tests_failed', when: { all: [{ tests: 'failed' }, { criteria: { lt: doneThreshold } }] }, then: { kind: 'retry', reason: 'tests_failed' } },
      {
        id: 'tests_and_criteria_passed',
        when: { all: [{ tests: 'passed' }, { criteria: { gte: doneThreshold } }] },
        then: { kind: 'stop', exit: 'success', reason: 'tests_and_criteria_passed' },
      },
      {
        id: 'criteria_mid_band',
        when: { all: [{ tests: 'passed' }, { criteria: { within: [midBandLow, doneThreshold] } }] },
        then: { kind: 'retry', reason: 'criteria_mid_band' },
      },
      { id: 'criteria_low', when: { all: [{ tests: 'passed' }, { criteria: { lt: midBandLow } }] }, then: { kind: 'stop', exit: 'need_help', reason: 'criteria_low' } },
    ],
  };
}

/** The action table of `decideCompletionAction` with the default numbers, as a policy document. */
export const SEED_STOP_POLICY: StopPolicyDocument = seedStopPolicy(DEFAULT_POLICY);
