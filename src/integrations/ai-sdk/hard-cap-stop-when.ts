import type { StopCondition } from 'ai';
import { decide, initialStopState } from '../../core/policy/decide.js';
import { parseStopPolicy } from '../../core/policy/parse-stop-policy.js';
import { STOP_POLICY_VERSION } from '../../core/policy/stop-policy-document.js';
import { MAX_AGENT_STEPS } from '../../core/stop-policy.js';
import { assertStepCap } from '../../loop/completion-loop.js';

/**
 * The hard step limit as an AI SDK stop condition: true once the loop has run
 * `maxSteps` steps. It is the engine's step cap (a policy of one
 * `{ limit: { of: 'steps', max } }` rule), which reads only the step number,
 * so it keeps no state between calls. It belongs to code, so keep it in every
 * `stopWhen` list.
 *
 * @example
 * await generateText({ model, tools, prompt, stopWhen: [hardCapStopWhen(25), otherCondition] });
 */
export function hardCapStopWhen(maxSteps: number = MAX_AGENT_STEPS): StopCondition<any> {
  assertStepCap(maxSteps);
  const policy = parseStopPolicy({
    version: STOP_POLICY_VERSION,
    name: 'hard-cap',
    rules: [{ id: 'hard_cap', when: { limit: { of: 'steps', max: maxSteps } }, then: { kind: 'stop', exit: 'limit', reason: 'hard_cap' } }],
  });
  const start = initialStopState(policy);
  return ({ steps }) => steps.length > 0 && decide(policy, start, { step: steps.length }).decision.kind === 'stop';
}
