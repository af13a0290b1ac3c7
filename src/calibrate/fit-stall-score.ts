import { STALL_SCORE_FEATURES, STALL_SCORE_MAX_WINDOW, type StallScoreFeature, type StallScoreModel } from '../core/stall-detection/stall-options.js';
import { initialStallScoreState, observeScoreFeatures, stallScore } from '../core/stall-detection/stall-score.js';
import type { StallRun } from './calibrate-stall-detector.js';
import { clopperPearsonUpper } from './risk-bounds.js';

/** What to fit a stall score for: the highest share of successful runs it may stop early, with `confidence` (default 0.95). */
export interface StallScoreFitOptions {
  readonly maxFalseAlarm: number;
  readonly confidence?: number;
  /** How many of the last steps the features look at (default 10). */
  readonly window?: number;
  /** The share of the runs kept apart to choose and certify the threshold on (default 0.5); the rest fit the weights. */
  readonly calibrationShare?: number;
  /** Seeds the split of the runs into the fit part and the calibration part (default 1). */
  readonly seed?: number;
}

/** How a model does on a set of runs: wasted runs caught and their steps saved, successful runs stopped early and the bound. */
export interface StallScoreFigures {
  readonly wastedRuns: number;
  readonly wastedCaught: number;
  readonly wastedSteps: number;
  readonly wastedStepsSaved: number;
  readonly successRuns: number;
  readonly falseAlarms: number;
  readonly falseAlarmUpper: number;
}

/** A fitted stall score: the model, whether its threshold is certified, how many successful runs certifying needs, and its figures. */
export interface StallScoreFit {
  readonly model: StallScoreModel;
  /** True when the threshold keeps the Clopper–Pearson bound on held-out successful runs at or below the target; else the model never stops. */
  readonly certified: boolean;
  /** The fewest held-out successful runs with no false alarm that can certify the target. */
  readonly neededSuccessRuns: number;
  /** The runs that fitted the weights, and the held-out runs the threshold was chosen and certified on. */
  readonly fit: StallScoreFigures;
  readonly calibration: StallScoreFigures;
}

const DEFAULT_WINDOW = 10;
const ITERATIONS = 600;
const LEARNING_RATE = 0.5;
/** How strongly the weights are pulled towards 1 (relative to the log-loss, whose labels weigh 1 in all). */
const PRIOR = 0.1;

/**
 * Fits a monotone stall score on labelled runs and chooses its stop threshold
 * so that the share of successful runs it stops early is certified: the runs
 * are split (seeded) into a fit part, whose steps fit the non-negative weights
 * of a logistic model (steps of wasted runs against steps of successful runs,
 * each run weighing one, both labels weighing the same), and a calibration
 * part, whose successful runs choose the lowest threshold at which the
 * Clopper–Pearson upper bound on their false alarms stays at or below
 * `maxFalseAlarm` (fixed-sequence testing from the highest threshold down, so
 * the bound holds for the chosen one). With too few successful runs to certify
 * even with no false alarm, the threshold is `null`: the model never stops.
 */
export function fitStallScore(runs: readonly StallRun[], options: StallScoreFitOptions): StallScoreFit {
  const confidence = options.confidence ?? 0.95;
  assertUnit('maxFalseAlarm', options.maxFalseAlarm);
  assertUnit('confidence', confidence);
  const share = options.calibrationShare ?? 0.5;
  assertUnit('calibrationShare', share);
  const window = options.window ?? DEFAULT_WINDOW;
  if (!Number.isInteger(window) || window < 2 || window > STALL_SCORE_MAX_WINDOW) {
    throw new RangeError(`window must be an integer from 2 to ${STALL_SCORE_MAX_WINDOW}, got ${String(window)}`);
  }
  const seed = options.seed ?? 1;
  const fitRuns: StallRun[] = [];
  const calibrationRuns: StallRun[] = [];
  runs.forEach((run, i) => (unitHash(seed, i) < share ? calibrationRuns : fitRuns).push(run));
  const unthresholded = fitStallScoreWeights(fitRuns, window);
  const chosen = certifyStallScoreThreshold(
    unthresholded,
    calibrationRuns.filter((run) => run.label === 'success'),
    options.maxFalseAlarm,
    confidence,
  );
  return {
    model: chosen.model,
    certified: chosen.certified,
    neededSuccessRuns: chosen.neededSuccessRuns,
    fit: evaluateStallScore(chosen.model, fitRuns, confidence),
    calibration: evaluateStallScore(chosen.model, calibrationRuns, confidence),
  };
}

