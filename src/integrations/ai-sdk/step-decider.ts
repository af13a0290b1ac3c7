import type { StepResult, ToolSet } from 'ai';
import { describeValue } from '../../core/describe-value.js';
import type { FinishSignal } from '../../core/finish-signal.js';
import { decide, initialStopState, needsJudgement } from '../../core/policy/decide.js';
import { policyReadsCriteria } from '../../core/policy/policy-reads-criteria.js';
import { seedStopPolicy } from '../../core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../core/policy/stop-decision.js';
import type { StopEvent, StopEventUsage } from '../../core/policy/stop-event.js';
import type { StopPolicyDocument } from '../../core/policy/stop-policy-document.js';
import type { StopState } from '../../core/policy/stop-state.js';
import { DEFAULT_POLICY, type StopPolicy } from '../../core/stop-policy.js';
import type { TestEvidence } from '../../core/test-evidence.js';
import { notifyStopEnd } from '../../core/stop-observer.js';
import { askDecisionModel, assertDecisionModelClient, decisionModelSpend } from '../../decision-model/check-completion.js';
import { createCompletionRequest } from '../../decision-model/completion-request.js';
import type { DecisionModelClient, DecisionModelQuestions } from '../../decision-model/decision-model-client.js';
import { FINISH_TOOL_NAME } from '../../providers/finish-tool.js';
import { parseFinishSignal } from '../../providers/parse-finish-signal.js';
import { stallStepsFromAiSdkStep } from './ai-sdk-stall-steps.js';
import { stepProgressText, stepsText } from './step-text.js';

/** What the options of the AI SDK stop conditions have in common, whatever the policy. */
interface StepDecisionBase<TOOLS extends ToolSet> {
  /** The questions to ask; `doneCriteria` by default. */
  readonly questions?: DecisionModelQuestions;
  /** The output the decision model judges; by default the text of every step so far. */
  readOutput?(steps: ReadonlyArray<StepResult<TOOLS>>): string;
  /** Sees every decision (retries included) with the event it decided, in order; awaited before the run goes on. */
  onDecision?(decision: StopDecision, event: StopEvent): void | PromiseLike<void>;
}

/**
 * The options of `policyStopWhen` and `completionGate`. With the seed preset
 * (no `policy`, or its numbers), the decision model is asked: `client`,
 * `task`, `acceptance` and `readTests` are required. With a policy document,
 * `client` (with `task` and `acceptance`) is needed only when a rule compares
 * criterion probabilities, and `readTests` only when a rule reads the tests.
 */
export type StepDecisionOptions<TOOLS extends ToolSet = any> = StepDecisionBase<TOOLS> &
  (
    | {
        /** The numbers of the seed preset (the defaults when absent). */
        readonly policy?: StopPolicy;
        /** The decision model. */
        readonly client: DecisionModelClient;
        /** What the agent was asked to do. */
        readonly task: string;
        /** The acceptance criteria the output is judged against. */
        readonly acceptance: readonly string[];
        /** Reads the test evidence after a step (runs the suite, reads its report, or reads a tool result in `steps`). */
        readTests(steps: ReadonlyArray<StepResult<TOOLS>>): TestEvidence | PromiseLike<TestEvidence>;
      }
    | {
        /** A stop policy document (`parseStopPolicy`). */
        readonly policy: StopPolicyDocument;
        readonly client?: DecisionModelClient;
        readonly task?: string;
        readonly acceptance?: readonly string[];
        readTests?(steps: ReadonlyArray<StepResult<TOOLS>>): TestEvidence | PromiseLike<TestEvidence>;
      }
  );

/** Decides each step of AI SDK runs with the stop engine: the engine's state is kept per run, so one decider serves several runs. */
export interface StepDecider<TOOLS extends ToolSet> {
  (steps: ReadonlyArray<StepResult<TOOLS>>): Promise<StopDecision | undefined>;
}

