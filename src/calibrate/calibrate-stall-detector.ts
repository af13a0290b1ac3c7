import { initialStallState } from '../core/stall-detection/stall-state.js';
import { observeDigest, observeStep } from '../core/stall-detection/observe-step.js';
import { digestStep, type StepDigest } from '../core/stall-detection/step-digest.js';
import { DEFAULT_STALL_OPTIONS, type StallOptions } from '../core/stall-detection/stall-options.js';
import type { StallPattern } from '../core/stall-detection/stall-pattern.js';
import type { StallStep } from '../core/stall-detection/stall-step.js';
import { clopperPearsonUpper } from './risk-bounds.js';

/** A labelled run: its steps, and whether it was wasted (ended by the budget, unresolved) or a success. */
export interface StallRun {
  readonly steps: readonly StallStep[];
  readonly label: 'wasted' | 'success';
}

/** What to calibrate for: the highest share of successful runs stopped early, with `confidence` (default 0.95). */
export interface StallCalibrationOptions {
  readonly maxFalseAlarm: number;
  readonly confidence?: number;
  /** Options kept as given (tool identities, error inference); the thresholds are chosen. Defaults to `DEFAULT_STALL_OPTIONS`. */
  readonly base?: StallOptions;
}

/** How often one pattern stopped a run first under the chosen options. */
export interface StallPatternFigures {
  readonly pattern: StallPattern;
  readonly wastedRuns: number;
  readonly wastedStepsSaved: number;
  readonly successRunsStopped: number;
}

/** The figures of the chosen options on the runs they were chosen from. */
export interface StallCalibrationFigures {
  readonly wastedRuns: number;
  readonly successRuns: number;
  readonly wastedCaught: number;
  readonly wastedSteps: number;
  readonly wastedStepsSaved: number;
  readonly falseAlarms: number;
  /** Clopper–Pearson upper bound on the share of successful runs stopped before their end. */
  readonly falseAlarmUpper: number;
  readonly patterns: readonly StallPatternFigures[];
}

/** The chosen options and their figures; `certified` is false when no options met the bound (every pattern is then off). */
export interface StallCalibration {
  readonly options: StallOptions;
  readonly certified: boolean;
  readonly figures: StallCalibrationFigures;
}

type Thresholded = 'repeatedResult' | 'repeatedFailingCall' | 'repeatedError' | 'cycle' | 'revisit' | 'repeatedPair' | 'noProgress' | 'monologue' | 'repeatedCall';

// Candidate values per pattern, the most cautious first; `false` is off.
const GRID: { readonly [K in Thresholded]: readonly (StallOptions[K])[] } = {
  repeatedResult: [
    false,
    ...([[6, 6], [5, 5], [4, 4], [4, 3], [3, 3]] as const).map(([repeats, failingRepeats]) => ({ repeats, failingRepeats, pollingRepeats: 12 })),
  ],
  repeatedFailingCall: [false, { repeats: 5 }, { repeats: 4 }, { repeats: 3 }],
  repeatedError: [false, ...[6, 5, 4, 3].map((repeats) => ({ repeats, infrastructureRepeats: 8 }))],
  cycle: [false, { maxPeriod: 4, repeats: 4 }, { maxPeriod: 4, repeats: 3 }, { maxPeriod: 4, repeats: 2 }],
  revisit: [false, ...[8, 6, 5, 4].map((repeats) => ({ repeats, window: 32 }))],
  repeatedPair: [false, ...[8, 6, 5, 4].map((repeats) => ({ repeats, window: 30 }))],
  // Evidence-aware runs first (edits in between are progress), then every run: the deployment's own runs decide.
  noProgress: [false, ...[true, false].flatMap((nothingNew) => [6, 5, 4, 3].map((repeats) => ({ repeats, window: 16, nothingNew })))],
  monologue: [false, { repeats: 5 }, { repeats: 4 }, { repeats: 3 }],
  repeatedCall: [false, { repeats: 10 }, { repeats: 8 }, { repeats: 6 }, { repeats: 5 }],
};
const KEYS = Object.keys(GRID) as Thresholded[];
const NEVER = 0x7fffffff;

