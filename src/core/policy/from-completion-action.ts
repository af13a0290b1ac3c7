import type { CompletionAction } from '../completion-action.js';
import { SEED_RULE_IDS } from './seed-stop-policy.js';
import type { DecisionValues, StopDecision } from './stop-decision.js';

/**
 * A `CompletionAction` as the seed preset's `StopDecision`: the reverse of
 * `toCompletionAction`. `stop_done` is a stop with exit `success`, the hard
 * cap a stop with exit `limit`, any other hand-off a stop with exit
 * `need_help`, and a retry a retry; the rule is the seed rule's id. The trace
 * of the rules before it is not kept in an action, so it is empty.
 */
export function fromCompletionAction(action: CompletionAction): StopDecision {
  const rule = SEED_RULE_IDS[action.rule - 1];
  if (rule === undefined) throw new TypeError(`rule ${String(action.rule)} is not a rule of the seed preset (1 to 8)`);
  const values = action.values as unknown as DecisionValues;
  switch (action.action) {
    case 'retry':
      return { kind: 'retry', reason: action.reason, rule, values, trace: [], feedback: { message: '' } };
    case 'stop_done':
      return { kind: 'stop', exit: 'success', reason: action.reason, rule, values, trace: [] };
    case 'handoff_human':
      return { kind: 'stop', exit: action.reason === 'hard_cap' ? 'limit' : 'need_help', reason: action.reason, rule, values, trace: [] };
  }
}
