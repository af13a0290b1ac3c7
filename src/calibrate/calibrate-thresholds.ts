import { SEED_STOP_POLICY } from '../core/policy/seed-stop-policy.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import { policyThresholds, uncertified, verdictCounts, withThresholds } from './policy-thresholds.js';
import { evaluatePolicy, type PolicyEvaluation } from './evaluate-policy.js';
import type { ScoredCase } from './labelled-case.js';
import {
  defaultThresholdGrid,
  walkDoneThreshold,
  walkMidBandLow,
  type DoneThresholdCertificate,
  type MidBandCertificate,
  type PValueMethod,
  type RiskKind,
} from './learn-then-test.js';
import { binomialTailPValue, clopperPearsonUpper, hoeffdingBentkusPValue } from './risk-bounds.js';
import { splitCases } from './stratified-split.js';
import { curveOf, type ThresholdCurvePoint } from './threshold-curve.js';
import { setOwnProperty } from '../core/own-property.js';

/** Options of {@link calibrateThresholds}. */
export interface CalibrationOptions {
  /**
   * The policy whose thresholds are chosen (default the seed preset): the bound
   * its success rules compare criteria with, and the low bound of its hand-off
   * rules (`policyThresholds`); its other rules stay as they are.
   */
  readonly policy?: StopPolicyDocument;
  /** The false-done risk to guarantee (default 0.05). */
  readonly alpha?: number;
  /** The allowed chance that the guarantee fails (default 0.1): it holds with probability at least 1 − delta. */
  readonly delta?: number;
  /** Share of the cases kept back to confirm the thresholds (default 0.3; 0 skips confirmation). */
  readonly holdout?: number;
  /** Seed of the split (default 0). Choose it before looking at the result. */
  readonly seed?: number;
  /** Done thresholds to test (default 0.99 down to 0.01); tested from the highest down. */
  readonly grid?: readonly number[];
  /** `joint` (default): false dones over all cases; `conditional`: one minus precision. */
  readonly risk?: RiskKind;
  /** The target for really-done cases handed to a person, over all cases (default 0.1). */
  readonly maxFalseHandoff?: number;
  /** `exact` (default, the binomial tail) or `hoeffding-bentkus`. */
  readonly method?: PValueMethod;
}

/** How many labelled cases would be needed for a certificate, when none could be given. */
export type CasesNeeded =
  | {
      /** `no_false_done`: the count at which even zero false dones certify; `observed_rate`: at the rate observed. */
      readonly basis: 'no_false_done' | 'observed_rate';
      readonly observedRate: number;
      /** Cases in the calibration part (stopped cases, for the conditional risk). */
      readonly calibrationCases: number;
      /** Labelled cases in all, counting the held-out share. */
      readonly totalCases: number;
    }
  | { readonly basis: 'rate_too_high'; readonly observedRate: number };

/** The chosen policy re-measured on the held-out cases, with Clopper–Pearson upper bounds at confidence 1 − delta. */
export interface HeldOutConfirmation {
  readonly confidence: number;
  readonly evaluation: PolicyEvaluation;
  /** False dones and the count they are a share of (all held-out cases, or the stopped ones for the conditional risk). */
  readonly falseDones: number;
  readonly falseDoneBase: number;
  readonly falseDoneUpper: number;
  readonly falseDoneWithinAlpha: boolean;
  readonly falseHandoffUpper: number;
  readonly falseHandoffWithinTarget: boolean;
}

