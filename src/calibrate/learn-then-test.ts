import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import type { ScoredCase } from './labelled-case.js';
import { policyThresholds, verdictCounts, type PolicyThresholds, type VerdictCounts } from './policy-thresholds.js';
import { binomialTailPValue, hoeffdingBentkusPValue } from './risk-bounds.js';

/**
 * Which false-done risk is guaranteed: `joint` is the share of all cases
 * stopped as done while labelled not done; `conditional` is the share of the
 * stopped cases that are not done (one minus precision).
 */
export type RiskKind = 'joint' | 'conditional';

/**
 * How a threshold's p-value is computed: `exact` is the binomial tail, valid
 * for the 0/1 losses used here; `hoeffding-bentkus` is the smaller of the
 * Hoeffding and Bentkus bounds, valid for any losses in [0, 1] and never
 * smaller than the exact tail.
 */
export type PValueMethod = 'exact' | 'hoeffding-bentkus';

/** One threshold tested by fixed-sequence testing. */
export interface ThresholdTest {
  readonly threshold: number;
  /** Cases the policy would stop as done at this threshold. */
  readonly stopped: number;
  /** Of those, cases labelled not done. */
  readonly falseDones: number;
  /** The sample size of the test: all cases (joint) or the stopped ones (conditional). */
  readonly n: number;
  /** falseDones / n, or null when n is 0. */
  readonly observedRisk: number | null;
  readonly exactPValue: number;
  readonly hoeffdingBentkusPValue: number;
  /** The p-value of the chosen method. */
  readonly pValue: number;
  readonly passed: boolean;
}

/** The outcome of walking the done threshold down the grid. */
export interface DoneThresholdCertificate {
  readonly certified: boolean;
  /** The lowest certified threshold, or null when the safest one already failed. */
  readonly threshold: number | null;
  /** Every threshold tested, in order; the last one failed unless the grid ran out. */
  readonly tests: readonly ThresholdTest[];
}

/** One mid-band low bound tested against the false hand-off target. */
export interface MidBandTest {
  readonly midBandLow: number;
  /** Really-done cases counted as handed to a person (see {@link certifyMidBandLow}). */
  readonly falseHandoffs: number;
  readonly n: number;
  readonly observedRisk: number | null;
  readonly pValue: number;
  readonly passed: boolean;
}

/** The outcome of walking the mid-band low bound up from 0. */
export interface MidBandCertificate {
  /** True when at least the lowest candidate (0) kept the false hand-off target. */
  readonly certified: boolean;
  /** The highest certified low bound, or 0 when none was certified. */
  readonly midBandLow: number;
  readonly tests: readonly MidBandTest[];
}

/**
 * The default threshold grid: 0.99 down to 0.01 in steps of 0.01, safest first.
 */
export function defaultThresholdGrid(): number[] {
  return Array.from({ length: 99 }, (_, index) => (99 - index) / 100);
}

/**
 * Certifies the done threshold with Learn-then-Test: walks `grid` from the
 * highest (safest) threshold down, tests the null "the false-done risk at this
 * threshold is above `alpha`" at the full `delta`, and stops at the first
 * threshold that fails. Every threshold passed is certified; the result is the
 * lowest. Fixed-sequence testing controls the chance of certifying any
 * threshold whose risk is above `alpha` at `delta`, because the order is fixed
 * before the labels are seen.
 *
 * The loss of a case at threshold λ is 1 when the policy with its done
 * threshold at λ (`withThresholds`) stops it as success (`decide`) while it is
 * labelled not done.
 *
 * @example
 * certifyDoneThreshold(cases, SEED_STOP_POLICY, { alpha: 0.05, delta: 0.1, grid: defaultThresholdGrid(), risk: 'joint', method: 'exact' });
 */
export function certifyDoneThreshold(
  cases: readonly ScoredCase[],
  policy: StopPolicyDocument,
  options: {
    readonly alpha: number;
    readonly delta: number;
    readonly grid: readonly number[];
    readonly risk: RiskKind;
    readonly method: PValueMethod;
  },
): DoneThresholdCertificate {
  return walkDoneThreshold(verdictCounts(policy, cases), cases.length, policyThresholdsOf(policy), options);
}

