import type { CriterionProbabilities } from '../core/criterion-probabilities.js';
import type { StallStep } from '../core/stall-detection/stall-step.js';
import type { StopPolicy } from '../core/stop-policy.js';
import type { TestEvidence } from '../core/test-evidence.js';
import { driveCompletionLoop, resolveLoopPolicy, type CompletionDecision, type CompletionLoopResult, type RetryFeedback } from './completion-loop.js';

/** Options of {@link runManualCompletionLoop}. */
export interface ManualCompletionLoopOptions {
  /** The hard step cap; overrides `policy.maxSteps`. */
  readonly maxSteps?: number;
  readonly policy?: StopPolicy;
  /**
   * Runs one model step. `step` counts from 1; `retry` is set when the previous
   * step was not accepted and holds the reason to pass to the model. `steps`
   * (optional) are the step's tool calls and results.
   */
  generateStep(
    step: number,
    retry: RetryFeedback | undefined,
  ): PromiseLike<{ readonly text: string; readonly steps?: readonly StallStep[] }> | { readonly text: string; readonly steps?: readonly StallStep[] };
  /** Reads the test evidence after a step (runs the suite or reads its report). */
  readTests(context: { readonly step: number; readonly text: string }): PromiseLike<TestEvidence> | TestEvidence;
  /**
   * P(true) per criterion for the step's output. Called only when the step cap,
   * a stall and "no tests ran" did not already decide.
   */
  evaluateCriteria(context: {
    readonly step: number;
    readonly text: string;
    readonly tests: TestEvidence;
  }): PromiseLike<CriterionProbabilities> | CriterionProbabilities;
  /** Sees every decision, retries included, in order. */
  onDecision?(decision: CompletionDecision): void | PromiseLike<void>;
  readonly signal?: AbortSignal;
}

/**
 * A manual completion loop: one model step at a time, then the action table
 * (the seed preset of the stop engine, decided by `decide`). A `retry` runs
 * another step and hands it the reason; `stop_done` or `handoff_human` ends
 * the loop with the action, the last text and the step number. Reaching the
 * cap ends with `handoff_human` / `hard_cap` and `step` equal to the cap.
 * Unlike `stopWhen`, this loop can refuse a stop.
 *
 * @example
 * const result = await runManualCompletionLoop({
 *   generateStep: async (step, retry) => ({ text: (await generateText({ model, prompt: retry?.feedback ?? task })).text }),
 *   readTests: () => runTests(),
 *   evaluateCriteria: ({ text }) => askYourDecisionModel(text),
 * });
 * result.action; // 'stop_done' | 'handoff_human'
 */
export async function runManualCompletionLoop(options: ManualCompletionLoopOptions): Promise<CompletionLoopResult> {
  const policy = resolveLoopPolicy(options.policy, options.maxSteps);
  return driveCompletionLoop({
    policy,
    signal: options.signal,
    generateStep: async (step, retry) => options.generateStep(step, retry),
    readTests: async (step, text) => options.readTests({ step, text }),
    evaluate: async ({ step, text, tests }) => ({ probabilities: await options.evaluateCriteria({ step, text, tests }) }),
    onDecision: options.onDecision === undefined ? undefined : (decision) => options.onDecision?.(decision),
  });
}
