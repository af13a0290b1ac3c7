import type {
  CompletionAction,
  EvidenceAction,
  HandoffHumanAction,
  RetryAction,
  StopDoneAction,
} from '../core/completion-action.js';
import { lowestCriterion, type CriterionProbabilities } from '../core/criterion-probabilities.js';
import { describeValue } from '../core/describe-value.js';
import { seedStopPolicy } from '../core/policy/seed-stop-policy.js';
import type { StopDecision } from '../core/policy/stop-decision.js';
import { toCompletionAction } from '../core/policy/to-completion-action.js';
import type { StallStep } from '../core/stall-detection/stall-step.js';
import { DEFAULT_POLICY, createStopPolicy, type StopPolicy } from '../core/stop-policy.js';
import { assertTestEvidence, type TestEvidence } from '../core/test-evidence.js';
import { decide, initialStopState, needsJudgement } from '../core/policy/decide.js';
import { taskContext } from '../core/policy/describe-decision.js';
import type { StopEvent } from '../core/policy/stop-event.js';

/**
 * One decision after a step: the action, and whether the criteria were judged.
 * `evaluated: false` when the step cap, a stall or "no tests ran" decided from
 * evidence alone; otherwise `evaluated: true` with the probabilities (and the
 * model that answered, when a decision-model client was asked). Every
 * `EvaluatedCompletionAction` of `decideCompletionAfterEvaluate` is one.
 * `decision` is the stop engine's decision it projects, when an engine-run
 * loop made it.
 */
export type CompletionDecision =
  | (EvidenceAction & { readonly evaluated: false; readonly decision?: StopDecision })
  | (CompletionAction & {
      readonly evaluated: true;
      readonly probabilities: CriterionProbabilities;
      readonly model?: string;
      readonly decision?: StopDecision;
    });

/** A step that was not accepted: the retry action and the message that explains it to the working model. */
export interface RetryFeedback {
  readonly action: RetryAction;
  readonly feedback: string;
}

/** How a completion loop ended: `stop_done` or `handoff_human`, why, the last text and the step it ended on. */
export interface CompletionLoopResult {
  readonly action: 'stop_done' | 'handoff_human';
  readonly reason: StopDoneAction['reason'] | HandoffHumanAction['reason'];
  readonly text: string;
  readonly step: number;
  /** The final decision, with the rule that fired and its values. */
  readonly decision: CompletionDecision & (StopDoneAction | HandoffHumanAction);
}

/** The decision model's answer for one step: P(true) per criterion, and the model that answered. */
export interface StepJudgement {
  readonly probabilities: CriterionProbabilities;
  readonly model?: string | undefined;
}

/** What a completion loop is built from: one step, its evidence, the judgement, and how a retry is explained. */
export interface CompletionLoopDriver {
  readonly policy: StopPolicy;
  readonly signal?: AbortSignal | undefined;
  /** One model step; `steps` are its tool calls and results, for a `step_history` stall rule of the policy. */
  generateStep(step: number, retry: RetryFeedback | undefined): Promise<{ readonly text: string; readonly steps?: readonly StallStep[] }>;
  readTests(step: number, text: string): Promise<TestEvidence>;
  /** Asked only when the policy's decision depends on the probabilities (`needsJudgement`). */
  evaluate(context: { step: number; text: string; tests: TestEvidence }): Promise<StepJudgement>;
  /** The task and acceptance criteria, repeated to the agent after a retry for the criteria. */
  readonly task?: string;
  readonly acceptance?: readonly string[];
  onDecision?: ((decision: CompletionDecision) => void | PromiseLike<void>) | undefined;
}

/** The policy a loop runs with: `policy` with `maxSteps` laid over it when given. */
export function resolveLoopPolicy(policy: StopPolicy | undefined, maxSteps: number | undefined): StopPolicy {
  if (maxSteps !== undefined) assertStepCap(maxSteps);
  const base = policy ?? DEFAULT_POLICY;
  return maxSteps === undefined ? createStopPolicy({ ...base }) : createStopPolicy({ ...base, maxSteps });
}

/** Throws a `TypeError` unless `maxSteps` is a positive integer. */
export function assertStepCap(maxSteps: unknown): asserts maxSteps is number {
  if (typeof maxSteps !== 'number' || !Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new TypeError(`maxSteps must be a positive integer, got ${String(maxSteps)}`);
  }
}

/**
 * Runs one step at a time with the seed preset (`seedStopPolicy(driver.policy)`):
 * after each step `decide` decides on its text, test evidence and tool steps,
 * asking `evaluate` only when `needsJudgement` says so. A `retry` runs another
 * step with the reason; anything else ends the loop. Steps count from 1; the
 * stall rule includes the current step's fingerprint; the hard cap ends the
 * loop at the cap. Rejects with what a step, the test reader, the judgement or
 * `onDecision` threw (the caller's abort reason on an abort): an error is never
 * a decision.
 */
export async function driveCompletionLoop(driver: CompletionLoopDriver): Promise<CompletionLoopResult> {
  const policy = seedStopPolicy(driver.policy);
  let state = initialStopState(policy);
  let retry: RetryFeedback | undefined;
  for (let step = 1; ; step++) {
    if (driver.signal?.aborted === true) throw driver.signal.reason;
    const generated: unknown = await driver.generateStep(step, retry);
    const text = (generated as { text?: unknown } | null | undefined)?.text;
    if (typeof text !== 'string') {
      const got = typeof generated === 'object' && generated !== null ? `text ${describeValue(text)}` : describeValue(generated);
      throw new TypeError(`step ${step} must resolve to { text: string }, got ${got}`);
    }
    const steps = (generated as { steps?: readonly StallStep[] }).steps;
    const tests = await driver.readTests(step, text);
    assertTestEvidence(tests);
    let event: StopEvent = { step, tests, output: text, ...(steps === undefined ? {} : { steps }) };
    let judged: StepJudgement | undefined;
    if (needsJudgement(policy, state, event)) {
      judged = await driver.evaluate({ step, text, tests });
      // A malformed answer is a RangeError naming the criterion, as the action table always threw.
      lowestCriterion(judged.probabilities);
      event = { ...event, probabilities: judged.probabilities };
    }
    const decided = decide(policy, state, event);
    state = decided.state;
    const action = toCompletionAction(decided.decision, driver.policy);
    const decision: CompletionDecision =
      judged === undefined
        ? { ...(action as EvidenceAction), evaluated: false, decision: decided.decision }
        : { ...action, evaluated: true, probabilities: judged.probabilities, ...(judged.model === undefined ? {} : { model: judged.model }), decision: decided.decision };
    await driver.onDecision?.(decision);
    if (decision.action !== 'retry') return { action: decision.action, reason: decision.reason, text, step, decision: decision as CompletionDecision & (StopDoneAction | HandoffHumanAction) };
    const feedback = decided.decision.kind === 'retry' ? decided.decision.feedback : { message: '' };
    const context = taskContext(feedback, driver.task ?? '', driver.acceptance ?? []);
    retry = { action: decision, feedback: context === undefined ? feedback.message : `${feedback.message}\n\n${context}` };
  }
}