/** The features of every step of a run, in order. */
export function stallScoreFeatures(run: StallRun, window: number): Readonly<Record<StallScoreFeature, number>>[] {
  let state = initialStallScoreState();
  const rows: Readonly<Record<StallScoreFeature, number>>[] = [];
  for (const step of run.steps) {
    const observed = observeScoreFeatures(state, step, window);
    state = observed.state;
    rows.push(observed.features);
  }
  return rows;
}

/**
 * The weights of the score (threshold left at `null`): weighted logistic
 * regression by projected gradient descent, every weight kept at or above 0.
 */
export function fitStallScoreWeights(
  runs: readonly StallRun[],
  window = DEFAULT_WINDOW,
  tuning: { readonly prior?: number; readonly features?: readonly StallScoreFeature[] } = {},
): StallScoreModel {
  const prior = tuning.prior ?? PRIOR;
  const used = new Set(tuning.features ?? STALL_SCORE_FEATURES);
  const xs: number[][] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  const totals = { wasted: 0, success: 0 };
  for (const run of runs) if (run.steps.length > 0) totals[run.label]++;
  for (const run of runs) {
    const rows = stallScoreFeatures(run, window);
    if (rows.length === 0 || totals[run.label] === 0) continue;
    // Each run weighs one, and each label half of the whole.
    const weight = 1 / (rows.length * totals[run.label] * 2);
    for (const row of rows) {
      xs.push(STALL_SCORE_FEATURES.map((name) => row[name]));
      ys.push(run.label === 'wasted' ? 1 : 0);
      ws.push(weight);
    }
  }
  const k = STALL_SCORE_FEATURES.length;
  const w = new Array<number>(k).fill(0);
  let b = 0;
  if (totals.wasted > 0 && totals.success > 0) {
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const grad = new Array<number>(k).fill(0);
      let gradB = 0;
      for (let i = 0; i < xs.length; i++) {
        const x = xs[i] as number[];
        let z = b;
        for (let j = 0; j < k; j++) z += (w[j] as number) * (x[j] as number);
        const error = ((1 / (1 + Math.exp(-z))) - (ys[i] as number)) * (ws[i] as number);
        for (let j = 0; j < k; j++) grad[j] = (grad[j] as number) + error * (x[j] as number);
        gradB += error;
      }
      // The weights are pulled towards 1 (every feature counts alike) so that a few runs cannot put the whole score on one feature.
      for (let j = 0; j < k; j++) {
        if (!used.has(STALL_SCORE_FEATURES[j] as StallScoreFeature)) continue;
        w[j] = Math.max(0, (w[j] as number) - LEARNING_RATE * ((grad[j] as number) + prior * ((w[j] as number) - 1)) * 4);
      }
      b -= LEARNING_RATE * gradB * 4;
    }
  }
  const weights = Object.fromEntries(STALL_SCORE_FEATURES.map((name, j) => [name, round(w[j] as number)])) as Record<StallScoreFeature, number>;
  return { version: 1, window, bias: round(b), weights, threshold: null };
}

/**
 * The lowest threshold whose false alarms on `successRuns` keep the
 * Clopper–Pearson upper bound at or below `maxFalseAlarm`: a successful run
 * is stopped early when its score reaches the threshold on any step before
 * its last. `null` (never stop) when even no false alarm can certify it.
 */
