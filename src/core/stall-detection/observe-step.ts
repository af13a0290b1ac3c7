import type { StallFinding } from './stall-finding.js';
import type { StallPattern } from './stall-pattern.js';
import { resolveStallOptions, type StallOptionsInput } from './stall-options.js';
import { initialStallState, type StallCheck, type StallState, type StallStreak } from './stall-state.js';
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
  const { call: isCall, tool, polling, callDigest, resultDigest, failed, signature } = step;
  const pair = `${callDigest}${resultDigest}`;

  const call = isCall
    ? state.call !== null && state.call.key === callDigest
      ? { key: callDigest, count: state.call.count + 1, since: state.call.since, failing: failed ? state.call.failing + 1 : 0 }
      : { key: callDigest, count: 1, since: index, failing: failed ? 1 : 0 }
    : null;
  const result = extend(state.result, pair, index);

  let error: StallStreak | null = null;
  let infrastructure: StallStreak | null = null;
  if (failed && isCall) {
    if (step.infrastructure) infrastructure = extend(state.infrastructure, step.signatureDigest, index);
    else error = extend(state.error, step.signatureDigest, index);
  }

  const monologue = step.silentMessage
    ? { count: state.monologue.count + 1, since: state.monologue.count === 0 ? index : state.monologue.since }
    : { count: 0, since: index + 1 };

  let recent = state.recent;
  let periods = state.periods;
  if (opts.cycle !== false) {
    const maxPeriod = opts.cycle.maxPeriod;
    const next: number[] = [];
    for (let p = 2; p <= maxPeriod; p++) {
      const earlier = recent[recent.length - p];
      next.push(earlier === pair ? (periods[p - 2] ?? 0) + 1 : 0);
    }
    periods = next;
    recent = recent.length < maxPeriod ? [...recent, pair] : [...recent.slice(recent.length - maxPeriod + 1), pair];
  }

  let seen = state.seen;
  let revisits = state.revisits;
  if (opts.revisit !== false) {
    const at = seen.indexOf(pair);
    revisits = at >= 0 ? { count: revisits.count + 1, since: revisits.count === 0 ? index : revisits.since } : { count: 0, since: index + 1 };
    const rest = at >= 0 ? [...seen.slice(0, at), ...seen.slice(at + 1)] : [...seen];
    rest.push(pair);
    seen = rest.length > opts.revisit.window ? rest.slice(rest.length - opts.revisit.window) : rest;
  }

  let checks = state.checks;
  let check: StallCheck | undefined;
  if (isCall && opts.noProgress !== false) {
    const found = checks.find((entry) => entry.call === callDigest);
    const others = checks.filter((entry) => entry.call !== callDigest);
    if (failed) {
      if (found !== undefined && found.result === resultDigest) {
        check = { ...found, runs: index - found.last > 1 ? found.runs + 1 : found.runs, last: index };
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
    version: 1,
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
    checks,
    tests,
  };

  const found = (pattern: StallPattern, repeats: number, since: number, message: string): ObservedStep => ({
    state: nextState,
    stall: { pattern, step: index, repeats, since, message },
  });
  const name = isCall ? `\`${tool}\`` : 'the message';

  if (opts.repeatedResult !== false && result.count >= opts.repeatedResult.repeats) {
    return found(
      'repeated-result',
      result.count,
      result.since,
      isCall
        ? `The last ${result.count} steps called ${name} with the same input and got the same result; stop repeating it and change the approach.`
        : `The last ${result.count} messages were the same and got the same reply; change the approach or finish.`,
    );
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
      `The last ${error.count} steps failed with the same error (${quote(signature)}); fix its cause before trying again.`,
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
  if (opts.noProgress !== false) {
    if (check !== undefined && check.runs >= opts.noProgress.repeats) {
      return found(
        'no-progress',
        check.runs,
        check.since,
        `${capitalize(name)} gave the same failing result ${check.runs} times despite the steps in between; those changes do not fix it, so rethink the cause.`,
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

