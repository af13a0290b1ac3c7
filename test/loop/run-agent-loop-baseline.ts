// Baseline for the differential test: runAgentLoop as it was before it decided with the stop engine (its own
// checkBudget before each turn and its own exits, a provider's stop given as a `halt`), kept verbatim apart from the
// import paths, the `LoopStop` type it read a halt as, and this header.
import { describeValue, safeJson } from '../../src/core/describe-value.js';
import { addUsage, checkBudget, emptyUsage, remainingBudget } from '../../src/core/budget.js';
import type { BudgetLimitKind, BudgetLimits, BudgetRemaining, BudgetUsage } from '../../src/core/budget.js';
import type { FinishSignal } from '../../src/core/finish-signal.js';
import type {
  FailurePhase,
  HumanExchange,
  OutcomeBase,
  StopOutcome,
  TurnRecord,
  TurnUsage,
  Verification,
} from '../../src/core/stop-outcome.js';
import { nearestName } from '../../src/core/nearest-name.js';
import { isWrapUpTurn } from '../../src/core/wrap-up.js';
import { parseFinishSignal } from '../../src/providers/parse-finish-signal.js';

/** How one generation said the loop should stop, before the provider mappers gave a signal and a provider stop. */
export type LoopStop =
  | { readonly kind: 'done'; readonly summary: string }
  | { readonly kind: 'out_of_budget'; readonly limit: BudgetLimitKind }
  | { readonly kind: 'blocked'; readonly reason: string }
  | { readonly kind: 'need_help'; readonly question: string }
  | { readonly kind: 'failed'; readonly error: string };

/** A turn record as the baseline kept it: with the halt of the turn. */
type BaselineTurnRecord = TurnRecord & { readonly halt?: LoopStop };

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
}

