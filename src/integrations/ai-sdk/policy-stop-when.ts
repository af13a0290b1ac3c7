import type { StepResult, StopCondition, ToolSet } from 'ai';
import type { CompletionAction, EvidenceAction } from '../../core/completion-action.js';
import type { CriterionProbabilities } from '../../core/criterion-probabilities.js';
import { describeValue } from '../../core/describe-value.js';
import { decide, needsJudgement } from '../../core/policy/decide.js';
import { policyReadsCriteria } from '../../core/policy/policy-reads-criteria.js';
import { seedStopPolicy } from '../../core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../core/policy/stop-decision.js';
import type { StopEvent, StopEventUsage } from '../../core/policy/stop-event.js';
import type { StopPolicyDocument } from '../../core/policy/stop-policy-document.js';
import { initialStopState, type StopState } from '../../core/policy/stop-state.js';
import { toCompletionAction } from '../../core/policy/to-completion-action.js';
import { DEFAULT_POLICY, type StopPolicy } from '../../core/stop-policy.js';
import type { TestEvidence } from '../../core/test-evidence.js';
import { askDecisionModel, assertEvaluationClient } from '../../judge/check-completion.js';
import { createCompletionRequest } from '../../judge/completion-request.js';
import type { EvaluationClient, EvaluationQuestions } from '../../judge/evaluation-client.js';
import { FINISH_TOOL_NAME } from '../../loop/finish-tool.js';
import { parseFinishSignal } from '../../loop/parse-finish-signal.js';
import { stallStepsFromAiSdkStep } from '../../providers/ai-sdk-stall-steps.js';
import type { FinishSignal } from '../../core/finish-signal.js';
import type { CompletionDecision } from './completion-loop.js';
import { stepProgressText, stepsText } from './step-text.js';
import { toStopWhenAnswer } from './to-stop-when-answer.js';
import { notifyStopEnd } from '../../core/stop-observer.js';

/**
 * A decision of a policy document as `onDecision` sees it: the engine's
 * decision (`kind`, `exit`, `reason`, `rule`, `values`, `trace`), whether the
 * decision model was asked for this step, and what it answered.
 */
export type PolicyDocumentDecision = StopDecision & {
  readonly evaluated: boolean;
  readonly probabilities?: CriterionProbabilities;
  readonly model?: string;
};

/**
 * What `onDecision` sees: with the `StopPolicy` numbers (the seed preset),
 * today's `CompletionDecision` with the engine's decision as `decision`; with
 * a policy document, a {@link PolicyDocumentDecision}.
 */
export type PolicyStopWhenDecision<POLICY extends StopPolicy | StopPolicyDocument = StopPolicy> = POLICY extends StopPolicyDocument
  ? PolicyDocumentDecision
  : CompletionDecision & { readonly decision: StopDecision };

/** Options of {@link policyStopWhen}. */
export interface PolicyStopWhenOptions<TOOLS extends ToolSet = any, POLICY extends StopPolicy | StopPolicyDocument = StopPolicy> {
  /** The decision model; needed when the policy compares criterion probabilities. */
  readonly client?: EvaluationClient;
  /** What the agent was asked to do. */
  readonly task?: string;
  /** The acceptance criteria the output is judged against. */
  readonly acceptance?: readonly string[];
  /**
   * Reads the test evidence after a step (runs the suite, reads its report, or reads a tool result in `steps`).
   * Required with the seed preset; without it a policy document sees no test evidence.
   */
  readTests?(steps: ReadonlyArray<StepResult<TOOLS>>): TestEvidence | PromiseLike<TestEvidence>;
  /**
   * The stop policy: the numbers of the seed preset (`StopPolicy`, `DEFAULT_POLICY` by default) or a policy
   * document (`parseStopPolicy`), validated here.
   */
  readonly policy?: POLICY;
  /** The questions to ask; `doneCriteria` by default. */
  readonly questions?: EvaluationQuestions;
  /** The output the decision model judges; by default the text of every step so far. */
  readOutput?(steps: ReadonlyArray<StepResult<TOOLS>>): string;
  /** Sees every decision (retries included) with its rule, values, probabilities and whether the model was asked. */
  onDecision?(decision: PolicyStopWhenDecision<POLICY>): void | PromiseLike<void>;
}

/**
 * A stop condition that runs the stop engine (`decide`) after each step: its
 * event is the step number, the test evidence, the step's text and tool calls
 * (the seed's progress fingerprint), the step's tool calls and results as
 * `steps` (`stallStepsFromAiSdkStep`, for a `step_history` stall rule), its
 * token usage and tool errors, and its call of the `finish` tool as `signal`. The decision model is asked only when
 * `needsJudgement` says the decision depends on it. A `stop` decision stops
 * the loop; `retry` and `continue` let it go on, if the model goes on: a stop
 * condition can end a loop early but never force another step.
 *
 * The engine's state is kept per run, so one condition can serve several runs.
 * A decision-model error rejects the loop; it never counts as done.
 *
 * @example
 * const result = await generateText({
 *   model, tools, prompt: task,
 *   stopWhen: [hardCapStopWhen(25), policyStopWhen({ client, task, acceptance, readTests: () => runTests(), onDecision: log })],
 * });
 */
