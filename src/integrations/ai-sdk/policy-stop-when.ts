import type { StopCondition, ToolSet } from 'ai';
import { stepDecider, type StepDecisionOptions } from './step-decider.js';

/**
 * A stop condition that runs the stop engine (`decide`) after each step (see
 * `StepDecisionOptions` for the event it decides): a `stop` decision stops
 * the loop; `retry` and `continue` let it go on, if the model goes on: a stop
 * condition can end a loop early but never force another step (to refuse a
 * stop, see `completionGate` with AI SDK 7, or `runGenerateTextCompletionLoop`).
 * The engine's state is kept per run, so one condition can serve several runs.
 * A decision-model error rejects the loop; it never counts as done.
 *
 * @example
 * const result = await generateText({
 *   model, tools, prompt: task,
 *   stopWhen: [hardCapStopWhen(25), policyStopWhen({ client, task, acceptance, readTests: () => runTests() })],
 * });
 */
export function policyStopWhen<TOOLS extends ToolSet = any>(options: StepDecisionOptions<TOOLS>): StopCondition<TOOLS> {
  const decideStep = stepDecider(options, 'policyStopWhen');
  return async ({ steps }) => (await decideStep(steps))?.kind === 'stop';
}