/**
 * The stall options that stop the most wasted steps while the Clopper–Pearson
 * upper bound on the share of successful runs stopped before their end stays
 * at or below `maxFalseAlarm`, searched over a grid of thresholds per pattern.
 * Each pattern's counters do not depend on the others' thresholds, so each
 * candidate is run once, and the best combination is found exactly by a
 * branch and bound that cuts what cannot beat the best so far.
 */
export function calibrateStallDetector(runs: readonly StallRun[], options: StallCalibrationOptions): StallCalibration {
  const confidence = options.confidence ?? 0.95;
  if (typeof options.maxFalseAlarm !== 'number' || !(options.maxFalseAlarm > 0 && options.maxFalseAlarm < 1)) {
    throw new RangeError(`maxFalseAlarm must be a number in (0, 1), got ${String(options.maxFalseAlarm)}`);
  }
  const base = options.base ?? DEFAULT_STALL_OPTIONS;
  const allOff = Object.fromEntries(KEYS.map((key) => [key, false])) as { [K in Thresholded]: false };
  const digested = runs.map((run) => run.steps.map((step) => digestStep(step, base)));
  // stops[key][value][run] = the first step where that pattern alone fires, or NEVER.
  const stops = KEYS.map((key) =>
    GRID[key].map((value) => {
      if (value === false) return new Int32Array(runs.length).fill(NEVER);
      const single: StallOptions = { ...base, ...allOff, [key]: value };
      return Int32Array.from(digested, (steps) => firstStop(steps, single));
    }),
  );
  // Only runs that some candidate stops can change a score.
  const active: number[] = [];
  for (let i = 0; i < runs.length; i++) if (stops.some((values) => values.some((v) => (v[i] as number) !== NEVER))) active.push(i);
  const n = active.length;
  const lengths = Int32Array.from(active, (i) => (runs[i] as StallRun).steps.length);
  const wasted = active.map((i) => (runs[i] as StallRun).label === 'wasted');
  const columns = stops.map((values) => values.map((v) => Int32Array.from(active, (i) => v[i] as number)));
  const successes = runs.filter((run) => run.label === 'success').length;
  const upper: number[] = [];
  const bound = (alarms: number): number => (upper[alarms] ??= clopperPearsonUpper(alarms, successes, confidence));

  const bestChoice = searchGrid(columns, lengths, wasted, (alarms) => bound(alarms) <= options.maxFalseAlarm);

  const certified = bestChoice !== undefined;
  const picked = bestChoice ?? KEYS.map(() => 0);
  const chosen: StallOptions = { ...base, ...Object.fromEntries(KEYS.map((key, k) => [key, GRID[key][picked[k] as number]])) };
  return { options: chosen, certified, figures: measure(runs, chosen, successes, confidence) };
}

/**
 * The combination of one candidate per pattern (an index into each of
 * `columns`, whose entries are the first step each candidate stops each run
 * at, or NEVER) that saves the most wasted steps with an allowed number of
 * false alarms, fewer alarms breaking a tie and the first in the grid's order
 * after that; `undefined` when no combination is allowed. A run stops at the
 * earliest step of the candidates chosen. The search is a depth-first branch
 * and bound: turning more patterns on never stops fewer successful runs (a
 * branch whose alarms are not allowed is cut), and a branch whose wasted steps
 * saved, with every pattern still to choose at its earliest, cannot beat the
 * best so far is cut too. It returns what scoring every combination returns.
 */