export function certifyStallScoreThreshold(
  model: StallScoreModel,
  successRuns: readonly StallRun[],
  maxFalseAlarm: number,
  confidence: number,
): { readonly model: StallScoreModel; readonly certified: boolean; readonly neededSuccessRuns: number } {
  const neededSuccessRuns = Math.ceil(Math.log(1 - confidence) / Math.log(1 - maxFalseAlarm));
  const n = successRuns.length;
  const never = { model: { ...model, threshold: null }, certified: false, neededSuccessRuns };
  if (n === 0 || clopperPearsonUpper(0, n, confidence) > maxFalseAlarm) return never;
  // The highest score of each successful run before its last step, highest first.
  const peaks = successRuns.map((run) => peakScore(model, run)).sort((a, b) => b - a);
  let alarms = 0;
  while (alarms < n && clopperPearsonUpper(alarms + 1, n, confidence) <= maxFalseAlarm) alarms++;
  // `alarms` runs may be stopped: the threshold sits just above the next peak.
  const next = peaks[alarms] ?? Number.NEGATIVE_INFINITY;
  const threshold = next === Number.NEGATIVE_INFINITY ? 0 : Math.min(1, nextUp(next));
  return { model: { ...model, threshold }, certified: true, neededSuccessRuns };
}

/** Runs the model over `runs`: wasted runs caught and steps saved, successful runs stopped before their last step, with the bound. */
export function evaluateStallScore(model: StallScoreModel, runs: readonly StallRun[], confidence = 0.95): StallScoreFigures {
  let wastedRuns = 0;
  let wastedCaught = 0;
  let wastedSteps = 0;
  let wastedStepsSaved = 0;
  let successRuns = 0;
  let falseAlarms = 0;
  for (const run of runs) {
    const stop = firstStop(model, run);
    if (run.label === 'wasted') {
      wastedRuns++;
      wastedSteps += run.steps.length;
      if (stop !== undefined) {
        wastedCaught++;
        wastedStepsSaved += run.steps.length - stop - 1;
      }
    } else {
      successRuns++;
      if (stop !== undefined && stop < run.steps.length - 1) falseAlarms++;
    }
  }
  return {
    wastedRuns,
    wastedCaught,
    wastedSteps,
    wastedStepsSaved,
    successRuns,
    falseAlarms,
    falseAlarmUpper: successRuns === 0 ? 1 : clopperPearsonUpper(falseAlarms, successRuns, confidence),
  };
}

function firstStop(model: StallScoreModel, run: StallRun): number | undefined {
  const threshold = model.threshold;
  if (threshold === null) return undefined;
  let state = initialStallScoreState();
  for (const [i, step] of run.steps.entries()) {
    const observed = observeScoreFeatures(state, step, model.window);
    state = observed.state;
    if (step.role !== 'user' && stallScore(model, observed.features) >= threshold) return i;
  }
  return undefined;
}

/** The highest score a run reaches before its last step (what stopping it early takes). */
export function peakScore(model: StallScoreModel, run: StallRun): number {
  let state = initialStallScoreState();
  let peak = Number.NEGATIVE_INFINITY;
  for (const [i, step] of run.steps.entries()) {
    const observed = observeScoreFeatures(state, step, model.window);
    state = observed.state;
    if (i < run.steps.length - 1 && step.role !== 'user') peak = Math.max(peak, stallScore(model, observed.features));
  }
  return peak;
}

function nextUp(x: number): number {
  return x + Math.max(1e-12, Math.abs(x) * 1e-12);
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

function unitHash(seed: number, i: number): number {
  let h = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i + 1, 0xc2b2ae35)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b) >>> 0;
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

function assertUnit(name: string, value: number): void {
  if (typeof value !== 'number' || !(value > 0 && value < 1)) throw new RangeError(`${name} must be a number in (0, 1), got ${String(value)}`);
}
