import { describeValue, safeJson } from '../core/describe-value.js';
import { addUsage, emptyUsage, remainingBudget } from '../core/budget.js';
import { agentLoopPolicy, policyBudgetLimits } from '../core/policy/agent-loop-policy.js';
import { decide, decideUnobserved, initialStopState, needsJudgement } from '../core/policy/decide.js';
import { policyReadsCriteria } from '../core/policy/policy-reads-criteria.js';
import type { RetryFeedback, StopDecision } from '../core/policy/stop-decision.js';
import type { StopEvent } from '../core/policy/stop-event.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import { toStopOutcome } from '../core/policy/to-stop-outcome.js';
import type { StallStep } from '../core/stall-detection/stall-step.js';
import type { TestEvidence } from '../core/test-evidence.js';
import type { BudgetLimitKind, BudgetLimits, BudgetRemaining, BudgetUsage } from '../core/budget.js';
import type { FinishSignal } from '../core/finish-signal.js';
import type {
  FailurePhase,
  HumanExchange,
  OutcomeBase,
  StopOutcome,
  TurnRecord,
  TurnUsage,
  Verification,
} from '../core/stop-outcome.js';
import { nearestName } from '../core/nearest-name.js';
import { notifyDecision, notifyStopEnd } from '../core/stop-observer.js';
import { isWrapUpTurn } from '../core/wrap-up.js';
import { parseFinishSignal } from '../providers/parse-finish-signal.js';
import { askDecisionModel, assertDecisionModelClient, decisionModelSpend } from '../decision-model/check-completion.js';
import { createCompletionRequest } from '../decision-model/completion-request.js';
import type { DecisionModelClient, DecisionModelQuestions } from '../decision-model/decision-model-client.js';

/** What `turn` is told before it runs. */
export interface TurnState {
  /** The number of this turn, from 1. */
  readonly step: number;
  /** What the run has used before this turn. */
  readonly usage: BudgetUsage;
  /** What is left of each limit that is set. */
  readonly remaining: BudgetRemaining;
  /** True on the last turns before a limit: ask the model for a final answer, without tools. */
  readonly wrapUp: boolean;
  /** The criteria the last rejected `done` did not meet; empty until a `done` is rejected. */
  readonly unmet: readonly string[];
  /** A person's answer to the question of the previous turn. */
  readonly humanAnswer?: string;
  /** Set when the previous turn asked a person and nobody answered in time (with `onHumanTimeout: 'continue'`). */
  readonly unanswered?: { readonly question: string; readonly waitedMs: number };
  /** The last text a turn returned; `''` before any. */
  readonly lastText: string;
  /** Set when the stop policy's decision after the previous turn was a `retry`: what to tell the agent. */
  readonly feedback?: RetryFeedback;
}

/** What one turn reports back. No `signal` and no `provider` means "continue". */
export interface TurnResult {
  /** A parsed finish signal (see `parseFinishSignal`); it is validated again here. */
  readonly signal?: FinishSignal;
  /**
   * The provider's own limit cut the generation short, or it could not be read:
   * the `end` step of a provider mapper (`mapAnthropicStopReason` and the
   * like) holds it, with `signal`, so spread the step into the result.
   */
  readonly provider?: { readonly stop: 'token_limit' | 'step_limit' | 'failed'; readonly detail?: string };
  /** The model's text of this turn. */
  readonly text?: string;
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number; readonly cost?: number };
  readonly toolErrors?: number;
  /** The turn's tool calls and their results (and messages), in order, for a `step_history` stall rule. */
  readonly steps?: readonly StallStep[];
  /** The test evidence after this turn, for the policy's `tests` conditions and the decision model. */
  readonly tests?: TestEvidence;
  /** Named deterministic checks of this turn, for `check` conditions. */
  readonly checks?: Readonly<Record<string, boolean>>;
  /** The working tree's fingerprint now, to tell fresh test evidence from stale. */
  readonly tree?: string;
}

/** A `done` claim for `verify` to check. */
export interface DoneClaim {
  readonly step: number;
  readonly note: string;
  readonly text: string;
  readonly usage: BudgetUsage;
}

/** Passed to every callback: aborted when the caller's signal aborts (and, for `askHuman`, at the deadline). */
export interface LoopCallContext {
  readonly signal: AbortSignal;
}