/** What one turn reports back. No `signal` and no `halt` means "continue". */
export interface TurnResult {
  /** A parsed finish signal (see `parseFinishSignal`); it is validated again here. */
  readonly signal?: FinishSignal;
  /** A provider mapper's halt (`mapAnthropicStopReason(...).stop` and the like). */
  readonly halt?: LoopStop;
  /** The model's text of this turn. */
  readonly text?: string;
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number; readonly cost?: number };
  readonly toolErrors?: number;
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
  /** Checks a `done` claim with code: `{ ok: true }` or `{ ok: false, unmet: [...] }`. */
  readonly verify: (claim: DoneClaim, context: LoopCallContext) => Verification | Promise<Verification>;
  /** Asks a person; resolves to the answer. Without it a `need_help` ends the run at once. */
  readonly askHuman?: (question: string, context: LoopCallContext) => string | Promise<string>;
  /** Hard limits, with the names of `checkBudget`. */
  readonly limits: BudgetLimits;
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
 * guarantees it ends in one typed {@link StopOutcome}: the budget is checked
 * by code before every turn, `done` is a claim `verify` must confirm,
 * `give_up` and `need_help` end the run (a person is asked first, with a
 * deadline), and any exception ends it as `failed` with its state kept.
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
  assertOptions(options);
  const {
    turn,
    verify,
    askHuman,
    limits,
    now = () => Date.now(),
    signal: callerSignal,
    humanTimeoutMs = DEFAULT_HUMAN_TIMEOUT_MS,
    onHumanTimeout = 'stop',
    wrapUpSteps = 1,
  } = options;

  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) forwardAbort();
  else callerSignal?.addEventListener('abort', forwardAbort, { once: true });
  const context: LoopCallContext = { signal: controller.signal };

  const startedAt = now();
  let usage = emptyUsage();
  const trace: BaselineTurnRecord[] = [];
  let lastText = '';
  let unmet: readonly string[] = [];
  let humanAnswer: string | undefined;
  let unanswered: { question: string; waitedMs: number } | undefined;
  let lastWrapUpText: string | undefined;

  const elapsed = (): number => Math.max(0, now() - startedAt);
  const withClock = (): BudgetUsage => ({ ...usage, wallClockMs: elapsed() });
  const base = (): OutcomeBase => ({ steps: usage.steps, usage, text: lastText, trace });

  try {
    for (;;) {
      usage = withClock();
      if (controller.signal.aborted) return failed(base(), 'turn', abortError(controller.signal));
      const budget = checkBudget(limits, usage);
      if (!budget.ok) {
        return {
          ...base(),
          exit: 'limit',
          limit: budget.limit,
          source: 'budget',
          key: budget.key,
          used: budget.used,
          max: budget.max,
          ...(lastWrapUpText === undefined ? {} : { finalAnswer: lastWrapUpText }),
        };
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
      };
      humanAnswer = undefined;
      unanswered = undefined;
      const turnStartedAt = now();
      const record: { -readonly [K in keyof BaselineTurnRecord]: BaselineTurnRecord[K] } = { step, ms: 0, usage: ZERO_TURN_USAGE, wrapUp };
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
        return failed(base(), failure.during, failure.thrown);
      }
      if (typeof result.text === 'string') lastText = result.text;
      lastWrapUpText = wrapUp && typeof result.text === 'string' ? result.text : undefined;

      try {
        const intent = readIntent(result);
        if (intent === undefined) {
          finishRecord();
          continue;
        }
        if (intent.type === 'signal') record.signal = intent.signal;
        else record.halt = intent.halt;
        const stop = intent.type === 'signal' ? signalToStop(intent.signal) : intent.halt;

        switch (stop.kind) {
          case 'done': {
            const claim: DoneClaim = { step, note: stop.summary, text: lastText, usage: withClock() };
            const verification = readVerification(await settle('verify', controller.signal, () => verify(claim, context)));
            record.verification = verification;
            finishRecord();
            usage = withClock();
            if (verification.ok) return { ...base(), exit: 'success', note: stop.summary };
            unmet = verification.unmet;
            continue;
          }
          case 'blocked':
            finishRecord();
            usage = withClock();
            return { ...base(), exit: 'gave_up', note: stop.reason };
          case 'out_of_budget':
            finishRecord();
            usage = withClock();
            return { ...base(), exit: 'limit', limit: stop.limit, source: 'provider', used: usedOf(stop.limit, usage), max: null };
          case 'failed':
            finishRecord();
            usage = withClock();
            return failed(base(), 'turn', Object.assign(new Error(stop.error), { name: 'ProviderStopError' }));
          case 'need_help': {
            const exchange = await consultHuman(stop.question);
            record.human = exchange;
            finishRecord();
            usage = withClock();
            if (exchange.answer !== undefined) {
              humanAnswer = exchange.answer;
              continue;
            }
            if (exchange.timedOut && onHumanTimeout === 'continue') {
              unanswered = { question: stop.question, waitedMs: exchange.waitedMs };
              continue;
            }
            return { ...base(), exit: 'need_help', question: stop.question, waitedMs: exchange.waitedMs };
          }
        }
      } catch (error) {
        const failure = asCallFailed(error, 'turn');
        if (!recorded) record.error = errorMessage(failure.thrown);
        finishRecord();
        usage = withClock();
        return failed(base(), failure.during, failure.thrown);
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

type Intent = { readonly type: 'signal'; readonly signal: FinishSignal } | { readonly type: 'halt'; readonly halt: LoopStop };

function readIntent(result: TurnResult): Intent | undefined {
  if (result.signal !== undefined && result.halt !== undefined) {
    throw new TypeError('turn returned both signal and halt; return one of them');
  }
  if (result.signal !== undefined) {
    const parsed = parseFinishSignal(result.signal);
    if (!parsed.ok) throw new TypeError(`turn returned an invalid finish signal: ${parsed.error.message}`);
    return { type: 'signal', signal: parsed.signal };
  }
  if (result.halt !== undefined) return { type: 'halt', halt: assertLoopStop(result.halt) };
  return undefined;
}

function signalToStop(signal: FinishSignal): LoopStop {
  switch (signal.kind) {
    case 'done':
      return { kind: 'done', summary: signal.note };
    case 'give_up':
      return { kind: 'blocked', reason: signal.note };
    case 'need_help':
      return { kind: 'need_help', question: signal.note };
  }
}

function assertLoopStop(halt: LoopStop): LoopStop {
  const ok =
    typeof halt === 'object' &&
    halt !== null &&
    ((halt.kind === 'done' && typeof halt.summary === 'string') ||
      (halt.kind === 'out_of_budget' && ['steps', 'wall_clock', 'tokens', 'cost', 'tool_errors'].includes(halt.limit)) ||
      (halt.kind === 'blocked' && typeof halt.reason === 'string') ||
      (halt.kind === 'need_help' && typeof halt.question === 'string' && halt.question.trim() !== '') ||
      (halt.kind === 'failed' && typeof halt.error === 'string'));
  if (!ok) throw new TypeError(`turn returned an invalid halt: ${safeJson(halt)}`);
  return halt;
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

function usedOf(limit: BudgetLimitKind, usage: BudgetUsage): number {
  switch (limit) {
    case 'steps':
      return usage.steps;
    case 'wall_clock':
      return usage.wallClockMs;
    case 'tokens':
      return usage.inputTokens + usage.outputTokens;
    case 'cost':
      return usage.cost;
    case 'tool_errors':
      return usage.toolErrors;
  }
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
  for (const name of ['turn', 'verify'] as const) {
    if (typeof options[name] !== 'function') throw new TypeError(`runAgentLoop: ${name} must be a function`);
  }
  if (options.askHuman !== undefined && typeof options.askHuman !== 'function') {
    throw new TypeError('runAgentLoop: askHuman must be a function');
  }
  checkBudget(options.limits, emptyUsage());
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
