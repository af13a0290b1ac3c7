import type { CompletionAction, JudgedValues } from '../completion-action.js';
import { DEFAULT_POLICY, type StopPolicy } from '../stop-policy.js';
import type { DecisionValue, StopDecision } from './stop-decision.js';

/**
 * A decision of the seed preset (`seedStopPolicy(policy)`) as today's
 * `CompletionAction`: `stop` / success is `stop_done`, a retry is `retry`,
 * any other stop is `handoff_human`, with the rule's number (1 to 8) and the
 * values the action table reports. Pass the `StopPolicy` the preset was made
 * with; a decision of another policy, or one made with other thresholds,
 * throws a `TypeError`.
 */
export function toCompletionAction(decision: StopDecision, policy: StopPolicy = DEFAULT_POLICY): CompletionAction {
  const values = decision.values;
  const step = values.step as number;
  switch (decision.rule) {
    case 'hard_cap':
      return { action: 'handoff_human', reason: 'hard_cap', rule: 1, values: { step, maxSteps: numberOf(values, 'maxSteps') } };
    case 'stalled':
      return {
        action: 'handoff_human',
        reason: 'stalled',
        rule: 2,
        values: { step, stallRounds: numberOf(values, 'stallRounds'), fingerprint: String(values.fingerprint) },
      };
    case 'no_tests_ran':
      return { action: 'retry', reason: 'no_tests_ran', rule: 3, values: { step, ran: 0 } };
    case 'evidence_contradicts_model':
      return { action: 'handoff_human', reason: 'evidence_contradicts_model', rule: 4, values: withFailed(judged(values, policy, 'minProbability', policy.doneThreshold), values) };
    case 'tests_failed':
      return { action: 'retry', reason: 'tests_failed', rule: 5, values: withFailed(judged(values, policy, 'belowProbability', policy.doneThreshold), values) };
    case 'tests_and_criteria_passed':
      return { action: 'stop_done', reason: 'tests_and_criteria_passed', rule: 6, values: judged(values, policy, 'minProbability', policy.doneThreshold) };
    case 'criteria_mid_band': {
      const band = values.band as readonly [number, number] | undefined;
      if (band === undefined || band[0] !== policy.midBandLow || band[1] !== policy.doneThreshold) throw mismatch(`band [${String(band)}]`);
      return { action: 'retry', reason: 'criteria_mid_band', rule: 7, values: judged(values, policy) };
    }
    case 'criteria_low':
      return { action: 'handoff_human', reason: 'criteria_low', rule: 8, values: judged(values, policy, 'belowProbability', policy.midBandLow) };
    default:
      throw new TypeError(`rule ${JSON.stringify(decision.rule)} is not a rule of the seed preset; only its decisions map to a CompletionAction`);
  }
}

function judged(values: Readonly<Record<string, DecisionValue>>, policy: StopPolicy, thresholdKey?: string, expected?: number): JudgedValues {
  if (thresholdKey !== undefined && values[thresholdKey] !== expected) throw mismatch(`${thresholdKey} ${String(values[thresholdKey])}`);
  const lowestCriterion = values.lowestCriterion;
  return {
    step: values.step as number,
    ran: numberOf(values, 'ran'),
    lowestProbability: numberOf(values, 'lowestProbability'),
    ...(typeof lowestCriterion === 'string' ? { lowestCriterion } : {}),
    doneThreshold: policy.doneThreshold,
    midBandLow: policy.midBandLow,
  };
}

function withFailed(judgedValues: JudgedValues, values: Readonly<Record<string, DecisionValue>>): JudgedValues & { failed: readonly string[] } {
  const failed = values.failed;
  if (!Array.isArray(failed)) throw new TypeError('the decision has no failed test names; is it a decision of the seed preset?');
  return {
    step: judgedValues.step,
    ran: judgedValues.ran,
    lowestProbability: judgedValues.lowestProbability,
    ...(judgedValues.lowestCriterion === undefined ? {} : { lowestCriterion: judgedValues.lowestCriterion }),
    doneThreshold: judgedValues.doneThreshold,
    midBandLow: judgedValues.midBandLow,
    failed: failed as readonly string[],
  };
}

function numberOf(values: Readonly<Record<string, DecisionValue>>, key: string): number {
  const value = values[key];
  if (typeof value !== 'number') throw new TypeError(`the decision has no number "${key}"; is it a decision of the seed preset?`);
  return value;
}

function mismatch(what: string): TypeError {
  return new TypeError(`the decision was made with ${what}, not with the thresholds of the policy given; pass the StopPolicy the seed preset was made with`);
}