/** Options of {@link runAgentLoop}. */
export interface RunAgentLoopOptions {
  /** One model call and its tool executions. */
  readonly turn: (state: TurnState, context: LoopCallContext) => TurnResult | Promise<TurnResult>;
  /**
   * Checks a `done` claim with code: `{ ok: true }` or `{ ok: false, unmet: [...] }`; the answer is the
   * event's `verification`. Required with `limits`; optional with a `policy` (whose rules may read other evidence).
   */
  readonly verify?: ((claim: DoneClaim, context: LoopCallContext) => Verification | Promise<Verification>) | undefined;
  /** Asks a person; resolves to the answer. Without it a `need_help` ends the run at once. */
  readonly askHuman?: (question: string, context: LoopCallContext) => string | Promise<string>;
  /**
   * Hard limits, with the names of `checkBudget`: the run decides with the policy these limits make (its exits as
   * rules: a verified `done`, `give_up`, an unanswered `need_help`, the provider's own limit or failure, the budget).
   * Give `limits` or `policy`, not both.
   */
  readonly limits?: BudgetLimits | undefined;
  /**
   * The stop policy to decide with after every turn, instead of the one built from `limits`; its limit rules
   * (`policyBudgetLimits`) are the run's budget. Validated before the first turn.
   */
  readonly policy?: StopPolicyDocument | undefined;
  /**
   * The decision model, asked about the turn just completed (its text, the
   * test evidence) when `needsJudgement` says the policy's decision depends on
   * it; each call counts one `decisionModelCalls`. Required when the policy has
   * a `criteria` condition.
   */
  readonly client?: DecisionModelClient | undefined;
  /** What the agent was asked to do, as the decision model reads it (with `client`). */
  readonly task?: string | undefined;
  /** The acceptance criteria the decision model judges the turn's text against. */
  readonly acceptance?: readonly string[] | undefined;
  /** The questions to ask; `doneCriteria` by default. */
  readonly questions?: DecisionModelQuestions | undefined;
  /** Sees every decision, in order, with the event it decided; awaited before the run goes on. */
  readonly onDecision?: ((decision: StopDecision, event: StopEvent) => void | PromiseLike<void>) | undefined;
  /** The clock, in milliseconds; default `Date.now`. */
  readonly now?: () => number;
  /** Aborts the run: it ends as `failed` with an `AbortError`, keeping its state. */
  readonly signal?: AbortSignal;
  /** How long to wait for a person (default 10 minutes; never longer than the wall-clock time left). */
  readonly humanTimeoutMs?: number;
  /** When nobody answers in time: end as `need_help` (default) or go on without the answer. */
  readonly onHumanTimeout?: 'stop' | 'continue';
  /** How many turns before a limit are wrap-up turns (default 1). */
  readonly wrapUpSteps?: number;
}

/** The default wait for a person: 10 minutes. */
export const DEFAULT_HUMAN_TIMEOUT_MS = 600_000;

const ZERO_TURN_USAGE: TurnUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, cost: 0, toolErrors: 0 });

class CallFailed extends Error {
  constructor(
    readonly during: FailurePhase,
    readonly thrown: unknown,
  ) {
    super('callback failed');
  }
}

/**
 * Drives a loop whose model call and tool execution are the caller's, and
 * guarantees it ends in one typed {@link StopOutcome}. After every turn the
 * stop engine decides on one event (the turn's usage, the wall clock, its
 * finish signal, `verify`'s answer to a `done` claim, a person's answer to a
 * `need_help`, its test evidence and tool steps, and the decision model's
 * probabilities when the policy needs them): a `stop` ends the run with the
 * decision's exit (`outcome.decision` names the rule), a `retry` or
 * `continue` runs another turn. With `limits` the policy is
 * `agentLoopPolicy(limits)`: `done` is a claim `verify` must confirm,
 * `give_up` and `need_help` end the run (a person is asked first, with a
 * deadline), a limit ends it. A budget already spent ends the run before its
 * first turn; any exception ends it as `failed` with its state kept.
 * Rejects only for misuse (bad options), before the first turn.
 *
 * @example
 * const outcome = await runAgentLoop({
 *   limits: { maxSteps: 20, maxCost: 2 },
 *   turn: async (state) => callModelAndTools(state), // → { signal?, text?, usage? }
 *   verify: async () => (await testsPass()) ? { ok: true } : { ok: false, unmet: ['tests pass'] },
 * });
 * console.log(stopReasonOf(outcome), outcome.steps);
 */
