import type { Attributes, AttributeValue } from '@opentelemetry/api';
import { toExternalStopReason } from '../core/external-stop-reason.js';
import type { DecisionValues, StopDecision } from '../core/policy/stop-decision.js';
import type { StopTotals } from '../core/policy/stop-state.js';
import type { StopRunEnd } from '../core/stop-observer.js';
import { stopReasonOf, type StopOutcome } from '../core/stop-outcome.js';

/** The prefix of the values the rule that fired compared: `stopwise.value.maxSteps`, `stopwise.value.lowestProbability`, ... */
export const VALUE_PREFIX = 'stopwise.value.';

/** The name of the span event each decision adds to the active span. */
export const DECISION_EVENT = 'stopwise.decision';

/** The name of the span event each request to the decision model adds to the active span. */
export const DECISION_MODEL_CALL_EVENT = 'stopwise.decision_model_call';

/** What the decision model did during a run: requests, and the tokens they reported. */
export interface DecisionModelTally {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** The attributes of one decision's span event. */
export function decisionEventAttributes(decision: StopDecision, step: number, totals: StopTotals | undefined, policy: string | undefined): Attributes {
  const attributes: Attributes = {
    'stopwise.decision.kind': decision.kind,
    'stopwise.reason': decision.reason,
    'stopwise.step': step,
  };
  if (decision.rule !== null) attributes['stopwise.rule'] = decision.rule;
  if (decision.kind === 'stop') attributes['stopwise.exit'] = decision.exit;
  if (policy !== undefined) attributes['stopwise.policy'] = policy;
  if (totals !== undefined && totals.decisionModelCalls > 0) {
    attributes['stopwise.decision_model.calls'] = totals.decisionModelCalls;
    attributes['stopwise.decision_model.cost'] = totals.decisionModelCost;
  }
  // `step` is always among the values: the event carries it once, as `stopwise.step`.
  addValues(attributes, decision.values, 'step');
  return attributes;
}

/** The decision a run ended on: the driver's, or the outcome's in the engine's terms. */
export function finalDecisionOf(end: StopRunEnd): { kind: StopDecision['kind']; exit?: string; reason: string; rule?: string; values: DecisionValues } | undefined {
  if (end.decision !== undefined) {
    const { decision } = end;
    return {
      kind: decision.kind,
      ...(decision.kind === 'stop' ? { exit: decision.exit } : {}),
      reason: decision.reason,
      ...(decision.rule === null ? {} : { rule: decision.rule }),
      values: decision.values,
    };
  }
  if (end.outcome !== undefined) return { kind: 'stop', exit: end.outcome.exit, reason: stopReasonOf(end.outcome), rule: outcomeRule(end.outcome), values: outcomeValues(end.outcome) };
  return undefined;
}

/**
 * The attributes the end of a run sets on the run's span: the final decision
 * (kind, exit, reason, rule, the values it compared), the decision model's
 * calls and spend, the usage, and the GenAI attributes that apply.
 */
export function runEndAttributes(end: StopRunEnd, tally: DecisionModelTally | undefined, agentName: string | undefined, taskType: string | undefined, humanWaitsMs: readonly number[]): Attributes {
  const attributes: Attributes = { 'stopwise.driver': end.driver, 'gen_ai.operation.name': 'invoke_agent' };
  const final = finalDecisionOf(end);
  if (final !== undefined) {
    attributes['stopwise.decision.kind'] = final.kind;
    attributes['stopwise.reason'] = final.reason;
    if (final.exit !== undefined) attributes['stopwise.exit'] = final.exit;
    if (final.rule !== undefined) attributes['stopwise.rule'] = final.rule;
    addValues(attributes, final.values);
  }
  const stop = end.decision ?? end.outcome;
  const finishReason = stop === undefined ? null : toExternalStopReason(stop, 'gen-ai');
  if (finishReason !== null) attributes['gen_ai.agent.finish_reason'] = finishReason;
  const name = end.agentName ?? agentName;
  if (name !== undefined) attributes['gen_ai.agent.name'] = name;
  if (taskType !== undefined) attributes['stopwise.task_type'] = taskType;

  const usage = end.outcome?.usage;
  const totals = end.totals;
  const inputTokens = usage?.inputTokens ?? totals?.inputTokens;
  const outputTokens = usage?.outputTokens ?? totals?.outputTokens;
  const cost = usage?.cost ?? totals?.cost;
  if (inputTokens !== undefined) attributes['gen_ai.usage.input_tokens'] = inputTokens;
  if (outputTokens !== undefined) attributes['gen_ai.usage.output_tokens'] = outputTokens;
  if (cost !== undefined) attributes['stopwise.cost'] = cost;
  if (end.outcome !== undefined) attributes['stopwise.steps'] = end.outcome.steps;

  const decisionModelCalls = totals?.decisionModelCalls ?? tally?.calls;
  if (decisionModelCalls !== undefined) attributes['stopwise.decision_model.calls'] = decisionModelCalls;
  if (totals?.decisionModelCost !== undefined) attributes['stopwise.decision_model.cost'] = totals.decisionModelCost;
  if (tally !== undefined && tally.calls > 0) {
    attributes['stopwise.decision_model.input_tokens'] = tally.inputTokens;
    attributes['stopwise.decision_model.output_tokens'] = tally.outputTokens;
  }
  if (humanWaitsMs.length > 0) {
    attributes['stopwise.human.questions'] = humanWaitsMs.length;
    attributes['stopwise.human.wait_ms'] = humanWaitsMs.reduce((sum, ms) => sum + ms, 0);
  }
  return attributes;
}

/** How long people took to answer during the run: the end's own list, or the exchanges in the outcome's trace where a person was asked. */
export function humanWaitsOf(end: StopRunEnd): readonly number[] {
  if (end.humanWaitsMs !== undefined) return end.humanWaitsMs.filter((ms) => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0);
  const waits: number[] = [];
  for (const record of end.outcome?.trace ?? []) {
    const human = record.human;
    if (human !== undefined && (human.answer !== undefined || human.timedOut)) waits.push(human.waitedMs);
  }
  return waits;
}

function outcomeRule(outcome: StopOutcome): string {
  switch (outcome.exit) {
    case 'success':
      return 'verified_done';
    case 'limit':
      return outcome.source === 'budget' ? `budget.${outcome.key ?? outcome.limit}` : 'provider_limit';
    case 'gave_up':
      return 'give_up_signal';
    case 'need_help':
      return 'need_help_signal';
    case 'failed':
      return `error.${outcome.error.during}`;
  }
}

function outcomeValues(outcome: StopOutcome): DecisionValues {
  switch (outcome.exit) {
    case 'limit':
      return outcome.max === null ? { steps: outcome.steps, used: outcome.used } : { steps: outcome.steps, used: outcome.used, max: outcome.max };
    case 'need_help':
      return { steps: outcome.steps, waitedMs: outcome.waitedMs };
    case 'failed':
      return { steps: outcome.steps, error: outcome.error.name };
    default:
      return { steps: outcome.steps };
  }
}

// The prefixed names, made once per value name rather than once per decision.
const prefixed = new Map<string, string>();

function addValues(attributes: Attributes, values: DecisionValues, skip?: string): void {
  for (const name in values) {
    if (name === skip || !Object.hasOwn(values, name)) continue;
    const value = values[name];
    if (value === null || value === undefined) continue;
    let key = prefixed.get(name);
    if (key === undefined) {
      key = VALUE_PREFIX + name;
      if (prefixed.size < 1_000) prefixed.set(name, key);
    }
    attributes[key] = value as AttributeValue;
  }
}
