import type { StallFinding } from './stall-finding.js';
import type { StallPattern } from './stall-pattern.js';
import { resolveStallOptions, type StallOptions, type StallOptionsInput } from './stall-options.js';
import { initialStallState, STALL_STATE_VERSION, type StallCheck, type StallState, type StallStreak } from './stall-state.js';
import type { StallStep } from './stall-step.js';
import { digestStep, type StepDigest } from './step-digest.js';

/** The state after a step, and the stall found on that step, if any. */
export interface ObservedStep {
  readonly state: StallState;
  readonly stall: StallFinding | undefined;
}

function extend(previous: StallStreak | null, key: string, index: number): StallStreak {
  return previous !== null && previous.key === key ? { key, count: previous.count + 1, since: previous.since } : { key, count: 1, since: index };
}

/**
 * Folds one step into the stall state: returns the next state and the stall
 * found on this step (the most specific pattern that holds), or `undefined`.
 * A stall keeps being reported on later steps for as long as its pattern holds.
 * Pure: the state passed in is not changed.
 *
 * @example
 * let state = initialStallState();
 * const { state: next, stall } = observeStep(state, { tool: 'bash', input: 'npm test', output: '1 failed', exitCode: 1 });
 */
export function observeStep(state: StallState, step: StallStep, options?: StallOptionsInput): ObservedStep {
  const opts = resolveStallOptions(options);
  return observeDigest(state, digestStep(step, opts), opts);
}