export async function runAgentLoop(options: RunAgentLoopOptions): Promise<StopOutcome> {
  const outcome = await driveLoop(options);
  notifyStopEnd({ driver: 'run-agent-loop', outcome, ...(outcome.decision === undefined ? {} : { decision: outcome.decision }) });
  return outcome;
}

async function driveLoop(options: RunAgentLoopOptions): Promise<StopOutcome> {
  assertOptions(options);
  const {
    turn,
    verify,
    askHuman,
    client,
    onDecision,
    now = () => Date.now(),
    signal: callerSignal,
    humanTimeoutMs = DEFAULT_HUMAN_TIMEOUT_MS,
    onHumanTimeout = 'stop',
    wrapUpSteps = 1,
  } = options;
  const policy = options.policy ?? agentLoopPolicy(options.limits as BudgetLimits, onHumanTimeout);
  const limits = options.limits ?? policyBudgetLimits(policy);
  let stopState = initialStopState(policy);

  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) forwardAbort();
  else callerSignal?.addEventListener('abort', forwardAbort, { once: true });
  const context: LoopCallContext = { signal: controller.signal };

  const startedAt = now();
  let usage = emptyUsage();
  const trace: TurnRecord[] = [];
  let lastText = '';
  let unmet: readonly string[] = [];
  let humanAnswer: string | undefined;
  let unanswered: { question: string; waitedMs: number } | undefined;
  let lastWrapUpText: string | undefined;
  let feedback: RetryFeedback | undefined;
  let started = false;

  const elapsed = (): number => Math.max(0, now() - startedAt);
  const withClock = (): BudgetUsage => ({ ...usage, wallClockMs: elapsed() });
  const base = (): OutcomeBase => ({ steps: usage.steps, usage, text: lastText, trace });
  // Every way out of the run passes here, once, with the outcome (and its decision when a rule ended the run).
  const end = (outcome: StopOutcome): StopOutcome => outcome;

  try {
    for (;;) {
      usage = withClock();
      if (controller.signal.aborted) return end(failed(base(), 'turn', abortError(controller.signal)));
      if (!started) {
        // Before the first turn, the event of step 0: a budget already spent (a wall clock, a step cap of 0) leaves no room for one.
        // There is nothing to judge yet: a rule that reads the criteria does not hold at step 0. Only a stop counts there: any
        // other decision (a retry for "no tests ran" before anything ran) leaves no trace, and the first turn decides afresh.
        started = true;
        const first: StopEvent = { step: 0, elapsedMs: usage.wallClockMs };
        const initial: StopEvent = needsJudgement(policy, stopState, first) ? { ...first, decisionModel: 'none' } : first;
        const decided = decideUnobserved(policy, stopState, initial);
        if (decided.decision.kind === 'stop') {
          stopState = decided.state;
          notifyDecision(decided.decision, decided.state.step, decided.state.totals, policy.name);
          if (onDecision !== undefined) await onDecision(decided.decision, initial);
          return end(toStopOutcome(decided.decision, { ...base(), budget: options.limits }));
        }
      }

      const step = usage.steps + 1;
      const wrapUp = isWrapUpTurn(limits, usage, wrapUpSteps);
      const state: TurnState = {
        step,
        usage,
        remaining: remainingBudget(limits, usage),
        wrapUp,
        unmet,
        lastText,
        ...(humanAnswer === undefined ? {} : { humanAnswer }),
        ...(unanswered === undefined ? {} : { unanswered }),
        ...(feedback === undefined ? {} : { feedback }),
      };
      humanAnswer = undefined;
      unanswered = undefined;
      feedback = undefined;
      const turnStartedAt = now();
      const record: { -readonly [K in keyof TurnRecord]: TurnRecord[K] } = { step, ms: 0, usage: ZERO_TURN_USAGE, wrapUp };
      let recorded = false;
      const finishRecord = (): void => {
        if (recorded) return;
        recorded = true;
        record.ms = Math.max(0, now() - turnStartedAt);
        trace.push(record);
      };

      let result: TurnResult;
      try {
        result = await settle('turn', controller.signal, () => turn(state, context));
        if (typeof result !== 'object' || result === null) {
          throw new CallFailed('turn', new TypeError(`turn must resolve to an object { signal?, text?, usage? }, got ${String(result)}`));
        }
        const turnUsage = readTurnUsage(result);
        usage = { ...addUsage(usage, turnUsage), wallClockMs: elapsed() };
        record.usage = turnUsage;
      } catch (error) {
        usage = { ...addUsage(usage), wallClockMs: elapsed() };
        const failure = asCallFailed(error, 'turn');
        record.error = errorMessage(failure.thrown);
        finishRecord();
        return end(failed(base(), failure.during, failure.thrown));
      }
      if (typeof result.text === 'string') lastText = result.text;
      lastWrapUpText = wrapUp && typeof result.text === 'string' ? result.text : undefined;

      try {
        const signal = readSignal(result);
        const provider = readProvider(result);
        let verification: Verification | undefined;
        let exchange: HumanExchange | undefined;
        if (signal !== undefined) record.signal = signal;
        if (provider !== undefined) record.provider = provider.stop;
        if (signal?.kind === 'done' && verify !== undefined) {
          const claim: DoneClaim = { step, note: signal.note, text: lastText, usage: withClock() };
          verification = readVerification(await settle('verify', controller.signal, () => verify(claim, context)));
          record.verification = verification;
        }
        if (signal?.kind === 'need_help') {
          exchange = await consultHuman(signal.note);
          record.human = exchange;
        }
        finishRecord();
        usage = withClock();

        let event = turnEvent(step, record.usage, usage.wallClockMs, result, signal, provider?.stop, verification, exchange);
        if (client !== undefined && needsJudgement(policy, stopState, event)) {
          const request = createCompletionRequest({
            task: options.task ?? '',
            output: lastText,
            acceptance: options.acceptance ?? [],
            tests: result.tests ?? NO_TESTS,
            ...(options.questions === undefined ? {} : { questions: options.questions }),
          });
          const evaluated = await settle('decisionModel', controller.signal, () => askDecisionModel(client, request, { signal: controller.signal }));
          event = { ...event, probabilities: evaluated.probabilities, usage: { ...event.usage, ...decisionModelSpend(evaluated) } };
          usage = withClock();
        }
        const decided = decide(policy, stopState, event);
        stopState = decided.state;
        const decision = decided.decision;
        record.decision = { kind: decision.kind, rule: decision.rule, reason: decision.reason };
        if (onDecision !== undefined) await onDecision(decision, event);
        if (decision.kind === 'stop') {
          return end(
            toStopOutcome(decision, {
              ...base(),
              signal,
              human: exchange,
              finalAnswer: lastWrapUpText,
              budget: options.limits,
              ...(provider?.detail === undefined ? {} : { providerError: provider.detail }),
            }),
          );
        }
        if (verification?.ok === false) unmet = verification.unmet;
        if (decision.kind === 'retry') feedback = decision.feedback;
        if (exchange?.answer !== undefined) humanAnswer = exchange.answer;
        else if (exchange?.timedOut === true) unanswered = { question: exchange.question, waitedMs: exchange.waitedMs };
      } catch (error) {
        const failure = asCallFailed(error, 'turn');
        if (!recorded) record.error = errorMessage(failure.thrown);
        finishRecord();
        usage = withClock();
        return end(failed(base(), failure.during, failure.thrown));
      }
    }
  } finally {
    callerSignal?.removeEventListener('abort', forwardAbort);
  }

  async function consultHuman(question: string): Promise<HumanExchange> {
    if (askHuman === undefined) return { question, waitedMs: 0, timedOut: false };
    const wallClockLeft = limits.maxWallClockMs === undefined ? Infinity : Math.max(0, limits.maxWallClockMs - elapsed());
    const deadline = Math.min(humanTimeoutMs, wallClockLeft);
    const waitController = new AbortController();
    const onAbort = (): void => waitController.abort(controller.signal.reason);
    controller.signal.addEventListener('abort', onAbort, { once: true });
    const askedAt = now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), deadline);
    });
    try {
      const answer = await settle('askHuman', controller.signal, () =>
        Promise.race([Promise.resolve(askHuman(question, { signal: waitController.signal })), timeout]),
      );
      const waitedMs = Math.max(0, now() - askedAt);
      if (answer === TIMED_OUT) {
        waitController.abort(new DOMException('nobody answered before the deadline', 'TimeoutError'));
        return { question, waitedMs, timedOut: true };
      }
      if (typeof answer !== 'string') {
        throw new CallFailed('askHuman', new TypeError(`askHuman must resolve to a string, got ${describeValue(answer)}`));
      }
      return { question, answer, waitedMs, timedOut: false };
    } finally {
      clearTimeout(timer);
      controller.signal.removeEventListener('abort', onAbort);
    }
  }
}

