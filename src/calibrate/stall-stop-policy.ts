import { parseStopPolicy } from '../core/policy/parse-stop-policy.js';
import type { StopPolicyDocument, StopRule } from '../core/policy/stop-policy-document.js';
import type { StallOptions, StallScoreModel } from '../core/stall-detection/stall-options.js';

/** What a calibrated stall rule stops on: the rule patterns' options, or a learned score. */
export type CalibratedStall = { readonly options: StallOptions } | { readonly model: StallScoreModel };

/**
 * `base` with one more rule: stop the run for a person (`need_help`, reason
 * `stalled`) when the calibrated stall detector holds on the event's steps.
 * The rule stands after the leading limit rules (a budget stays a veto) and
 * before every other rule, so a stalled run is handed over instead of being
 * told to try again. Its id is `stalled_steps` (or `stalled_score`), made
 * unique within the policy.
 */
export function withStallRule(base: StopPolicyDocument, stall: CalibratedStall): StopPolicyDocument {
  const document = parseStopPolicy(base);
  const wanted = 'model' in stall ? 'stalled_score' : 'stalled_steps';
  const ids = new Set(document.rules.map((rule) => rule.id));
  let id = wanted;
  for (let n = 2; ids.has(id); n++) id = `${wanted}_${n}`;
  const rule: StopRule = {
    id,
    description:
      'model' in stall
        ? 'A learned stall score (stopwise calibrate-stall --model score) reached its certified threshold on the steps of the run.'
        : 'A stall pattern of the options chosen by stopwise calibrate-stall holds on the steps of the run.',
    when: 'model' in stall ? { stall: { detector: 'score', model: stall.model } } : { stall: { detector: 'step_history', options: stall.options } },
    then: { kind: 'stop', exit: 'need_help', reason: 'stalled' },
  };
  const at = document.rules.findIndex((existing) => !(existing.then.kind === 'stop' && 'limit' in existing.when));
  const rules = [...document.rules];
  rules.splice(at < 0 ? rules.length : at, 0, rule);
  return parseStopPolicy({ ...document, rules });
}
