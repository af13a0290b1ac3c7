import type { StepResult, StopCondition, ToolSet } from 'ai';
import { MAX_AGENT_STEPS } from '../../core/stop-policy.js';
import { describeValue } from '../../core/describe-value.js';
import { hardCapStopWhen } from './hard-cap-stop-when.js';
import { decide, initialStopState } from '../../core/policy/decide.js';
import { parseStopPolicy } from '../../core/policy/parse-stop-policy.js';
import { STOP_POLICY_VERSION } from '../../core/policy/stop-policy-document.js';

/** A check of the steps so far: `true` stops the loop. It may be asynchronous. */
export type DoneCheck<TOOLS extends ToolSet = any> = (
  steps: ReadonlyArray<StepResult<TOOLS>>,
) => boolean | PromiseLike<boolean>;

/** The policy of a completion check: the check's `true` stops the run as a success. */
const CHECKED_DONE = parseStopPolicy({
  version: STOP_POLICY_VERSION,
  name: 'completion-check',
  rules: [{ id: 'done', when: { check: { name: 'done', is: 'passed' } }, then: { kind: 'stop', exit: 'success', reason: 'done' } }],
});

/**
 * Wraps a sync or async check of the steps into an AI SDK stop condition.
 * Only a boolean is accepted as the check's answer: anything else is a
 * `TypeError`, and a check that throws rejects the loop (an error never
 * becomes a stop that looks like success).
 *
 * @example
 * const testsGreen = createCompletionStopWhen(async () => (await runTests()).passed);
 */
export function createCompletionStopWhen<TOOLS extends ToolSet = any>(
  inspect: DoneCheck<TOOLS>,
): StopCondition<TOOLS> {
  if (typeof inspect !== 'function') {
    throw new TypeError(`createCompletionStopWhen needs a function, got ${describeValue(inspect)}`);
  }
  const start = initialStopState(CHECKED_DONE);
  return async ({ steps }) => {
    const done: unknown = await inspect(steps);
    if (typeof done !== 'boolean') {
      throw new TypeError(`the completion check must return a boolean, got ${describeValue(done)}`);
    }
    return decide(CHECKED_DONE, start, { step: steps.length, checks: { done } }).decision.kind === 'stop';
  };
}

/**
 * The `stopWhen` list for a completion-checked loop: the hard cap first, then
 * the completion check. The loop stops when either is true.
 *
 * @example
 * await generateText({ model, tools, prompt, stopWhen: completionStopWhen(checkDone, 25) });
 */
export function completionStopWhen<TOOLS extends ToolSet = any>(
  checkDone: DoneCheck<TOOLS>,
  maxSteps: number = MAX_AGENT_STEPS,
): [StopCondition<TOOLS>, StopCondition<TOOLS>] {
  return [hardCapStopWhen(maxSteps), createCompletionStopWhen(checkDone)];
}
