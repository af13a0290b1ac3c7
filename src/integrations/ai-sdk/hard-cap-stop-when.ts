import type { StopCondition } from 'ai';
import { MAX_AGENT_STEPS } from '../../core/stop-policy.js';
import { assertStepCap } from '../../loop/completion-loop.js';

export { assertStepCap };

/**
 * The hard step limit as an AI SDK stop condition: true once the loop has run
 * `maxSteps` steps. It belongs to code, so keep it in every `stopWhen` list.
 *
 * @example
 * await generateText({ model, tools, prompt, stopWhen: [hardCapStopWhen(25), otherCondition] });
 */
export function hardCapStopWhen(maxSteps: number = MAX_AGENT_STEPS): StopCondition<any> {
  assertStepCap(maxSteps);
  return ({ steps }) => steps.length >= maxSteps;
}