const TIMED_OUT = Symbol('timed out');

const NO_TESTS: TestEvidence = Object.freeze({ passed: false, failed: Object.freeze([]) as readonly string[], ran: 0 });

/** The event of one turn, as the stop policy reads it. */
function turnEvent(
  step: number,
  used: TurnUsage,
  elapsedMs: number,
  result: TurnResult,
  signal: FinishSignal | undefined,
  provider: 'token_limit' | 'step_limit' | 'failed' | undefined,
  verification: Verification | undefined,
  exchange: HumanExchange | undefined,
): StopEvent {
  return {
    step,
    usage: { inputTokens: used.inputTokens, outputTokens: used.outputTokens, cost: used.cost, toolErrors: used.toolErrors },
    elapsedMs,
    output: typeof result.text === 'string' ? result.text : '',
    ...(signal === undefined ? {} : { signal }),
    ...(provider === undefined ? {} : { provider }),
    ...(verification === undefined ? {} : { verification }),
    ...(exchange === undefined ? {} : { human: exchange.answer === undefined ? { timedOut: exchange.timedOut } : { answer: exchange.answer, timedOut: exchange.timedOut } }),
    ...(result.tests === undefined ? {} : { tests: result.tests }),
    ...(result.steps === undefined ? {} : { steps: result.steps }),
    ...(result.checks === undefined ? {} : { checks: result.checks }),
    ...(result.tree === undefined ? {} : { tree: result.tree }),
  };
}