/** Thresholds chosen and certified on one group of cases (all of them, or one task type). */
export interface ThresholdCalibration {
  readonly certified: boolean;
  /** The certified thresholds, or null: then never stop on the decision model's word alone. */
  readonly thresholds: { readonly doneThreshold: number; readonly midBandLow: number } | null;
  /** The policy with the certified thresholds, or, with none certified, with its success rules on criteria handing off instead. */
  readonly policy: StopPolicyDocument;
  /** The guarantee in words, or why there is none. */
  readonly guarantee: string;
  /** What to do next, in words. */
  readonly recommendation: string;
  readonly warnings: readonly string[];
  readonly cases: {
    readonly total: number;
    readonly calibration: number;
    readonly holdout: number;
    readonly done: number;
    readonly notDone: number;
    readonly withoutTests: number;
  };
  readonly doneThreshold: DoneThresholdCertificate;
  readonly midBand: MidBandCertificate | null;
  /** The policy measured on the calibration part. */
  readonly calibrationEvaluation: PolicyEvaluation | null;
  readonly heldOut: HeldOutConfirmation | null;
  readonly casesNeeded: CasesNeeded | null;
  /** False-done rate, coverage and done share at every grid threshold, on each part. */
  readonly curves: {
    readonly calibration: readonly ThresholdCurvePoint[];
    readonly holdout: readonly ThresholdCurvePoint[] | null;
  };
}

/** The result of {@link calibrateThresholds}: the calibration on all cases, the settings, and one per task type. */
export interface CalibrationResult extends ThresholdCalibration {
  readonly settings: {
    readonly alpha: number;
    readonly delta: number;
    readonly holdout: number;
    readonly seed: number;
    readonly risk: RiskKind;
    readonly maxFalseHandoff: number;
    readonly method: PValueMethod;
    readonly grid: readonly number[];
  };
  readonly byTaskType: Readonly<Record<string, ThresholdCalibration>>;
}

type Settings = CalibrationResult['settings'] & { readonly policy: StopPolicyDocument };

/**
 * Chooses stop thresholds from human-labelled cases, with a finite-sample
 * guarantee on the false-done rate.
 *
 * Splits the cases (seeded, stratified by task type and label), certifies the
 * done threshold on the calibration part with Learn-then-Test (fixed-sequence
 * testing from the safest threshold down), picks the mid-band low bound that
 * keeps the false hand-off rate within `maxFalseHandoff` the same way, and
 * re-measures the policy on the held-out part with Clopper–Pearson upper
 * bounds (reported, not a gate). What a policy does on a case is what `decide`
 * decides on it with the thresholds tested: under a policy whose success rules
 * read the tests, a case whose tests failed or did not run is never stopped as
 * done, so it can never be a false done. Does the same per task type when
 * cases carry one.
 *
 * @example
 * const result = calibrateThresholds(cases, { alpha: 0.05, delta: 0.1, seed: 7 });
 * if (result.thresholds !== null) decide(result.policy, state, event);
 * else console.log(result.recommendation);
 */
export function calibrateThresholds(cases: readonly ScoredCase[], options: CalibrationOptions = {}): CalibrationResult {
  const { policy = SEED_STOP_POLICY, ...rest } = options;
  policyThresholds(policy);
  const settings = { ...readSettings(rest), policy };
  cases.forEach((labelled, index) => {
    if (typeof labelled !== 'object' || labelled === null || labelled.probabilities === undefined) {
      const id = labelled?.id === undefined ? '' : ` (${labelled.id})`;
      throw new TypeError(`case ${index}${id} has no probabilities; score it with a decision model first`);
    }
    if (labelled.label !== 'done' && labelled.label !== 'not_done') {
      throw new TypeError(`case ${index} has label ${JSON.stringify(labelled.label)}; expected "done" or "not_done"`);
    }
  });
  const split = splitCases(cases, settings.holdout, settings.seed);
  const overall = calibrateGroup(split.calibration, split.holdout, settings);
  const taskTypes = [...new Set(cases.flatMap((labelled) => (labelled.taskType === undefined ? [] : [labelled.taskType])))].sort();
  const byTaskType: Record<string, ThresholdCalibration> = {};
  for (const taskType of taskTypes) {
    const ofType = (labelled: ScoredCase): boolean => labelled.taskType === taskType;
    setOwnProperty(byTaskType, taskType, calibrateGroup(split.calibration.filter(ofType), split.holdout.filter(ofType), settings));
  }
  const { policy: _policy, ...shown } = settings;
  return { ...overall, settings: shown, byTaskType };
}

