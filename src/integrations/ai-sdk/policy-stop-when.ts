import type { StepResult, StopCondition, ToolSet } from 'ai';
import { advanceLoopState, initialLoopState, type AgentLoopState } from '../../core/agent-loop-state.js';
import { DEFAULT_POLICY, assertStopPolicy, type StopPolicy } from '../../core/stop-policy.js';
import { assertTestEvidence, type TestEvidence } from '../../core/test-evidence.js';
import { describeValue } from '../../core/describe-value.js';
import { fromCompletionAction } from '../../core/policy/from-completion-action.js';
import { notifyStopEnd } from '../../core/stop-observer.js';
import { assertEvaluationClient } from '../../judge/check-completion.js';
import { decideCompletionAfterEvaluate } from '../../judge/decide-completion-after-evaluate.js';
import type { EvaluationClient, EvaluationQuestions } from '../../judge/evaluation-client.js';
import type { CompletionDecision } from './completion-loop.js';
import { stepProgressText, stepsText } from './step-text.js';

/** Options of {@link policyStopWhen}. */
export interface PolicyStopWhenOptions<TOOLS extends ToolSet = any> {
  /** The decision model. */
  readonly client: EvaluationClient;
  /** What the agent was asked to do. */
  readonly task: string;
  /** The acceptance criteria the output is judged against. */
  readonly acceptance: readonly string[];
  /** Reads the test evidence after a step (runs the suite, reads its report, or reads a tool result in `steps`). */
  readTests(steps: ReadonlyArray<StepResult<TOOLS>>): TestEvidence | PromiseLike<TestEvidence>;
  readonly policy?: StopPolicy;
  /** The questions to ask; `doneCriteria` by default. */
  readonly questions?: EvaluationQuestions;
  /** The output the decision model judges; by default the text of every step so far. */
  readOutput?(steps: ReadonlyArray<StepResult<TOOLS>>): string;
  /** Sees every decision (retries included) with its probabilities and whether the model was asked. */
  onDecision?(decision: CompletionDecision): void | PromiseLike<void>;
}

/**
 * A stop condition that runs the action table after each step: it reads the
 * test evidence, asks the decision model only when the step cap, a stall or
 * "no tests ran" did not already decide, and stops the loop on `stop_done` or
 * `handoff_human`. A `retry` lets the loop go on, if the model goes on: a stop
 * condition can end a loop early but never force another step.
 *
 * The stall window is kept per run, so one condition can serve several runs.
 * A decision-model error rejects the loop; it never counts as done.
 *
 * @example
 * const result = await generateText({
 *   model, tools, prompt: task,
 *   stopWhen: [hardCapStopWhen(25), policyStopWhen({ client, task, acceptance, readTests: () => runTests(), onDecision: log })],
 * });
 */
export function policyStopWhen<TOOLS extends ToolSet = any>(options: PolicyStopWhenOptions<TOOLS>): StopCondition<TOOLS> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`policyStopWhen needs options, got ${describeValue(options)}`);
  }
  assertEvaluationClient(options.client);
  if (typeof options.readTests !== 'function') {
    throw new TypeError('policyStopWhen needs a readTests(steps) function');
  }
  const policy = options.policy ?? DEFAULT_POLICY;
  assertStopPolicy(policy);
  const runs = new WeakMap<object, AgentLoopState>();

  return async ({ steps }) => {
    const last = steps[steps.length - 1];
    const first = steps[0];
    if (last === undefined || first === undefined) return false;
    const tests = await options.readTests(steps);
    assertTestEvidence(tests);
    const previous = runs.get(first) ?? initialLoopState();
    const advanced = advanceLoopState(previous, tests, stepProgressText(last), policy.stallRounds);
    const loop: AgentLoopState = { step: steps.length, recentFingerprints: advanced.recentFingerprints };
    runs.set(first, loop);
    const output = options.readOutput === undefined ? stepsText(steps) : options.readOutput(steps);
    const decision = await decideCompletionAfterEvaluate(options.client, {
      task: options.task,
      output,
      acceptance: options.acceptance,
      tests,
      loop,
      policy,
      ...(options.questions === undefined ? {} : { questions: options.questions }),
    });
    await options.onDecision?.(decision);
    if (decision.action !== 'retry') notifyStopEnd({ driver: 'ai-sdk', decision: fromCompletionAction(decision) });
    return decision.action !== 'retry';
  };
}
