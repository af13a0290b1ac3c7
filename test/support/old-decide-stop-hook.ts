// The stop hook's decision table as it was before it became the hook preset of the stop engine: the baseline
// of the differential test of `decideStopHook` (test/hosts/decide-stop-hook-preset.test.ts). Kept as it was; not used elsewhere.
import type { AgentLoopState } from '../../src/core/agent-loop-state.js';
import { decideFromEvidence } from '../../src/core/decide-completion-action.js';
import { DEFAULT_POLICY, type StopPolicy } from '../../src/core/stop-policy.js';
import { assertTestEvidence, noTestsRan, testsFailed, type TestEvidence } from '../../src/core/test-evidence.js';
import { blockReasonFromCompletion, describeFailedTests, describeProbabilities } from '../../src/hosts/block-reason.js';
import { isStopEventName } from '../../src/hosts/hook-host.js';
import { hostSignalsReentry, type StopHookInput } from '../../src/hosts/stop-hook-input.js';

/** The line a person reads when the tests fail while the decision model says the task is done. */
const HUMAN_REVIEW_NOTE =
  'The tests fail while the decision model says the task is done: a person should review this before trusting the result.';

/** Keep the agent working: the host feeds `reason` back to it. */
interface StopHookBlock {
  readonly decision: 'block';
  readonly reason: string;
  /** A warning for the person, when something went wrong on the way (the decision model was down). */
  readonly systemMessage?: string;
}

/** Let the agent stop and tell the person why they should look (a hand-off). */
interface StopHookHandoff {
  readonly systemMessage: string;
}

/** What a stop hook answers: block, hand off, or `undefined` to let the stop go ahead silently. */
type StopHookDecision = StopHookBlock | StopHookHandoff | undefined;

/**
 * What the decision model said about the turn, as `checkCompletion` reports
 * it. An `Error` stands for a model that could not be asked (down, timed out,
 * answered garbage); `undefined` for a model that was not asked.
 */
type StopHookCheck =
  | {
      readonly modelSaysDone: boolean;
      readonly probabilities: Readonly<Record<string, number>>;
      readonly model?: string;
    }
  | Error
  | undefined;

/** What the stateless table cannot know on its own. */
interface DecideStopHookOptions {
  /**
   * Whether this stop attempt re-enters after a block. Defaults to what the
   * host says (`stop_hook_active`, or Cursor's `loop_count` above zero); the
   * `stopwise hook` command passes its own count of blocks instead.
   */
  readonly reEntered?: boolean;
  /** The stop attempts so far: with it, the step cap and a stall hand off first (rules 1 and 2). */
  readonly loop?: AgentLoopState;
  readonly policy?: StopPolicy;
}

/**
 * The stop hook's decision table: given the hook input, what the decision
 * model said (or `undefined` when it was not asked, or an `Error` when it
 * could not be), and the test evidence, block the stop with a reason for the
 * agent, hand off with a message for the person, or allow it (`undefined`).
 * Failing or missing tests block once and then hand off; a decision model
 * that is down never turns a failure into a stop, and never blocks on its own.
 *
 * @example
 * decideStopHook({ hook_event_name: 'Stop', stop_hook_active: false }, undefined, { passed: false, failed: ['auth > login'], ran: 12 });
 * // { decision: 'block', reason: '1 test failed: auth > login. Fix it and run the tests again before you stop.' }
 */
export function oldDecideStopHook(
  input: StopHookInput,
  checked: StopHookCheck,
  tests: TestEvidence,
  options: DecideStopHookOptions = {},
): StopHookDecision {
  if (input.hook_event_name !== undefined && !isStopEventName(input.hook_event_name)) return undefined;
  assertTestEvidence(tests);
  const policy = options.policy ?? DEFAULT_POLICY;
  const reEntered = options.reEntered ?? hostSignalsReentry(input);
  const modelDown = checked instanceof Error ? checked : undefined;
  const judged = checked === undefined || checked instanceof Error ? undefined : checked;

  if (options.loop !== undefined) {
    const limit = stopLimitHandoff(tests, options.loop, policy);
    if (limit !== undefined) return limit;
  }

  if (testsFailed(tests)) {
    if (judged?.modelSaysDone === true) {
      return {
        systemMessage: `stopwise: ${HUMAN_REVIEW_NOTE} ${capitalize(describeFailedTests(tests.failed))}; ${describeProbabilities(judged.probabilities)}.`,
      };
    }
    if (reEntered) {
      return {
        systemMessage: `stopwise: the tests still fail after the agent was asked to fix them (${describeFailedTests(tests.failed)}); it was let stop so that it does not loop. A person should look.`,
      };
    }
    const reason = blockReasonFromCompletion({
      done: false,
      reason: 'tests_failed',
      failed: tests.failed,
      ...(tests.failures === undefined ? {} : { failures: tests.failures }),
    });
    return modelDown === undefined ? { decision: 'block', reason } : { decision: 'block', reason, systemMessage: modelDownLine(modelDown) };
  }

  if (noTestsRan(tests)) {
    if (reEntered) {
      return {
        systemMessage: 'stopwise: still no tests ran after the agent was asked to run the suite; it was let stop so that it does not loop. A person should look.',
      };
    }
    const reason = blockReasonFromCompletion({
      done: false,
      reason: 'no_tests_ran',
      ...(tests.failures === undefined ? {} : { failures: tests.failures }),
    });
    return { decision: 'block', reason };
  }

  if (reEntered) return undefined;
  if (modelDown !== undefined) {
    return {
      systemMessage: `stopwise: the tests pass, but the decision model could not be asked (${modelDown.message}); the stop was allowed without the acceptance check. A person should look.`,
    };
  }
  if (judged === undefined || judged.modelSaysDone) return undefined;
  return {
    decision: 'block',
    reason: blockReasonFromCompletion({
      done: false,
      reason: 'criteria_below_threshold',
      probabilities: judged.probabilities,
      doneThreshold: policy.doneThreshold,
    }),
  };
}

/**
 * Rules 1 and 2 of the action table for a stop hook: the hand-off when the
 * attempts so far reach the step cap or stall, `undefined` when neither does.
 */
function stopLimitHandoff(tests: TestEvidence, loop: AgentLoopState, policy: StopPolicy): StopHookHandoff | undefined {
  const capped = decideFromEvidence(tests, loop, policy);
  if (capped?.reason === 'hard_cap') {
    return {
      systemMessage: `stopwise: the agent reached the step cap (${capped.values.step} stop attempts in a row, cap ${capped.values.maxSteps}) without meeting the checks; it was let stop. A person should look.`,
    };
  }
  if (capped?.reason === 'stalled') {
    return {
      systemMessage: `stopwise: the last ${capped.values.stallRounds} stop attempts were identical (same test results, same final message): the agent is not making progress; it was let stop. A person should look.`,
    };
  }
  return undefined;
}

function modelDownLine(error: Error): string {
  return `stopwise: the decision model could not be asked (${error.message}); the failing tests decide on their own.`;
}

function capitalize(text: string): string {
  return text.length === 0 ? text : `${text[0]?.toUpperCase()}${text.slice(1)}`;
}