function calibrateGroup(
  calibration: readonly ScoredCase[],
  holdout: readonly ScoredCase[],
  settings: Settings,
): ThresholdCalibration {
  const { alpha, delta, risk, method, grid, maxFalseHandoff, policy: base } = settings;
  const all = [...calibration, ...holdout];
  const done = all.filter((labelled) => labelled.label === 'done').length;
  const counts = {
    total: all.length,
    calibration: calibration.length,
    holdout: holdout.length,
    done,
    notDone: all.length - done,
    withoutTests: all.filter((labelled) => labelled.tests === undefined).length,
  };
  const warnings = collectWarnings(counts);

  // The cases of each part are read once, for the walk, the mid band and the curves.
  const found = policyThresholds(base);
  const calibrationCounts = verdictCounts(base, calibration);
  const holdoutCounts = holdout.length === 0 ? null : verdictCounts(base, holdout);
  const curves = (midBandLow: number) => ({
    calibration: curveOf(calibrationCounts, calibration.length, grid, risk, midBandLow),
    holdout: holdoutCounts === null ? null : curveOf(holdoutCounts, holdout.length, grid, risk, midBandLow),
  });
  const doneThreshold = walkDoneThreshold(calibrationCounts, calibration.length, found, { alpha, delta, grid, risk, method });
  if (doneThreshold.threshold === null) {
    const casesNeeded = estimateCasesNeeded(doneThreshold, calibration.length, settings);
    return {
      certified: false,
      thresholds: null,
      policy: uncertified(base),
      guarantee: `No guarantee: on ${calibration.length} calibration case${calibration.length === 1 ? '' : 's'} not even the safest threshold (${formatNumber(doneThreshold.tests[0]?.threshold ?? NaN)}) keeps the ${riskWords(risk)} at or below ${formatPercent(alpha)} with confidence ${formatPercent(1 - delta)}.`,
      recommendation: recommendUncertified(casesNeeded, settings),
      warnings,
      cases: counts,
      doneThreshold,
      midBand: null,
      calibrationEvaluation: null,
      heldOut: null,
      casesNeeded,
      curves: curves(0),
    };
  }

  const midBand = walkMidBandLow(calibrationCounts, calibration.length, found, doneThreshold.threshold, {
    target: maxFalseHandoff,
    delta,
    grid,
    method,
  });
  const thresholds = { doneThreshold: doneThreshold.threshold, midBandLow: midBand.midBandLow };
  const policy = withThresholds(base, found, { done: thresholds.doneThreshold, low: thresholds.midBandLow });
  const heldOut = holdout.length === 0 ? null : confirmOnHoldout(holdout, policy, settings);
  return {
    certified: true,
    thresholds,
    policy,
    guarantee: describeGuarantee(thresholds, midBand, calibration.length, settings),
    recommendation: recommendCertified(thresholds, heldOut, settings),
    warnings,
    cases: counts,
    doneThreshold,
    midBand,
    calibrationEvaluation: evaluatePolicy(calibration, policy),
    heldOut,
    casesNeeded: null,
    curves: curves(midBand.midBandLow),
  };
}

function confirmOnHoldout(holdout: readonly ScoredCase[], policy: StopPolicyDocument, settings: Settings): HeldOutConfirmation {
  const confidence = 1 - settings.delta;
  const evaluation = evaluatePolicy(holdout, policy);
  const stopped = evaluation.confusion.stopDone.done + evaluation.confusion.stopDone.notDone;
  const falseDoneBase = settings.risk === 'joint' ? evaluation.cases : stopped;
  const falseDoneUpper = clopperPearsonUpper(evaluation.falseDones, falseDoneBase, confidence);
  const falseHandoffUpper = clopperPearsonUpper(evaluation.falseHandoffs, evaluation.cases, confidence);
  return {
    confidence,
    evaluation,
    falseDones: evaluation.falseDones,
    falseDoneBase,
    falseDoneUpper,
    falseDoneWithinAlpha: falseDoneUpper <= settings.alpha,
    falseHandoffUpper,
    falseHandoffWithinTarget: falseHandoffUpper <= settings.maxFalseHandoff,
  };
}

