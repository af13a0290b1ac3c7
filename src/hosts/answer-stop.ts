import { formatDuration } from '../core/format-duration.js';
import { describeDecision, taskContext } from '../core/policy/describe-decision.js';
import { decide, initialStopState, needsJudgement } from '../core/policy/decide.js';
import { hookStopPolicy } from '../core/policy/hook-stop-policy.js';
import { parseStopPolicy, presetStopPolicy } from '../core/policy/parse-stop-policy.js';
import type { StopDecision } from '../core/policy/stop-decision.js';
import type { StopEvent } from '../core/policy/stop-event.js';
import type { RuleOutcome, StopPolicyDocument, StopRule } from '../core/policy/stop-policy-document.js';
import type { StopState } from '../core/policy/stop-state.js';
import type { TestEvidence } from '../core/test-evidence.js';
import type { DecisionModelClient } from '../decision-model/decision-model-client.js';
import { createHookClient, hookCompletionInput } from './hook-decision-model.js';
import type { BlockCap, EncodedStop, HookEvent, HostDescription, StopAnswer } from './host.js';
import { projectTestRunner, testRunEvidence, type ProjectTestRunner } from './project-tests.js';
import type { SessionState } from './session-state.js';
import type { StopwiseConfig } from './stopwise-config.js';
import { describeHandOff, initialToolGuardState, startToolGuardTurn } from './tool-guard.js';

/** The line a person reads when the tests fail while the decision model says the task is done. */
export const HUMAN_REVIEW_NOTE =
  'The tests fail while the decision model says the task is done: a person should review this before trusting the result.';

/**
 * The policy the stop hook decides with: the configuration's document, or the
 * hook preset with its numbers. Whatever it says, the hook never traps the
 * agent: before each of its `retry` rules stands the same rule handing off once
 * the blocks in a row reach `maxConsecutiveBlocks`, or the host's own cap
 * (which ends the run itself on the next block, and reads as a normal
 * completion), whichever comes first. The caps are rules of the policy, so `decide` applies them and
 * every decision names the one that fired.
 */
export function hookPolicy(config: Pick<StopwiseConfig, 'policy' | 'stopPolicy' | 'maxConsecutiveBlocks'>, cap: BlockCap | undefined): StopPolicyDocument {
  const base = config.stopPolicy ?? hookStopPolicy(config.policy, { maxConsecutiveBlocks: config.maxConsecutiveBlocks });
  const hostLimit = cap === undefined ? Infinity : cap.blocks;
  const limit = Math.min(config.maxConsecutiveBlocks, hostLimit);
  const then: RuleOutcome = { kind: 'stop', exit: 'need_help', reason: hostLimit < config.maxConsecutiveBlocks ? 'host_block_cap' : 'block_cap' };
  const rules: StopRule[] = base.rules.flatMap((rule) =>
    rule.then.kind !== 'retry' ? [rule] : [{ id: `${rule.id}_capped`, when: { all: [rule.when, { retries: { atLeast: Math.max(1, limit) } }] }, then }, rule],
  );
  const document = { ...base, rules: limit === 0 ? rules.filter((rule) => rule.then.kind !== 'retry') : rules };
  // The caps wrap rules that are valid already; a user's own policy is checked again, since its rule ids might clash with a cap's.
  return config.stopPolicy === undefined ? presetStopPolicy(document) : parseStopPolicy(document);
}

/** What a stop attempt needs besides the session's state. */
export interface StopSession {
  readonly host: HostDescription;
  readonly event: Extract<HookEvent, { kind: 'stop' }>;
  readonly config: StopwiseConfig;
  readonly configPath: string;
  readonly projectDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cap: BlockCap | undefined;
  readonly now: () => Date;
  /** The time left for a step (the tests, the decision model), in milliseconds. */
  readonly stepMs: () => number;
  /** Where the work is, for the message when the deadline runs out. */
  readonly progress: { phase: string };
  readonly testRunner?: ProjectTestRunner;
  /** The decision model to ask, whatever `decisionModel.client` says. */
  readonly client?: DecisionModelClient;
}

/** A stop decided: the next state, the answer, and the evidence and step it rests on. */
export interface DecidedStop {
  readonly state: SessionState;
  readonly answer: StopAnswer;
  readonly tests?: TestEvidence;
  /** The stop attempts of the span so far, this one included. */
  readonly step: number;
}

