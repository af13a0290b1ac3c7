import type { CompletionAction } from './completion-action.js';

/**
 * One sentence that says which rule fired and with which values, for logs,
 * trace attributes and the person a run is handed to.
 *
 * @example
 * describeAction(action);
 * // 'handoff_human (hard_cap, rule 1): step 20 reached the step cap of 20'
 */
export function describeAction(action: CompletionAction): string {
  const head = `${action.action} (${action.reason}, rule ${action.rule})`;
  switch (action.reason) {
    case 'hard_cap':
      return `${head}: step ${action.values.step} reached the step cap of ${action.values.maxSteps}`;
    case 'stalled':
      return `${head}: the last ${action.values.stallRounds} steps made no progress (identical test results and output)`;
    case 'no_tests_ran':
      return `${head}: no tests ran at step ${action.values.step}; run the test suite`;
    case 'evidence_contradicts_model':
      return `${head}: ${failedText(action.values.failed)} while the decision model says done (${lowestText(action.values)} >= ${action.values.doneThreshold})`;
    case 'tests_failed':
      return `${head}: ${failedText(action.values.failed)} (${lowestText(action.values)})`;
    case 'tests_and_criteria_passed':
      return `${head}: ${action.values.ran} tests passed and ${lowestText(action.values)} >= ${action.values.doneThreshold}`;
    case 'criteria_mid_band':
      return `${head}: tests passed but ${lowestText(action.values)} is in the retry band [${action.values.midBandLow}, ${action.values.doneThreshold})`;
    case 'criteria_low':
      return `${head}: tests passed but ${lowestText(action.values)} < ${action.values.midBandLow}`;
  }
}

function lowestText(values: { lowestProbability: number; lowestCriterion?: string }): string {
  return values.lowestCriterion === undefined
    ? `no criteria (vacuous ${values.lowestProbability})`
    : `lowest criterion ${values.lowestCriterion}=${values.lowestProbability}`;
}

function failedText(failed: readonly string[]): string {
  if (failed.length === 0) return 'the test run failed';
  const shown = failed.slice(0, 5).join(', ');
  const more = failed.length > 5 ? ` and ${failed.length - 5} more` : '';
  return `${failed.length} test${failed.length === 1 ? '' : 's'} failed: ${shown}${more}`;
}