/** `observeStep` for a step already digested with the same tool identities and error inference. */
export function observeDigest(state: StallState, step: StepDigest, options?: StallOptionsInput): ObservedStep {
  const opts = resolveStallOptions(options);
  const index = state.steps;
  // A user message starts every count afresh; a repeatable call (scrolling, paging) neither counts nor breaks a streak.
  if (step.turn === true) return { state: { ...initialStallState(opts), steps: index + 1 }, stall: undefined };
  if (step.repeatable === true) return { state: { ...state, steps: index + 1 }, stall: undefined };
  // An event of the environment with no agent action (a context condensation) only counts against itself.
  if (step.event === true) return observeEvent(state, step, opts);
  const { call: isCall, tool, polling, callDigest, resultDigest, failed, signature } = step;
  const known = step.resultKnown !== false;
  const infrastructureFailure = failed && isCall && step.infrastructure;
  // A call whose result is not known repeats its last one as far as the detector can tell, but never forms a cycle.
  const pair = known ? `${callDigest}${resultDigest}` : `${callDigest}?`;

  const call = isCall
    ? state.call !== null && state.call.key === callDigest
      ? { key: callDigest, count: state.call.count + 1, since: state.call.since, failing: failed && !infrastructureFailure ? state.call.failing + 1 : 0 }
      : { key: callDigest, count: 1, since: index, failing: failed && !infrastructureFailure ? 1 : 0 }
    : null;
  const result = extend(state.result, pair, index);

  let error: StallStreak | null = null;
  let infrastructure: StallStreak | null = null;
  if (failed && isCall) {
    if (infrastructureFailure) infrastructure = extend(state.infrastructure, step.signatureDigest, index);
    // The same error from one tool, whatever its input (Goose's rule): another tool's error is another streak.
    else error = extend(state.error, `${tool.length}:${tool}${step.signatureDigest}`, index);
  }

  const monologue = step.silentMessage
    ? { count: state.monologue.count + 1, since: state.monologue.count === 0 ? index : state.monologue.since }
    : { count: 0, since: index + 1 };

  // Polling calls and infrastructure failures are legitimate retries: they never make a cycle, a revisit or a repeated pair.
  const comparable = known && !polling && !infrastructureFailure;
  const token = comparable ? pair : `?${index}`;
  let recent = state.recent;
  let periods = state.periods;
  if (opts.cycle !== false) {
    const maxPeriod = opts.cycle.maxPeriod;
    const next: number[] = [];
    for (let p = 2; p <= maxPeriod; p++) {
      const earlier = recent[recent.length - p];
      next.push(earlier === token ? (periods[p - 2] ?? 0) + 1 : 0);
    }
    periods = next;
    recent = recent.length < maxPeriod ? [...recent, token] : [...recent.slice(recent.length - maxPeriod + 1), token];
  }

  const seenWindow = opts.revisit === false ? SEEN_WINDOW : opts.revisit.window;
  const at = comparable ? state.seen.indexOf(pair) : -1;
  const revisits = at >= 0 ? { count: state.revisits.count + 1, since: state.revisits.count === 0 ? index : state.revisits.since } : { count: 0, since: index + 1 };
  let seen = state.seen;
  if (comparable) {
    const rest = at >= 0 ? [...seen.slice(0, at), ...seen.slice(at + 1)] : [...seen];
    rest.push(pair);
    seen = rest.length > seenWindow ? rest.slice(rest.length - seenWindow) : rest;
  }
  const lastNew = comparable && at < 0 ? index : state.lastNew;

  let pairs = state.pairs;
  let pairCount = 0;
  if (opts.repeatedPair !== false) {
    const counted = comparable && isCall ? pair : '';
    pairs = [...pairs, counted];
    if (pairs.length > opts.repeatedPair.window) pairs = pairs.slice(pairs.length - opts.repeatedPair.window);
    if (counted !== '') for (const item of pairs) if (item === counted) pairCount++;
  }

  let checks = state.checks;
  let check: StallCheck | undefined;
  if (isCall && known && opts.noProgress !== false) {
    const found = checks.find((entry) => entry.call === callDigest);
    const others = checks.filter((entry) => entry.call !== callDigest);
    if (failed) {
      if (found !== undefined && found.result === resultDigest) {
        // A run counts when other steps came between, and (nothingNew) none of them gave anything new.
        const counts = index - found.last > 1 && (!opts.noProgress.nothingNew || state.lastNew <= found.last);
        check = { ...found, runs: counts ? found.runs + 1 : found.runs, last: index };
      } else {
        check = { call: callDigest, result: resultDigest, runs: 1, since: index, last: index };
      }
      others.push(check);
      checks = others.length > opts.noProgress.window ? others.slice(others.length - opts.noProgress.window) : others;
    } else if (found !== undefined) {
      checks = others;
    }
  }

  let tests = state.tests;
  if (step.tests !== undefined) tests = step.tests === null ? null : extend(state.tests, step.tests, index);

  const nextState: StallState = {
    version: STALL_STATE_VERSION,
    steps: index + 1,
    call,
    result,
    error,
    infrastructure,
    monologue,
    recent,
    periods,
    seen,
    revisits,
    pairs,
    lastNew,
    checks,
    tests,
  };

  const found = (pattern: StallPattern, repeats: number, since: number, message: string): ObservedStep => ({
    state: nextState,
    stall: { pattern, step: index, repeats, since, message },
  });
  const name = isCall ? `\`${tool}\`` : 'the message';

  if (opts.repeatedResult !== false) {
    const infrastructureRepeats = opts.repeatedError === false ? DEFAULT_INFRASTRUCTURE_REPEATS : opts.repeatedError.infrastructureRepeats;
    const threshold = polling
      ? opts.repeatedResult.pollingRepeats
      : infrastructureFailure
        ? infrastructureRepeats
        : failed && isCall && known
          ? opts.repeatedResult.failingRepeats
          : opts.repeatedResult.repeats;
    if (result.count >= threshold) {
      return found(
        'repeated-result',
        result.count,
        result.since,
        !isCall
          ? `The last ${result.count} messages were the same and got the same reply; change the approach or finish.`
          : !known
            ? `The last ${result.count} steps called ${name} with the same input; stop repeating it and change the approach.`
            : failed
              ? `The last ${result.count} steps called ${name} with the same input and it failed the same way each time; read the error and change the approach.`
              : `The last ${result.count} steps called ${name} with the same input and got the same result; stop repeating it and change the approach.`,
      );
    }
  }
  if (opts.repeatedFailingCall !== false && call !== null && !polling && call.failing >= opts.repeatedFailingCall.repeats) {
    return found(
      'repeated-failing-call',
      call.failing,
      index - call.failing + 1,
      `${capitalize(name)} failed ${call.failing} times in a row with the same input; change the input or try another way.`,
    );
  }
  if (opts.repeatedError !== false && error !== null && error.count >= opts.repeatedError.repeats) {
    return found(
      'repeated-error',
      error.count,
      error.since,
      `The last ${error.count} calls of ${name} failed with the same error (${quote(signature)}); fix its cause before trying again.`,
    );
  }
  if (opts.cycle !== false) {
    const { repeats } = opts.cycle;
    for (let p = 2; p <= opts.cycle.maxPeriod; p++) {
      const run = periods[p - 2] ?? 0;
      if (run >= p * (repeats - 1) && new Set(recent.slice(recent.length - p)).size > 1) {
        const times = Math.floor(run / p) + 1;
        return found(
          'cycle',
          times,
          index - run - p + 1,
          `The last ${run + p} steps went round the same ${p} steps ${times} times with the same results; break the cycle with a different step.`,
        );
      }
    }
  }
  if (opts.revisit !== false && revisits.count >= opts.revisit.repeats) {
    return found(
      'revisit',
      revisits.count,
      revisits.since,
      `Each of the last ${revisits.count} steps repeated an earlier step and got the same result as then; nothing new is being learnt, so change the approach.`,
    );
  }
  if (opts.repeatedPair !== false && pairCount >= opts.repeatedPair.repeats) {
    const first = pairs.length - pairs.indexOf(pair);
    return found(
      'repeated-pair',
      pairCount,
      index - first + 1,
      `${capitalize(name)} was called with the same input and gave the same result ${pairCount} times in the last ${pairs.length} steps; it will not tell anything new, so change the approach.`,
    );
  }
  if (opts.noProgress !== false) {
    if (check !== undefined && check.runs >= opts.noProgress.repeats) {
      return found(
        'no-progress',
        check.runs,
        check.since,
        opts.noProgress.nothingNew
          ? `${capitalize(name)} gave the same failing result ${check.runs} times and nothing new came in between; rethink the cause.`
          : `${capitalize(name)} gave the same failing result ${check.runs} times despite the steps in between; those changes do not fix it, so rethink the cause.`,
      );
    }
    if (step.tests !== undefined && tests !== null && tests.count >= opts.noProgress.repeats) {
      return found(
        'no-progress',
        tests.count,
        tests.since,
        `The same ${step.failedTests === 1 ? 'test has' : `${step.failedTests} tests have`} failed in ${tests.count} checks in a row; the changes do not fix ${step.failedTests === 1 ? 'it' : 'them'}, so rethink the cause.`,
      );
    }
  }
  if (opts.monologue !== false && monologue.count >= opts.monologue.repeats) {
    return found(
      'monologue',
      monologue.count,
      monologue.since,
      `The last ${monologue.count} messages had no tool call and got no reply; act with a tool or finish.`,
    );
  }
  if (opts.repeatedCall !== false && call !== null && !polling && call.count >= opts.repeatedCall.repeats) {
    return found(
      'repeated-call',
      call.count,
      call.since,
      `${capitalize(name)} was called ${call.count} times in a row with the same input; stop repeating it and change the approach.`,
    );
  }
  if (opts.repeatedError !== false && infrastructure !== null && infrastructure.count >= opts.repeatedError.infrastructureRepeats) {
    return found(
      'infrastructure-errors',
      infrastructure.count,
      infrastructure.since,
      `The last ${infrastructure.count} steps failed on the same infrastructure error (${quote(signature)}); wait or hand off instead of retrying.`,
    );
  }
  return { state: nextState, stall: undefined };
}