/** {@link certifyDoneThreshold} over the counts of `total` cases under a policy whose thresholds are `found`. */
export function walkDoneThreshold(
  countAt: (thresholds: PolicyThresholds) => VerdictCounts,
  total: number,
  found: PolicyThresholds,
  options: Parameters<typeof certifyDoneThreshold>[2],
): DoneThresholdCertificate {
  const { alpha, delta, risk, method } = options;
  const grid = [...new Set(options.grid)].sort((a, b) => b - a);
  const tests: ThresholdTest[] = [];
  let lowest: number | null = null;
  for (const threshold of grid) {
    const counts = countAt({ done: threshold, ...(found.low === undefined ? {} : { low: Math.min(found.low, threshold) }) });
    const stopped = counts.done.done + counts.done.notDone;
    const falseDones = counts.done.notDone;
    const n = risk === 'joint' ? total : stopped;
    const exact = binomialTailPValue(falseDones, n, alpha);
    const bounded = n === 0 ? 1 : hoeffdingBentkusPValue(falseDones / n, n, alpha);
    const pValue = method === 'exact' ? exact : bounded;
    const passed = pValue <= delta;
    tests.push({ threshold, stopped, falseDones, n, observedRisk: n === 0 ? null : falseDones / n, exactPValue: exact, hoeffdingBentkusPValue: bounded, pValue, passed });
    if (!passed) break;
    lowest = threshold;
  }
  return { certified: lowest !== null, threshold: lowest, tests };
}

/**
 * Picks the low bound of the retry band: walks the candidates 0, then the
 * grid values up to `doneThreshold`, upwards, testing the null "the false
 * hand-off rate is above `target`" at `delta` with the same fixed-sequence
 * rule, and keeps the highest passed. A case is falsely handed off at low
 * bound t when the policy with its thresholds at (`doneThreshold`, t) hands it
 * to a person (a stop that is not a success) while it is labelled done. A
 * policy with no low bound keeps 0.
 */
export function certifyMidBandLow(
  cases: readonly ScoredCase[],
  policy: StopPolicyDocument,
  doneThreshold: number,
  options: {
    readonly target: number;
    readonly delta: number;
    readonly grid: readonly number[];
    readonly method: PValueMethod;
  },
): MidBandCertificate {
  return walkMidBandLow(verdictCounts(policy, cases), cases.length, policyThresholdsOf(policy), doneThreshold, options);
}

/** {@link certifyMidBandLow} over the counts of `total` cases under a policy whose thresholds are `found`. */
export function walkMidBandLow(
  countAt: (thresholds: PolicyThresholds) => VerdictCounts,
  total: number,
  found: PolicyThresholds,
  doneThreshold: number,
  options: Parameters<typeof certifyMidBandLow>[3],
): MidBandCertificate {
  const { target, delta, method } = options;
  const candidates = found.low === undefined ? [0] : [...new Set([0, ...options.grid.filter((value) => value <= doneThreshold)])].sort((a, b) => a - b);
  const n = total;
  const tests: MidBandTest[] = [];
  let chosen: number | null = null;
  for (const midBandLow of candidates) {
    const falseHandoffs = countAt({ done: doneThreshold, low: midBandLow }).handoff.done;
    const pValue = method === 'exact' ? binomialTailPValue(falseHandoffs, n, target) : n === 0 ? 1 : hoeffdingBentkusPValue(falseHandoffs / n, n, target);
    const passed = pValue <= delta;
    tests.push({ midBandLow, falseHandoffs, n, observedRisk: n === 0 ? null : falseHandoffs / n, pValue, passed });
    if (!passed) break;
    chosen = midBandLow;
  }
  return { certified: chosen !== null, midBandLow: chosen ?? 0, tests };
}

const found = new WeakMap<StopPolicyDocument, PolicyThresholds>();

/** The policy's thresholds, read once per policy. */
export function policyThresholdsOf(policy: StopPolicyDocument): PolicyThresholds {
  let thresholds = found.get(policy);
  if (thresholds === undefined) {
    thresholds = policyThresholds(policy);
    found.set(policy, thresholds);
  }
  return thresholds;
}
