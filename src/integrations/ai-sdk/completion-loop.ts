import { advanceLoopState, initialLoopState, type AgentLoopState } from '../../core/agent-loop-state.js';
import type {
  CompletionAction,
  EvidenceAction,
  HandoffHumanAction,
  RetryAction,
  StopDoneAction,
} from '../../core/completion-action.js';
import type { CriterionProbabilities } from '../../core/criterion-probabilities.js';
import { DEFAULT_POLICY, createStopPolicy, type StopPolicy } from '../../core/stop-policy.js';
import { assertTestEvidence, type TestEvidence } from '../../core/test-evidence.js';
import { describeValue } from '../../core/describe-value.js';
import { fromCompletionAction } from '../../core/policy/from-completion-action.js';
import { notifyStopEnd } from '../../core/stop-observer.js';
import { assertStepCap } from './hard-cap-stop-when.js';

/**
 * One decision after a step: the action, and whether the criteria were judged.
 * `evaluated: false` when the step cap, a stall or "no tests ran" decided from
 * evidence alone; otherwise `evaluated: true` with the probabilities (and the
 * model that answered, when a decision-model client was asked). Every
 * `EvaluatedCompletionAction` of `decideCompletionAfterEvaluate` is one.
 */
export type CompletionDecision =
  | (EvidenceAction & { readonly evaluated: false })
  | (CompletionAction & {
      readonly evaluated: true;
      readonly probabilities: CriterionProbabilities;
      readonly model?: string;
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

/** What a completion loop is built from; the two public loops fill it in. */
export interface CompletionLoopDriver {
  readonly policy: StopPolicy;
  readonly signal?: AbortSignal | undefined;
  generateStep(step: number, retry: RetryFeedback | undefined): Promise<{ readonly text: string }>;
  readTests(step: number, text: string): Promise<TestEvidence>;
  decide(context: { step: number; text: string; tests: TestEvidence; loop: AgentLoopState }): Promise<CompletionDecision>;
  explain(decision: CompletionDecision & RetryAction, tests: TestEvidence): string;
  onDecision?: ((decision: CompletionDecision) => void | PromiseLike<void>) | undefined;
}

/** The policy a loop runs with: `policy` with `maxSteps` laid over it when given. */
export function resolveLoopPolicy(policy: StopPolicy | undefined, maxSteps: number | undefined): StopPolicy {
  if (maxSteps !== undefined) assertStepCap(maxSteps);
  const base = policy ?? DEFAULT_POLICY;
  return maxSteps === undefined ? createStopPolicy({ ...base }) : createStopPolicy({ ...base, maxSteps });
}

/**
 * Runs one step at a time and decides after each: a `retry` runs another step
 * with the reason, anything else ends the loop. Steps count from 1; the stall
 * check includes the current step's fingerprint; the action table's rule 1
 * ends the loop at the cap.
 */
export async function driveCompletionLoop(driver: CompletionLoopDriver): Promise<CompletionLoopResult> {
  let loop = initialLoopState();
  let retry: RetryFeedback | undefined;
  for (;;) {
    driver.signal?.throwIfAborted();
    const step = loop.step + 1;
    const generated: unknown = await driver.generateStep(step, retry);
    const text = (generated as { text?: unknown } | null | undefined)?.text;
    if (typeof text !== 'string') {
      const got = typeof generated === 'object' && generated !== null ? `text ${describeValue(text)}` : describeValue(generated);
      throw new TypeError(`step ${step} must resolve to { text: string }, got ${got}`);
    }
    const tests = await driver.readTests(step, text);
    assertTestEvidence(tests);
    loop = advanceLoopState(loop, tests, text, driver.policy.stallRounds);
    const decision = await driver.decide({ step, text, tests, loop });
    await driver.onDecision?.(decision);
    if (decision.action === 'retry') {
      retry = { action: decision, feedback: driver.explain(decision, tests) };
      continue;
    }
    notifyStopEnd({ driver: 'ai-sdk', decision: fromCompletionAction(decision) });
    return { action: decision.action, reason: decision.reason, text, step, decision };
  }
}
