import type { DecisionValue, StopDecision } from './stop-decision.js';

/**
 * One sentence for a log or a person: what was decided, by which rule, and
 * the values that rule compared.
 *
 * @example
 * describeDecision(decision);
 * // 'stop (limit: hard_cap) at step 20 by rule hard_cap: steps 20, maxSteps 20'
 */
export function describeDecision(decision: StopDecision): string {
  const head =
    decision.kind === 'stop'
      ? `stop (${decision.exit}: ${decision.reason})`
      : decision.kind === 'retry'
        ? `retry (${decision.reason})`
        : `continue (${decision.reason})`;
  const by = decision.rule === null ? 'as no rule fired' : `by rule ${decision.rule}`;
  const shown = Object.entries(decision.values)
    .filter(([key]) => key !== 'step')
    .map(([key, value]) => `${key} ${showValue(value)}`);
  const tail = decision.kind === 'retry' ? ` (${decision.feedback.message})` : '';
  return `${head} at step ${String(decision.values.step)} ${by}${shown.length === 0 ? '' : `: ${shown.join(', ')}`}${tail}`;
}

function showValue(value: DecisionValue): string {
  if (Array.isArray(value)) {
    const items = value as readonly (string | number)[];
    const shown = items.slice(0, 5).map(String).join(', ');
    return `[${shown}${items.length > 5 ? `, and ${items.length - 5} more` : ''}]`;
  }
  return typeof value === 'string' ? value : String(value);
}
