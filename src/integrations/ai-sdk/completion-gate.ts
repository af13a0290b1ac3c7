import * as ai from 'ai';
import type { StepResult, ToolSet } from 'ai';
import { taskContext } from '../../core/policy/describe-decision.js';
import type { StopDecision } from '../../core/policy/stop-decision.js';
import { stepDecider, type StepDecisionOptions } from './step-decider.js';

/** The part of AI SDK 7's steering object the gate uses. */
interface Steering {
  steer(message: string): PromiseLike<unknown>;
}

/**
 * The settings `completionGate` returns: spread them into `generateText` or
 * `streamText` (for a `ToolLoopAgent`, give `stopWhen` to the agent and the
 * other two to `generate` or `stream`). One gate serves one run.
 */
export interface CompletionGate<TOOLS extends ToolSet = any> {
  readonly stopWhen: (options: { readonly steps: ReadonlyArray<StepResult<TOOLS>> }) => boolean;
  readonly onStepFinish: (step: StepResult<TOOLS>) => Promise<void>;
  /**
   * AI SDK 7's `Steering` object for this run. Typed `any` on purpose: the
   * package's types build against AI SDK 6 as well, which has no `Steering`,
   * and a spread into AI SDK 7's `generateText` must type-check.
   */
  readonly experimental_steering: any;
  /** The last decision of the run (not copied by a spread); `undefined` before the first step. */
  readonly decision: StopDecision | undefined;
}

/**
 * Gates an AI SDK 7 run with the stop engine, inside the SDK's own loop:
 * after each step stopwise decides with its policy (the same options and
 * decisions as `policyStopWhen`). A `stop` ends the run: a limit or a
 * hand-off at once, a `success` at the model's final answer (a success on a
 * step with tool calls lets the model finish its turn); the decision, with
 * the rule that fired, is in `gate.decision` and `onDecision`. A `retry` after the model's final answer steers the retry's
 * feedback in as the next user message (the failed tests with their messages,
 * no tests ran, or the criteria not met yet with the task and its acceptance
 * criteria), so the run takes another step instead of ending on a "done" the
 * evidence refutes; steps with tool calls are left alone. An error (the
 * decision model failed, the tests could not be read) rejects the run: it
 * never counts as done. One gate serves one run: make a new one per call.
 *
 * Needs AI SDK 7 (`experimental_createSteering`); on AI SDK 6 it throws a
 * `TypeError` that points to `runGenerateTextCompletionLoop`, which refuses a
 * stop with a loop of its own.
 *
 * @example
 * const gate = completionGate({ client, task, acceptance, readTests: () => runTests({ command: 'npm', args: ['test'] }) });
 * const result = await generateText({ model, tools, prompt: task, ...gate });
 * gate.decision; // { kind: 'stop', exit: 'success', rule: 'tests_and_criteria_passed', ... }
 */
export function completionGate<TOOLS extends ToolSet = any>(options: StepDecisionOptions<TOOLS>): CompletionGate<TOOLS> {
  const createSteering = (ai as Record<string, unknown>).experimental_createSteering;
  if (typeof createSteering !== 'function') {
    throw new TypeError(
      'completionGate needs AI SDK 7 or later (ai@7, which has experimental_createSteering); with ai@6 a stop condition cannot refuse a stop: use runGenerateTextCompletionLoop, which sends the feedback in a loop of its own',
    );
  }
  const decideStep = stepDecider(options, 'completionGate');
  const steering = (createSteering as () => Steering)();
  const steps: StepResult<TOOLS>[] = [];
  let decision: StopDecision | undefined;
  let failure: { readonly error: unknown } | undefined;
  let toolStep = false;
  const gate = {
    stopWhen: () => {
      if (failure !== undefined) throw failure.error;
      // A success on a step with tool calls lets the model finish its turn: the run ends at its final answer.
      return decision?.kind === 'stop' && (decision.exit !== 'success' || !toolStep);
    },
    // Awaited by the SDK before it decides whether to go on; a steer is sent without waiting for its delivery,
    // which happens at the next step boundary, after this callback has returned.
    async onStepFinish(step: StepResult<TOOLS>): Promise<void> {
      steps.push(step);
      toolStep = step.toolCalls.length > 0;
      try {
        decision = await decideStep(steps);
      } catch (error) {
        // The SDK swallows what onStepFinish throws: keep the run going one boundary further, where stopWhen
        // rethrows it and the run rejects, so an error (a decision model that failed) never ends as a "done".
        failure = { error };
        decision = undefined;
        void steering.steer('stopwise could not decide on this step.');
        return;
      }
      if (decision?.kind !== 'retry' || step.toolCalls.length > 0) return;
      const context = options.task === undefined ? undefined : taskContext(decision.feedback, options.task, options.acceptance ?? []);
      void steering.steer(context === undefined ? decision.feedback.message : `${decision.feedback.message}\n\n${context}`);
    },
    experimental_steering: steering,
  };
  Object.defineProperty(gate, 'decision', { enumerable: false, get: () => decision });
  return gate as unknown as CompletionGate<TOOLS>;
}