/**
 * When nothing was certified: how many cases would be. Based on the first
 * threshold that failed: with no false done there, the count at which zero
 * false dones certify; below alpha, the count at which the observed rate
 * would; at or above alpha, no count will.
 */
function estimateCasesNeeded(certificate: DoneThresholdCertificate, cases: number, settings: Settings): CasesNeeded {
  const failed = certificate.tests[certificate.tests.length - 1];
  const observedRate = failed?.observedRisk ?? 0;
  if (observedRate >= settings.alpha) return { basis: 'rate_too_high', observedRate };
  const basis = observedRate === 0 ? 'no_false_done' : 'observed_rate';
  const calibrationCases = smallestCertifyingCount(observedRate, failed?.n ?? 0, settings);
  // For the conditional risk the count is of stopped cases; scale by the share that stopped.
  const stoppedShare =
    settings.risk === 'joint' || failed === undefined || failed.stopped === 0 || cases === 0 ? 1 : failed.stopped / cases;
  const totalCases = Math.ceil(calibrationCases / stoppedShare / (1 - settings.holdout));
  return { basis, observedRate, calibrationCases, totalCases };
}

/**
 * About the smallest n above `from` at which ⌈rate·n⌉ losses out of n would
 * pass the test: doubling, then bisection (whole losses make the p-value a
 * saw-tooth in n, so this is an estimate, rounded towards more cases).
 */
function smallestCertifyingCount(rate: number, from: number, settings: Settings): number {
  const passes = (n: number): boolean => {
    const losses = Math.ceil(rate * n - 1e-9);
    const p =
      settings.method === 'exact'
        ? binomialTailPValue(losses, n, settings.alpha)
        : hoeffdingBentkusPValue(losses / n, n, settings.alpha);
    return p <= settings.delta;
  };
  let low = Math.max(0, from);
  let high = Math.max(1, 2 * low);
  while (!passes(high)) {
    low = high;
    high *= 2;
    if (high > 1e9) return Number.POSITIVE_INFINITY;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (passes(middle)) high = middle;
    else low = middle;
  }
  return high;
}

function describeGuarantee(policy: { readonly doneThreshold: number; readonly midBandLow: number }, midBand: MidBandCertificate, n: number, settings: Settings): string {
  const { alpha, delta, risk, maxFalseHandoff } = settings;
  const confidence = formatPercent(1 - delta);
  const what =
    risk === 'joint'
      ? `stops at most ${formatPercent(alpha)} of all cases like these as done while a person would judge them not done`
      : `is wrong on at most ${formatPercent(alpha)} of the cases it stops as done (precision at least ${formatPercent(1 - alpha)})`;
  const parts = [
    `With probability at least ${confidence} over the draw of the ${n} calibration cases, the policy that stops as done when the tests pass and the lowest criterion probability is at least ${formatNumber(policy.doneThreshold)} ${what}.`,
  ];
  if (midBand.certified) {
    parts.push(
      `With the retry band [${formatNumber(policy.midBandLow)}, ${formatNumber(policy.doneThreshold)}), at most ${formatPercent(maxFalseHandoff)} of all cases are really done but handed to a person, also with probability at least ${confidence} (both together: at least ${formatPercent(Math.max(0, 1 - 2 * delta))}).`,
    );
  } else {
    const first = midBand.tests[0];
    parts.push(
      `The false hand-off target of ${formatPercent(maxFalseHandoff)} could not be certified even with no low bound: ${first?.falseHandoffs ?? 0} really-done case${first?.falseHandoffs === 1 ? '' : 's'} would be handed off because their tests failed; the low bound is set to 0.`,
    );
  }
  parts.push(
    'This assumes future cases are drawn like the labelled ones (exchangeable) and that the seed and targets were fixed before looking at the result.',
  );
  return parts.join(' ');
}