function observeEvent(state: StallState, step: StepDigest, opts: StallOptions): ObservedStep {
  const index = state.steps;
  const result = extend(state.result, `${step.callDigest}${step.resultDigest}`, index);
  const nextState: StallState = { ...state, steps: index + 1, result, monologue: { count: 0, since: index + 1 } };
  if (opts.repeatedResult === false || result.count < Math.max(opts.repeatedResult.repeats, EVENT_REPEATS)) return { state: nextState, stall: undefined };
  return {
    state: nextState,
    stall: {
      pattern: 'repeated-result',
      step: index,
      repeats: result.count,
      since: result.since,
      message: `The last ${result.count} steps were the same event of the environment with nothing in between; hand off instead of going on.`,
    },
  };
}

/** How many distinct (call, result) pairs count as already seen when `revisit` is off. */
const SEEN_WINDOW = 32;
/** Infrastructure failures of one call in a row that count as a repeated result when `repeatedError` is off. */
const DEFAULT_INFRASTRUCTURE_REPEATS = 8;
/** Environment events with no agent action (a context condensation, say) repeat legitimately more: OpenHands stops at 10. */
const EVENT_REPEATS = 10;

/**
 * The first stall found in a sequence of steps, or `undefined`: the fold of
 * `observeStep` from `initialStallState`.
 */
export function detectStall(steps: Iterable<StallStep>, options?: StallOptionsInput): StallFinding | undefined {
  let state = initialStallState(options);
  for (const step of steps) {
    const observed = observeStep(state, step, options);
    if (observed.stall !== undefined) return observed.stall;
    state = observed.state;
  }
  return undefined;
}

function capitalize(text: string): string {
  return text.startsWith('the ') ? `The ${text.slice(4)}` : text;
}

function quote(signature: string): string {
  const line = signature.length > 80 ? `${signature.slice(0, 77)}...` : signature;
  return `"${line}"`;
}