export function searchGrid(
  columns: readonly (readonly Int32Array[])[],
  lengths: Int32Array,
  wasted: readonly boolean[],
  allowed: (alarms: number) => boolean,
): number[] | undefined {
  const n = lengths.length;
  const depths = columns.length;
  // reach[d][i]: the earliest any candidate of the patterns from d on stops run i.
  const reach: Int32Array[] = Array.from({ length: depths + 1 }, () => new Int32Array(n).fill(NEVER));
  for (let d = depths - 1; d >= 0; d--) {
    const here = reach[d] as Int32Array;
    here.set(reach[d + 1] as Int32Array);
    for (const values of columns[d] as Int32Array[]) for (let i = 0; i < n; i++) here[i] = Math.min(here[i] as number, values[i] as number);
  }
  let bestChoice: number[] | undefined;
  let bestSaved = -1;
  let bestAlarms = NEVER;
  const choice = columns.map(() => 0);
  const visit = (depth: number, stop: Int32Array): void => {
    let saved = 0;
    let most = 0;
    let alarms = 0;
    const ahead = reach[depth] as Int32Array;
    for (let i = 0; i < n; i++) {
      const at = stop[i] as number;
      if (wasted[i]) {
        if (at !== NEVER) saved += (lengths[i] as number) - (at + 1);
        const earliest = Math.min(at, ahead[i] as number);
        if (earliest !== NEVER) most += (lengths[i] as number) - (earliest + 1);
      } else if (at !== NEVER && at < (lengths[i] as number) - 1) alarms++;
    }
    // Turning more patterns on never stops fewer successful runs, nor saves more than `most`, with no fewer alarms.
    if (!allowed(alarms)) return;
    if (most < bestSaved || (most === bestSaved && alarms >= bestAlarms)) return;
    if (depth === depths) {
      bestSaved = saved;
      bestAlarms = alarms;
      bestChoice = [...choice];
      return;
    }
    const candidates = columns[depth] as Int32Array[];
    for (let v = 0; v < candidates.length; v++) {
      choice[depth] = v;
      const values = candidates[v] as Int32Array;
      const next = new Int32Array(n);
      for (let i = 0; i < n; i++) next[i] = Math.min(stop[i] as number, values[i] as number);
      visit(depth + 1, next);
    }
    choice[depth] = 0;
  };
  visit(0, new Int32Array(n).fill(NEVER));
  return bestChoice;
}

function firstStop(steps: readonly StepDigest[], options: StallOptions): number {
  let state = initialStallState(options);
  for (const [index, step] of steps.entries()) {
    const observed = observeDigest(state, step, options);
    if (observed.stall !== undefined) return index;
    state = observed.state;
  }
  return NEVER;
}

function measure(runs: readonly StallRun[], options: StallOptions, successes: number, confidence: number): StallCalibrationFigures {
  let wastedRuns = 0;
  let wastedCaught = 0;
  let wastedSteps = 0;
  let wastedStepsSaved = 0;
  let falseAlarms = 0;
  const patterns = new Map<StallPattern, { wastedRuns: number; wastedStepsSaved: number; successRunsStopped: number }>();
  for (const run of runs) {
    let state = initialStallState(options);
    let stop: { step: number; pattern: StallPattern } | undefined;
    for (const [index, step] of run.steps.entries()) {
      const observed = observeStep(state, step, options);
      if (observed.stall !== undefined) {
        stop = { step: index, pattern: observed.stall.pattern };
        break;
      }
      state = observed.state;
    }
    const length = run.steps.length;
    if (run.label === 'wasted') {
      wastedRuns++;
      wastedSteps += length;
    }
    if (stop === undefined) continue;
    const entry = patterns.get(stop.pattern) ?? { wastedRuns: 0, wastedStepsSaved: 0, successRunsStopped: 0 };
    if (run.label === 'wasted') {
      wastedCaught++;
      wastedStepsSaved += length - (stop.step + 1);
      entry.wastedRuns++;
      entry.wastedStepsSaved += length - (stop.step + 1);
    } else if (stop.step < length - 1) {
      falseAlarms++;
      entry.successRunsStopped++;
    }
    patterns.set(stop.pattern, entry);
  }
  return {
    wastedRuns,
    successRuns: successes,
    wastedCaught,
    wastedSteps,
    wastedStepsSaved,
    falseAlarms,
    falseAlarmUpper: clopperPearsonUpper(falseAlarms, successes, confidence),
    patterns: [...patterns].map(([pattern, counts]) => ({ pattern, ...counts })),
  };
}