function readSignal(result: TurnResult): FinishSignal | undefined {
  if (result.signal === undefined) return undefined;
  const parsed = parseFinishSignal(result.signal);
  if (!parsed.ok) throw new TypeError(`turn returned an invalid finish signal: ${parsed.error.message}`);
  return parsed.signal;
}

function readProvider(result: TurnResult): TurnResult['provider'] {
  const provider = result.provider;
  if (provider === undefined) return undefined;
  if (typeof provider !== 'object' || provider === null || !['token_limit', 'step_limit', 'failed'].includes(provider.stop) || (provider.detail !== undefined && typeof provider.detail !== 'string')) {
    throw new TypeError(`turn returned an invalid provider stop: ${safeJson(provider)}; expected { stop: 'token_limit' | 'step_limit' | 'failed', detail? }`);
  }
  return provider;
}

const TURN_USAGE_KEYS = ['inputTokens', 'outputTokens', 'cost'] as const;

function readTurnUsage(result: TurnResult): TurnUsage {
  const usage = result.usage ?? {};
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) {
    throw new TypeError('turn usage must be an object { inputTokens?, outputTokens?, cost? }');
  }
  for (const key of Object.keys(usage)) {
    if ((TURN_USAGE_KEYS as readonly string[]).includes(key)) continue;
    const near = nearestName(key, TURN_USAGE_KEYS);
    const hint = near === undefined ? `the keys are ${TURN_USAGE_KEYS.join(', ')}` : `did you mean ${near}? The keys are ${TURN_USAGE_KEYS.join(', ')}`;
    throw new TypeError(`turn usage has an unknown key ${JSON.stringify(key)}: ${hint}`);
  }
  const read = (name: string, value: unknown): number => {
    if (value === undefined) return 0;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`turn ${name} must be a non-negative finite number, got ${String(value)}`);
    }
    return value;
  };
  return {
    inputTokens: read('usage.inputTokens', usage.inputTokens),
    outputTokens: read('usage.outputTokens', usage.outputTokens),
    cost: read('usage.cost', usage.cost),
    toolErrors: read('toolErrors', result.toolErrors),
  };
}