/**
 * The stop engine after each AI SDK step: its event is the step number, the
 * test evidence, the step's text and tool calls (the progress fingerprint),
 * its tool calls and results as `steps` (for a `step_history` stall rule), its
 * token usage and failed tool calls, and its call of the `finish` tool as
 * `signal`. The decision model is asked only when `needsJudgement` says the
 * decision depends on it; its error rejects (it never counts as done). A run's
 * end is reported to the stop observer once.
 */
export function stepDecider<TOOLS extends ToolSet>(options: StepDecisionOptions<TOOLS>, name: string): StepDecider<TOOLS> {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${name} needs options, got ${describeValue(options)}`);
  const document = isDocument(options.policy) ? options.policy : seedStopPolicy(options.policy ?? DEFAULT_POLICY);
  initialStopState(document);
  const readsCriteria = policyReadsCriteria(document);
  if (options.client === undefined && readsCriteria) {
    const which = isDocument(options.policy) ? 'a rule of the policy compares criterion probabilities' : 'the default policy (the seed preset) compares criterion probabilities';
    throw new TypeError(
      `${name}: ${which}, so it needs a decision model to ask: pass client (a decision-model client, such as createConfiguredClient makes) with the task and its acceptance criteria, or a policy document that decides on the evidence alone`,
    );
  }
  if (options.client !== undefined) {
    assertDecisionModelClient(options.client);
    if (typeof options.task !== 'string' || !Array.isArray(options.acceptance)) {
      throw new TypeError(`${name}: the decision model judges the output against the task and the acceptance criteria: pass task (a string) and acceptance (an array of strings)`);
    }
  }
  if (options.readTests !== undefined ? typeof options.readTests !== 'function' : !isDocument(options.policy)) {
    throw new TypeError(`${name}: the default policy decides on test evidence: pass readTests(steps), which runs the suite or reads its report`);
  }
  const runs = new WeakMap<object, StopState>();
  return async (steps) => {
    const last = steps[steps.length - 1];
    const first = steps[0];
    if (last === undefined || first === undefined) return undefined;
    const tests = options.readTests === undefined ? undefined : await options.readTests(steps);
    const state = runs.get(first) ?? initialStopState(document);
    const signal = finishSignalOf(last);
    let event: StopEvent = {
      step: steps.length,
      output: stepProgressText(last),
      steps: stallStepsFromAiSdkStep(last),
      usage: stepUsage(last),
      ...(tests === undefined ? {} : { tests }),
      ...(signal === undefined ? {} : { signal }),
    };
    if (options.client !== undefined && needsJudgement(document, state, event)) {
      const request = createCompletionRequest({
        task: options.task as string,
        output: options.readOutput === undefined ? stepsText(steps) : options.readOutput(steps),
        acceptance: options.acceptance as readonly string[],
        tests: tests ?? { passed: false, failed: [], ran: 0 },
        ...(options.questions === undefined ? {} : { questions: options.questions }),
      });
      const evaluated = await askDecisionModel(options.client, request, {});
      event = { ...event, probabilities: evaluated.probabilities, usage: { ...event.usage, ...decisionModelSpend(evaluated) } };
    }
    const decided = decide(document, state, event);
    runs.set(first, decided.state);
    await options.onDecision?.(decided.decision, event);
    if (decided.decision.kind === 'stop') notifyStopEnd({ driver: 'ai-sdk', decision: decided.decision, totals: decided.state.totals });
    return decided.decision;
  };
}

function isDocument(policy: StopPolicy | StopPolicyDocument | undefined): policy is StopPolicyDocument {
  return typeof policy === 'object' && policy !== null && ('rules' in policy || 'version' in policy);
}

/** The finish signal of a step: its call of the `finish` tool; a malformed call is not a signal (the tool's own result tells the model why). */
function finishSignalOf(step: StepResult<any>): FinishSignal | undefined {
  for (const call of step.toolCalls ?? []) {
    if (call.toolName !== FINISH_TOOL_NAME) continue;
    const parsed = parseFinishSignal(call.input);
    if (parsed.ok) return parsed.signal;
  }
  return undefined;
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