function recommendCertified(policy: { readonly doneThreshold: number; readonly midBandLow: number }, heldOut: HeldOutConfirmation | null, settings: Settings): string {
  const base = `Use doneThreshold ${formatNumber(policy.doneThreshold)} and midBandLow ${formatNumber(policy.midBandLow)}.`;
  if (heldOut === null) return `${base} No cases were held out, so the thresholds are not confirmed on separate cases.`;
  const bound = `${heldOut.falseDones} false done${heldOut.falseDones === 1 ? '' : 's'} of ${heldOut.falseDoneBase}, upper bound ${formatPercent(heldOut.falseDoneUpper)} at ${formatPercent(heldOut.confidence)}`;
  return heldOut.falseDoneWithinAlpha
    ? `${base} The held-out cases confirm it (${bound}).`
    : `${base} The held-out cases do not confirm it at this size (${bound}, above ${formatPercent(settings.alpha)}); the guarantee above does not depend on them, but more held-out cases would make the check informative.`;
}

function recommendUncertified(needed: CasesNeeded, settings: Settings): string {
  const never = 'Never stop on the decision model\'s word alone: hand finished-looking runs to a person.';
  switch (needed.basis) {
    case 'rate_too_high':
      return `${never} Even the most confident cases are judged not done ${formatPercent(needed.observedRate)} of the time, at or above ${formatPercent(settings.alpha)}: more cases will not help; improve the decision model or the criteria, or accept a larger alpha.`;
    case 'no_false_done':
      return `${never} About ${needed.totalCases} labelled cases in all (${needed.calibrationCases} ${settings.risk === 'joint' ? 'calibration cases' : 'stopped calibration cases'}) would be needed even if the most confident ones held no false done.`;
    case 'observed_rate':
      return `${never} At the observed false-done rate of ${formatPercent(needed.observedRate)}, about ${needed.totalCases} labelled cases in all (${needed.calibrationCases} ${settings.risk === 'joint' ? 'calibration cases' : 'stopped calibration cases'}) would be needed.`;
  }
}

function collectWarnings(counts: ThresholdCalibration['cases']): string[] {
  const warnings: string[] = [];
  if (counts.total > 0 && (counts.done === 0 || counts.notDone === 0)) {
    warnings.push(
      `every case is labelled ${counts.done === 0 ? 'not_done' : 'done'}: the thresholds say nothing about telling done from not done; label cases of both kinds`,
    );
  }
  if (counts.withoutTests > 0) {
    warnings.push(
      `${counts.withoutTests} case${counts.withoutTests === 1 ? '' : 's'} carry no test evidence and are judged as if their tests had passed (this can only add false dones, so the guarantee stays conservative)`,
    );
  }
  return warnings;
}

/**
 * The one verdict of a calibration, which the CLI and the HTML report both
 * show: `confirmed` (certified, and the held-out cases agree or none were held
 * out), `not_confirmed` (certified on the calibration cases; the held-out
 * cases' upper bound is above the target, so more cases are needed before
 * trusting it), or `not_certified`.
 */
export function calibrationVerdict(calibration: Pick<ThresholdCalibration, 'certified' | 'heldOut'>): 'confirmed' | 'not_confirmed' | 'not_certified' {
  if (!calibration.certified) return 'not_certified';
  return calibration.heldOut !== null && !calibration.heldOut.falseDoneWithinAlpha ? 'not_confirmed' : 'confirmed';
}

