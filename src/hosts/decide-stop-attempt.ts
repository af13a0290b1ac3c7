import { decide, needsJudgement } from '../core/policy/decide.js';
import type { StopDecision } from '../core/policy/stop-decision.js';
import type { StopEvent } from '../core/policy/stop-event.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import type { StopState } from '../core/policy/stop-state.js';
import type { TestEvidence } from '../core/test-evidence.js';
import type { StopHookCheck, StopHookDecision } from './stop-hook-decision.js';
import { blockCapHandoff, toStopHookDecision, type StopHookFacts } from './to-stop-hook-decision.js';

/** What {@link decideStopAttempt} decides from. */
export interface StopAttemptParts {
  readonly policy: StopPolicyDocument;
  /** The session's stop state before this attempt (`sessionStopState`). */
  readonly state: StopState;
  readonly tests: TestEvidence;
  /** The agent's last message. */
  readonly output: string;
  /** The host's re-entry flag (`hostSignalsReentry`). */
  readonly reentered: boolean;
  readonly taskType?: string;
  /** The most blocks in a row the hook gives, whatever the policy says. */
  readonly maxConsecutiveBlocks: number;
  /** Asks the decision model; `undefined` when there is none. Called only when the policy's rules need its answer. */
  readonly askModel?: () => Promise<StopHookCheck>;
}

/** One stop attempt decided: the engine's decision and state after it, and the hook's answer. */
export interface StopAttemptResult {
  readonly decision: StopDecision;
  readonly state: StopState;
  readonly answer: StopHookDecision;
  readonly event: StopEvent;
}

/**
 * One stop attempt as one event of the stop engine (`step` is the attempt's
 * number in the span, after `state.step`): the decision model is asked only
 * when `needsJudgement` says the rules need it, and its answer (or why there
 * is none: `judge` `'unavailable'` or `'none'`) joins the event; `decide`
 * then decides, and `toStopHookDecision` words the answer. A block the
 * policy asks for after `maxConsecutiveBlocks` blocks in a row is handed off
 * instead (`blockCapHandoff`): the hook never traps the agent.
 */
export async function decideStopAttempt(parts: StopAttemptParts): Promise<StopAttemptResult> {
  const { policy, state, tests } = parts;
  const base: StopEvent = {
    step: state.step + 1,
    tests,
    output: parts.output,
    ...(parts.reentered ? { reentered: true } : {}),
    ...(parts.taskType === undefined ? {} : { taskType: parts.taskType }),
  };
  let event = base;
  let facts: StopHookFacts = { tests };
  if (needsJudgement(policy, state, base)) {
    const checked = parts.askModel === undefined ? undefined : await parts.askModel();
    if (checked === undefined) event = { ...base, judge: 'none' };
    else if (checked instanceof Error) {
      event = { ...base, judge: 'unavailable' };
      facts = { tests, modelError: checked };
    } else {
      event = { ...base, probabilities: checked.probabilities };
      facts = { tests, probabilities: checked.probabilities };
    }
  }
  const result = decide(policy, state, event);
  const capped = result.decision.kind === 'retry' && state.retries >= parts.maxConsecutiveBlocks;
  const answer = capped ? blockCapHandoff(result.decision, state.retries) : toStopHookDecision(result.decision, facts);
  return { decision: result.decision, state: result.state, answer, event };
}
