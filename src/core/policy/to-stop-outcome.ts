import type { BudgetLimitKind, BudgetLimits } from '../budget.js';
import type { FinishSignal } from '../finish-signal.js';
import type { HumanExchange, OutcomeBase, StopOutcome } from '../stop-outcome.js';
import { describeDecision } from './describe-decision.js';
import type { DecisionValues, StopDecision } from './stop-decision.js';
import { LIMIT_NAMES, type LimitName } from './stop-policy-document.js';

/** A decision that ends a run. */
export type StopDecisionOf<K extends StopDecision['kind']> = Extract<StopDecision, { readonly kind: K }>;

/** What the run knows besides the decision: its totals and trace, and what the last turn said. */
export interface StopOutcomeFacts extends OutcomeBase {
  /** The finish signal of the last turn (a provider halt as the signal it stands for). */
  readonly signal?: FinishSignal | undefined;
  /** The last turn's exchange with a person. */
  readonly human?: HumanExchange | undefined;
  /** The text of the last turn when it was a wrap-up turn. */
  readonly finalAnswer?: string | undefined;
  /**
   * The limits the policy was built from (`agentLoopPolicy(limits)`): a limit outcome reports their `max` as
   * given (a fractional step cap, which the policy holds as the next integer).
   */
  readonly budget?: BudgetLimits | undefined;
  /** What the provider said when its generation could not be read (the event's `provider: 'failed'`). */
  readonly providerError?: string | undefined;
}

/** How each engine limit is reported on a `LimitOutcome`: its kind and, for a budget limit, its key. */
const LIMIT_OUTCOME: Readonly<Record<LimitName, readonly [BudgetLimitKind, keyof BudgetLimits | undefined, string]>> = {
  steps: ['steps', 'maxSteps', 'maxSteps'],
  wallClockMs: ['wall_clock', 'maxWallClockMs', 'maxWallClockMs'],
  inputTokens: ['tokens', 'maxInputTokens', 'maxInputTokens'],
  outputTokens: ['tokens', 'maxOutputTokens', 'maxOutputTokens'],
  totalTokens: ['tokens', 'maxTotalTokens', 'maxTotalTokens'],
  cost: ['cost', 'maxCost', 'maxCost'],
  toolErrors: ['tool_errors', 'maxToolErrors', 'maxToolErrors'],
  decisionModelCalls: ['cost', undefined, 'maxDecisionModelCalls'],
  decisionModelCost: ['cost', undefined, 'maxDecisionModelCost'],
};

/**
 * A stop decision as the `StopOutcome` of a loop (the projection
 * `runAgentLoop` ends with): the decision's exit with the fields that exit
 * carries, and the decision itself as `decision`.
 *
 * - `success`: `note` is the finish signal's note (`''` without one);
 * - `limit`: the first limit the rule compared (in `LIMIT_NAMES` order) gives
 *   `limit`, `key`, `used` and `max`, with `source: 'budget'`; the decision
 *   model's spend (`decisionModelCalls`, `decisionModelCost`) is reported as
 *   `cost` with no key; a generation a token limit cut short (`provider:
 *   'token_limit'` or `'step_limit'`) is `tokens` or `steps` with `source:
 *   'provider'` and `max: null`; a
 *   limit exit whose rule compared no limit reports `steps` with `max: null`;
 * - `gave_up`: the signal's note when the model gave up, else the decision described;
 * - `need_help`: the signal's question when the model asked one, else the
 *   decision described (a stall, evidence that contradicts the model), with
 *   how long a person was waited for;
 * - `failed`: an error named `ProviderStopError` with the provider's message
 *   when the generation could not be read, else `PolicyStop` with the decision described.
 *
 * @example
 * const outcome = toStopOutcome(decision, { steps: 3, usage, text, trace });
 */
export function toStopOutcome(decision: StopDecisionOf<'stop'>, facts: StopOutcomeFacts): StopOutcome {
  const base: OutcomeBase & { decision: StopDecision } = { steps: facts.steps, usage: facts.usage, text: facts.text, trace: facts.trace, decision };
  const note = (kind: FinishSignal['kind']): string => (facts.signal?.kind === kind ? facts.signal.note : describeDecision(decision));
  switch (decision.exit) {
    case 'success':
      return { ...base, exit: 'success', note: facts.signal?.note ?? '' };
    case 'limit': {
      const finalAnswer = facts.finalAnswer === undefined ? {} : { finalAnswer: facts.finalAnswer };
      if (decision.values.provider === 'token_limit') {
        return { ...base, exit: 'limit', limit: 'tokens', source: 'provider', used: facts.usage.inputTokens + facts.usage.outputTokens, max: null, ...finalAnswer };
      }
      if (decision.values.provider === 'step_limit') return { ...base, exit: 'limit', limit: 'steps', source: 'provider', used: facts.steps, max: null, ...finalAnswer };
      const compared = firstLimit(decision.values);
      if (compared === undefined) return { ...base, exit: 'limit', limit: 'steps', source: 'budget', used: facts.steps, max: null, ...finalAnswer };
      const [name, used, max] = compared;
      const [limit, key] = LIMIT_OUTCOME[name];
      const given = key === undefined ? undefined : facts.budget?.[key];
      return { ...base, exit: 'limit', limit, source: 'budget', ...(key === undefined ? {} : { key }), used, max: given ?? max, ...finalAnswer };
    }
    case 'gave_up':
      return { ...base, exit: 'gave_up', note: note('give_up') };
    case 'need_help':
      return { ...base, exit: 'need_help', question: note('need_help'), waitedMs: facts.human?.waitedMs ?? 0 };
    case 'failed':
      if (decision.values.provider === 'failed') {
        return { ...base, exit: 'failed', error: { name: 'ProviderStopError', message: facts.providerError ?? describeDecision(decision), during: 'turn' } };
      }
      return { ...base, exit: 'failed', error: { name: 'PolicyStop', message: describeDecision(decision), during: 'turn' } };
  }
}

function firstLimit(values: DecisionValues): readonly [LimitName, number, number] | undefined {
  for (const name of LIMIT_NAMES) {
    const used = values[name];
    const max = values[LIMIT_OUTCOME[name][2]];
    if (typeof used === 'number' && typeof max === 'number') return [name, used, max];
  }
  return undefined;
}