/** A verdict in the per-task-type tables of the CLI and the HTML report. */
export const VERDICT_CELL = { confirmed: 'yes', not_confirmed: 'not confirmed', not_certified: 'no' } as const;

/**
 * Why a calibration certified no thresholds, in the words both the CLI's
 * verdict line and the HTML report show: too few cases (and about how many
 * would do), or a false-done rate that more cases will not bring under
 * `alpha`. Null when thresholds were certified.
 */
export function uncertifiedReason(calibration: ThresholdCalibration, alpha: number): string | null {
  if (calibration.thresholds !== null) return null;
  const needed = calibration.casesNeeded;
  const have = `${calibration.cases.calibration} calibration case${calibration.cases.calibration === 1 ? '' : 's'}`;
  if (needed === null) return `no threshold passed on ${have}`;
  if (needed.basis === 'rate_too_high') {
    return `the most confident cases are judged not done ${formatPercent(needed.observedRate)} of the time, at or above the ${formatPercent(alpha)} target: more cases will not help`;
  }
  const total = Number.isFinite(needed.totalCases) ? `about ${needed.totalCases}` : 'more than a billion';
  return `too few cases: ${have}; ${total} labelled cases in all would be needed${needed.basis === 'observed_rate' ? ` at the observed false-done rate of ${formatPercent(needed.observedRate)}` : ''}`;
}

function riskWords(risk: RiskKind): string {
  return risk === 'joint' ? 'false-done rate' : 'share of stopped cases that are not done';
}

/** A rate as a percentage with up to two decimals. */
export function formatPercent(rate: number): string {
  return `${Number((rate * 100).toFixed(2))}%`;
}

function formatNumber(value: number): string {
  return String(Number(value.toFixed(4)));
}

function readSettings(options: Omit<CalibrationOptions, 'policy'>): CalibrationResult['settings'] {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const alpha = options.alpha ?? 0.05;
  const delta = options.delta ?? 0.1;
  const holdout = options.holdout ?? 0.3;
  const seed = options.seed ?? 0;
  const risk = options.risk ?? 'joint';
  const maxFalseHandoff = options.maxFalseHandoff ?? 0.1;
  const method = options.method ?? 'exact';
  const grid = options.grid === undefined ? defaultThresholdGrid() : [...options.grid];
  assertOpenUnit('alpha', alpha);
  assertOpenUnit('delta', delta);
  if (typeof holdout !== 'number' || !(holdout >= 0 && holdout < 1)) {
    throw new RangeError(`holdout must be a number in [0, 1), got ${String(holdout)}`);
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${String(seed)}`);
  if (risk !== 'joint' && risk !== 'conditional') {
    throw new RangeError(`risk must be "joint" or "conditional", got ${JSON.stringify(risk)}`);
  }
  if (typeof maxFalseHandoff !== 'number' || !(maxFalseHandoff > 0 && maxFalseHandoff <= 1)) {
    throw new RangeError(`maxFalseHandoff must be a number in (0, 1], got ${String(maxFalseHandoff)}`);
  }
  if (method !== 'exact' && method !== 'hoeffding-bentkus') {
    throw new RangeError(`method must be "exact" or "hoeffding-bentkus", got ${JSON.stringify(method)}`);
  }
  if (grid.length === 0) throw new RangeError('grid must hold at least one threshold');
  for (const value of grid) {
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
      throw new RangeError(`grid values must be numbers in [0, 1], got ${String(value)}`);
    }
  }
  return {
    alpha,
    delta,
    holdout,
    seed,
    risk,
    maxFalseHandoff,
    method,
    grid: [...new Set(grid)].sort((a, b) => b - a),
  };
}

function assertOpenUnit(name: string, value: unknown): void {
  if (typeof value !== 'number' || !(value > 0 && value < 1)) {
    throw new RangeError(`${name} must be a number in (0, 1), got ${String(value)}`);
  }
}