/**
 * One stop attempt of a session: a hand-off the tool guard left is the
 * answer; otherwise the tests run (a pass on an unchanged tree is reused), the
 * decision model is asked only when `needsJudgement` says the rules need it,
 * and `decide` decides with the hook's policy over the span's state. A block
 * keeps the span; any other answer ends it, and the agent's turn with it: the
 * tool guard's counts start afresh for the next one (its totals stay).
 */
export async function answerStop(session: StopSession, state: SessionState): Promise<DecidedStop> {
  const { event, config, now } = session;
  const at = now().toISOString();
  const ended = (answer: StopAnswer, kind: 'handoff' | 'allow', tests?: TestEvidence): DecidedStop => ({
    state: {
      ...state,
      stop: null,
      tools: state.tools === null ? null : startToolGuardTurn(state.tools, config.toolGuard),
      ...(state.steps === undefined ? {} : { steps: [] }),
      ...(tests === undefined ? {} : { lastEvidence: tests }),
      lastStop: { kind, at },
    },
    answer,
    step: (state.stop?.step ?? 0) + 1,
    ...(tests === undefined ? {} : { tests }),
  });
  if (event.status !== undefined && event.status !== 'completed') return ended({ skipped: `the run ended ${event.status}` }, 'allow');
  const handOff = state.tools?.handOff;
  if (handOff !== null && handOff !== undefined && state.tools !== null) {
    // The guard starts afresh after the person's answer; its totals stay. A hand-off its refusal already made (on a
    // host that may end the run before any stop) is not made twice: the run just ends.
    const tools = { ...initialToolGuardState(config.toolGuard.stall), totals: state.tools.totals };
    const done =
      handOff.delivered === true
        ? ended({ skipped: 'the tool guard handed the run to a person at its refusal' }, 'handoff')
        : ended({ handOff: describeHandOff(handOff), reason: 'tool_guard' }, 'handoff');
    return { ...done, state: { ...done.state, tools } };
  }

  const policy = hookPolicy(config, session.cap);
  const prior: StopState = state.stop ?? initialStopState(policy);
  session.progress.phase = 'running the tests';
  const timeoutMs = Math.min(config.tests.timeoutMs, session.stepMs());
  if (timeoutMs <= 0) return ended({ handOff: 'stopwise: the hook ran out of time before the tests could run; the stop was allowed unchecked. A person should look.', reason: 'deadline' }, 'handoff');
  const run = await (session.testRunner ?? projectTestRunner).run(
    { ...config.tests, timeoutMs },
    { cwd: session.projectDir, env: session.env, ...(state.lastEvidence === undefined ? {} : { previous: state.lastEvidence }) },
  );
  if (run.outcome === 'timeout') {
    const why = run.timeoutMs < config.tests.timeoutMs ? `was stopped after ${formatDuration(run.timeoutMs)}, when the hook's deadline was about to run out` : `did not finish within ${formatDuration(run.timeoutMs)} (tests.timeoutMs) and was stopped`;
    return ended({ handOff: `stopwise: the test command ${why}; the stop was allowed without test evidence. A person should look.`, reason: 'tests_timed_out' }, 'handoff');
  }
  if (run.outcome === 'not_started') {
    // A broken configuration is not the agent's to fix: blocking would send it after advice it cannot follow.
    return ended(
      { handOff: `stopwise: the test command \`${run.command}\` could not start (${run.message}); the stop was allowed unchecked. Fix tests.command in ${session.configPath}; a person should look.`, reason: 'tests_not_started' },
      'handoff',
    );
  }
  const tests = testRunEvidence(run);
  let stopEvent: StopEvent = {
    step: prior.step + 1,
    tests,
    output: event.lastMessage,
    // The tool steps since the last stop, for the policy's stall conditions over steps.
    ...(state.steps === undefined || state.steps.length === 0 ? {} : { steps: state.steps }),
    ...(event.reentered ? { reentered: true } : {}),
    ...(config.taskType === undefined ? {} : { taskType: config.taskType }),
  };
  let modelError: Error | undefined;
  if (needsJudgement(policy, prior, stopEvent)) {
    session.progress.phase = 'asking the decision model';
    const checked = await askDecisionModel(session, tests);
    if (checked === undefined) stopEvent = { ...stopEvent, decisionModel: 'none' };
    else if (checked instanceof Error) {
      modelError = checked;
      stopEvent = { ...stopEvent, decisionModel: 'unavailable' };
    } else stopEvent = { ...stopEvent, probabilities: checked, usage: { decisionModelCalls: 1 } };
  }
  const decided = decide(policy, prior, stopEvent);
  const decision = decided.decision;
  const answer: StopAnswer = {
    decision,
    ...contextOf(decision, config),
    ...(modelError === undefined ? {} : { warning: `stopwise: the decision model could not be asked (${modelError.message}); the tests decided on their own.` }),
  };
  if (decision.kind === 'retry') {
    return { state: { ...state, stop: decided.state, ...(state.steps === undefined ? {} : { steps: [] }), lastEvidence: tests, lastStop: { kind: 'block', at } }, answer, tests, step: stopEvent.step };
  }
  return ended(answer, decision.kind === 'stop' && decision.exit === 'success' ? 'allow' : 'handoff', tests);
}