function readVerification(value: Verification): Verification {
  if (typeof value === 'object' && value !== null) {
    if (value.ok === true) return { ok: true };
    if (value.ok === false && Array.isArray(value.unmet) && value.unmet.every((item) => typeof item === 'string')) {
      return { ok: false, unmet: [...value.unmet] };
    }
  }
  throw new CallFailed(
    'verify',
    new TypeError(`verify must resolve to { ok: true } or { ok: false, unmet: string[] }, got ${safeJson(value)}`),
  );
}

/** Runs a callback, turning a throw, a rejection or an abort into a `CallFailed` for `phase`. */
async function settle<T>(phase: FailurePhase, signal: AbortSignal, call: () => T | Promise<T>): Promise<T> {
  if (signal.aborted) throw new CallFailed(phase, abortError(signal));
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new CallFailed(phase, abortError(signal)));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([Promise.resolve().then(call), aborted]);
  } catch (error) {
    throw asCallFailed(error, phase);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

function asCallFailed(error: unknown, phase: FailurePhase): CallFailed {
  return error instanceof CallFailed ? error : new CallFailed(phase, error);
}

function failed(base: OutcomeBase, during: FailurePhase, thrown: unknown): StopOutcome {
  const name = thrown instanceof Error ? thrown.name : 'Error';
  return { ...base, exit: 'failed', error: { name, message: errorMessage(thrown), during }, cause: thrown };
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  const detail = reason instanceof Error ? reason.message : reason === undefined ? '' : String(reason);
  const error = new Error(detail === '' || detail === 'This operation was aborted' ? 'the run was aborted' : `the run was aborted: ${detail}`);
  error.name = 'AbortError';
  return error;
}

function errorMessage(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  if (typeof thrown === 'string') return thrown;
  return `non-error value thrown: ${safeJson(thrown)}`;
}

function assertOptions(options: RunAgentLoopOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('runAgentLoop needs an options object');
  if (typeof options.turn !== 'function') throw new TypeError('runAgentLoop: turn must be a function');
  if (options.policy === undefined ? typeof options.verify !== 'function' : options.verify !== undefined && typeof options.verify !== 'function') {
    throw new TypeError('runAgentLoop: verify must be a function');
  }
  if (options.client !== undefined) assertDecisionModelClient(options.client);
  for (const name of ['askHuman', 'onDecision'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw new TypeError(`runAgentLoop: ${name} must be a function`);
  }
  if (options.policy === undefined) agentLoopPolicy(options.limits as BudgetLimits);
  else {
    if (options.limits !== undefined) {
      throw new TypeError('runAgentLoop: give limits or a policy, not both (a policy holds its own limits: see policyBudgetLimits)');
    }
    initialStopState(options.policy);
    if (options.client === undefined && policyReadsCriteria(options.policy)) {
      throw new TypeError(
        'runAgentLoop: a rule of the policy compares criterion probabilities, so the run needs a decision model to ask: pass client (a decision-model client, such as createConfiguredClient makes), with the task and its acceptance criteria',
      );
    }
  }
  if (options.now !== undefined && typeof options.now !== 'function') throw new TypeError('runAgentLoop: now must be a function');
  const { humanTimeoutMs, onHumanTimeout, wrapUpSteps } = options;
  if (humanTimeoutMs !== undefined && !(typeof humanTimeoutMs === 'number' && humanTimeoutMs >= 0 && humanTimeoutMs <= 2_147_483_647)) {
    throw new TypeError(`runAgentLoop: humanTimeoutMs must be a number of milliseconds from 0 to 2147483647, got ${String(humanTimeoutMs)}`);
  }
  if (onHumanTimeout !== undefined && onHumanTimeout !== 'stop' && onHumanTimeout !== 'continue') {
    throw new TypeError(`runAgentLoop: onHumanTimeout must be 'stop' or 'continue', got ${String(onHumanTimeout)}`);
  }
  if (wrapUpSteps !== undefined && !(Number.isInteger(wrapUpSteps) && wrapUpSteps >= 0)) {
    throw new TypeError(`runAgentLoop: wrapUpSteps must be a non-negative integer, got ${String(wrapUpSteps)}`);
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new TypeError('runAgentLoop: signal must be an AbortSignal');
  }
}