export function policyStopWhen<TOOLS extends ToolSet = any, POLICY extends StopPolicy | StopPolicyDocument = StopPolicy>(
  options: PolicyStopWhenOptions<TOOLS, POLICY>,
): StopCondition<TOOLS> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`policyStopWhen needs options, got ${describeValue(options)}`);
  }
  const numbers = options.policy === undefined || !isDocument(options.policy) ? ((options.policy as StopPolicy | undefined) ?? DEFAULT_POLICY) : undefined;
  const policy = numbers === undefined ? (options.policy as StopPolicyDocument) : seedStopPolicy(numbers);
  initialStopState(policy);
  if (options.client !== undefined || policyReadsCriteria(policy)) {
    assertEvaluationClient(options.client as EvaluationClient);
    if (typeof options.task !== 'string' || !Array.isArray(options.acceptance)) {
      throw new TypeError('policyStopWhen needs the task and the acceptance criteria the decision model judges the output against');
    }
  }
  if (options.readTests !== undefined ? typeof options.readTests !== 'function' : numbers !== undefined) {
    throw new TypeError('policyStopWhen needs a readTests(steps) function');
  }
  const runs = new WeakMap<object, StopState>();

  return async ({ steps }) => {
    const last = steps[steps.length - 1];
    const first = steps[0];
    if (last === undefined || first === undefined) return false;
    const tests = options.readTests === undefined ? undefined : await options.readTests(steps);
    const state = runs.get(first) ?? initialStopState(policy);
    let event: StopEvent = {
      step: steps.length,
      output: stepProgressText(last),
      steps: stallStepsFromAiSdkStep(last),
      usage: stepUsage(last),
      ...(tests === undefined ? {} : { tests }),
    };
    const signal = finishSignalOf(last);
    if (signal !== undefined) event = { ...event, signal };
    let model: string | undefined;
    if (needsJudgement(policy, state, event)) {
      const output = options.readOutput === undefined ? stepsText(steps) : options.readOutput(steps);
      const request = createCompletionRequest({
        task: options.task as string,
        output,
        acceptance: options.acceptance as readonly string[],
        tests: tests ?? { passed: false, failed: [], ran: 0 },
        ...(options.questions === undefined ? {} : { questions: options.questions }),
      });
      const evaluated = await askDecisionModel(options.client as EvaluationClient, request, {});
      model = evaluated.model;
      event = { ...event, probabilities: evaluated.probabilities, usage: { ...event.usage, judgeCalls: 1 } };
    }
    const decided = decide(policy, state, event);
    runs.set(first, decided.state);
    const decision = decided.decision;
    await options.onDecision?.(report(decision, event, model, numbers) as PolicyStopWhenDecision<POLICY>);
    const stops = toStopWhenAnswer(decision);
    if (stops) notifyStopEnd({ driver: 'ai-sdk', decision, totals: decided.state.totals });
    return stops;
  };
}

/** The decision as `onDecision` reports it: the seed preset's projection, or the engine's decision. */
function report(decision: StopDecision, event: StopEvent, model: string | undefined, numbers: StopPolicy | undefined): PolicyStopWhenDecision<StopPolicy> | PolicyDocumentDecision {
  const judged = event.probabilities === undefined ? { evaluated: false as const } : { evaluated: true as const, probabilities: event.probabilities, ...(model === undefined ? {} : { model }) };
  if (numbers === undefined) return { ...decision, ...judged };
  const action = toCompletionAction(decision, numbers);
  return judged.evaluated ? { ...(action as CompletionAction), ...judged, decision } : { ...(action as EvidenceAction), evaluated: false, decision };
}

/**
 * The finish signal of a step: its call of the `finish` tool (`aiSdkFinishTool`), read with
 * `parseFinishSignal`. A malformed call is not a signal; the tool's own result tells the model why.
 */
function finishSignalOf(step: StepResult<any>): FinishSignal | undefined {
  for (const call of step.toolCalls ?? []) {
    if (call.toolName !== FINISH_TOOL_NAME) continue;
    const parsed = parseFinishSignal(call.input);
    if (parsed.ok) return parsed.signal;
  }
  return undefined;
}

function isDocument(policy: StopPolicy | StopPolicyDocument): policy is StopPolicyDocument {
  return typeof policy === 'object' && policy !== null && ('rules' in policy || 'version' in policy);
}

/** What one AI SDK step used: its tokens, and its failed tool calls as tool errors. */
function stepUsage(step: StepResult<any>): StopEventUsage {
  const usage = step.usage as { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined;
  const toolErrors = (step.content ?? []).filter((part: { type?: string }) => part.type === 'tool-error').length;
  return {
    ...(typeof usage?.inputTokens === 'number' ? { inputTokens: usage.inputTokens } : {}),
    ...(typeof usage?.outputTokens === 'number' ? { outputTokens: usage.outputTokens } : {}),
    ...(toolErrors === 0 ? {} : { toolErrors }),
  };
}