/** The task and its acceptance criteria after a block for the criteria (`taskContext`). */
export function contextOf(decision: StopDecision, config: Pick<StopwiseConfig, 'task' | 'acceptance'>): { context?: string } {
  const context = decision.kind === 'retry' ? taskContext(decision.feedback, config.task, config.acceptance) : undefined;
  return context === undefined ? {} : { context };
}

/** The decision model's probabilities for the turn; `undefined` when there is none to ask, an `Error` when it could not answer (never thrown). */
async function askDecisionModel(session: StopSession, tests: TestEvidence): Promise<Readonly<Record<string, number>> | Error | undefined> {
  const { config } = session;
  let client: DecisionModelClient | Error | undefined = session.client;
  if (client === undefined) {
    const { client: name, ...settings } = config.decisionModel;
    if (name === 'none') return undefined;
    client = await createHookClient({ ...settings, client: name }, session.env);
    if (client instanceof Error) return client;
  }
  const { checkCompletion } = await import('../decision-model/check-completion.js');
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException("no answer before the hook's deadline", 'TimeoutError')), Math.max(0, session.stepMs()));
  timer.unref?.();
  try {
    return (await checkCompletion(client, hookCompletionInput(config, session.event.lastMessage, tests), { signal: controller.signal })).probabilities;
  } catch (error) {
    if (controller.signal.aborted) return new Error("no answer before the hook's deadline");
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    clearTimeout(timer);
  }
}

const FALLBACK_REASON = 'stopwise: the stop was blocked; run the tests and check the task before you finish.';

/**
 * A stop answer as the encoders read it: a `retry` blocks with its feedback
 * (and the extra context after a blank line; never an empty reason); a stop
 * with exit `success` lets the agent stop; any other stop, a `continue` (a
 * stop hook cannot keep the agent going without a reason to give it) and a
 * hand-off of the hook's own go to the person, with the warning, when there
 * is one, on a line of its own.
 */
export function encodedStop(answer: StopAnswer, host: HostDescription, cap: BlockCap | undefined): EncodedStop {
  if ('skipped' in answer) return { kind: 'allow' };
  if ('handOff' in answer) return { kind: 'handoff', message: answer.handOff };
  const { decision } = answer;
  const warning = answer.warning === undefined ? {} : { warning: answer.warning };
  if (decision.kind === 'retry') {
    const reason = [decision.feedback.message.trim(), answer.context?.trim() ?? ''].filter((part) => part !== '').join('\n\n');
    return { kind: 'block', reason: reason === '' ? FALLBACK_REASON : reason, ...warning };
  }
  if (decision.kind === 'stop' && decision.exit === 'success') return { kind: 'allow', ...warning };
  // A hand-off is the person's only line: what went wrong on the way (the decision model's error) goes with it.
  const message = handOffMessage(decision, host, cap);
  return { kind: 'handoff', message: answer.warning === undefined ? message : `${message}\n${answer.warning}` };
}

/** What a person reads when the hook lets the agent stop without the checks met. */
export function handOffMessage(decision: StopDecision, host: HostDescription, cap: BlockCap | undefined): string {
  const described = describeDecision(decision);
  if (decision.kind === 'continue') {
    return `stopwise: the stop policy did not decide this stop (${described}); a stop hook cannot keep the agent going without a reason for it, so the stop was allowed. A person should look.`;
  }
  if (decision.reason === 'evidence_contradicts_model') return `stopwise: ${HUMAN_REVIEW_NOTE} (${described})`;
  if (decision.reason === 'host_block_cap' && cap !== undefined) {
    return `stopwise: ${host.label} ends the run after ${cap.blocks} blocks in a row (${cap.source}), so stopwise hands the run to you instead: a person should look (${described}).`;
  }
  return `stopwise: the agent was let stop without the checks met: a person should look (${described}).`;
}
