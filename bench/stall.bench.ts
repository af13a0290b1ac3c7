// Stall detection on real agent runs: for the default options and for ports of
// OpenHands' StuckDetector and Gemini CLI's tool-call loop check, per source and
// overall: wasted runs caught, share of their steps saved, successful runs
// stopped before their end (false alarms, with a Clopper–Pearson bound), the
// OpenHands unit cases agreed with, and CPU per step. The defaults are also given
// as ratios against each port, measured in the same run on the same runs, and the
// thresholds and the learned score fitted on one half of the runs are measured on
// the other.
import type { StallStep } from '../src/index.js';
import { DEFAULT_STALL_OPTIONS, initialStallState, observeStep, type StallOptionsInput, type StallPattern } from '../src/stall/index.js';
import { clopperPearsonUpper } from '../src/calibrate/risk-bounds.js';
import { calibrateStallDetector, type StallRun } from '../src/calibrate/calibrate-stall-detector.js';
import { evaluateStallScore, fitStallScore, type StallScoreFigures } from '../src/calibrate/fit-stall-score.js';
import { Murmur128 } from '../src/core/murmur-hash.js';
import { printTable } from './harness.js';
import {
  CORPUS_FOLDER,
  isGood,
  isWasted,
  readJsonLines,
  toOpenHandsEvents,
  toStallStep,
  type CorpusRun,
  type UnitCase,
} from './stall/corpus.js';
import { geminiAddToolCall, initialGeminiLoopState } from './stall/gemini-loop-detection.js';
import { openHandsIsStuck, type OpenHandsEvent } from './stall/openhands-stuck-detector.js';

const SOURCES = [
  { name: 'SWE-agent Java (5 models)', file: 'swe-agent-java-5-models.jsonl' },
  { name: 'mini-SWE-agent Gemini 3 Pro', file: 'mini-swe-agent-gemini3pro-swebench-verified.jsonl' },
] as const;
const UNIT_CASES = 'openhands-stuck-unit-cases.jsonl';
const CONFIDENCE = 0.95;
const CALIBRATION_MAX_FALSE_ALARM = 0.04;

/** A detector over a whole run: the index of the step it would have stopped on, or undefined. */
interface Detector {
  readonly name: string;
  firstStop(run: CorpusRun): { step: number; pattern?: StallPattern } | undefined;
  unitCase(testCase: UnitCase): boolean;
}

/** The agent steps of a unit case as OpenHands reads it: in interactive mode a user message starts afresh; user messages are not agent steps. */
function unitSegment(testCase: UnitCase): StallStep[] {
  let steps: StallStep[] = [];
  for (const corpusStep of testCase.steps) {
    const step = toStallStep(corpusStep);
    if (step === 'user') {
      if (!testCase.headless_mode) steps = [];
    } else steps.push(step);
  }
  return steps;
}

function stallDetector(name: string, options: StallOptionsInput): Detector {
  return {
    name,
    firstStop(run) {
      let state = initialStallState(options);
      for (const [index, corpusStep] of run.steps.entries()) {
        const step = toStallStep(corpusStep);
        if (step === 'user') continue;
        const observed = observeStep(state, step, options);
        if (observed.stall !== undefined) return { step: index, pattern: observed.stall.pattern };
        state = observed.state;
      }
      return undefined;
    },
    unitCase(testCase) {
      // The answer at the end of the history, as `is_stuck` gives it.
      let state = initialStallState(options);
      let stalled = false;
      for (const step of unitSegment(testCase)) {
        const observed = observeStep(state, step, options);
        stalled = observed.stall !== undefined;
        state = observed.state;
      }
      return stalled;
    },
  };
}

const openHands: Detector = {
  name: 'OpenHands StuckDetector (port)',
  firstStop(run) {
    const history: OpenHandsEvent[] = [];
    for (const [index, step] of run.steps.entries()) {
      history.push(...toOpenHandsEvents(step));
      if (openHandsIsStuck(history, true)) return { step: index };
    }
    return undefined;
  },
  unitCase: (testCase) => openHandsIsStuck(testCase.events, testCase.headless_mode),
};

const gemini: Detector = {
  name: 'Gemini CLI tool-call loop (port)',
  firstStop(run) {
    let state = initialGeminiLoopState();
    for (const [index, corpusStep] of run.steps.entries()) {
      const step = toStallStep(corpusStep);
      if (step === 'user' || step.tool === undefined) continue;
      state = geminiAddToolCall(state, step.tool, step.input);
      if (state.detected) return { step: index };
    }
    return undefined;
  },
  unitCase(testCase) {
    let state = initialGeminiLoopState();
    for (const step of unitSegment(testCase)) if (step.tool !== undefined) state = geminiAddToolCall(state, step.tool, step.input);
    return state.detected;
  },
};

interface Figures {
  wasted: number;
  caught: number;
  wastedSteps: number;
  savedSteps: number;
  good: number;
  falseAlarms: number;
  patterns: Map<string, { wasted: number; good: number }>;
}

function measureRuns(detector: Detector, runs: readonly CorpusRun[]): Figures {
  const figures: Figures = { wasted: 0, caught: 0, wastedSteps: 0, savedSteps: 0, good: 0, falseAlarms: 0, patterns: new Map() };
  for (const run of runs) {
    const wasted = isWasted(run);
    const good = isGood(run);
    if (!wasted && !good) continue;
    const stop = detector.firstStop(run);
    const total = run.steps.length;
    const stoppedEarly = stop !== undefined && stop.step < total - 1;
    if (stop?.pattern !== undefined && stoppedEarly) {
      const entry = figures.patterns.get(stop.pattern) ?? { wasted: 0, good: 0 };
      if (wasted) entry.wasted++;
      else entry.good++;
      figures.patterns.set(stop.pattern, entry);
    }
    if (wasted) {
      figures.wasted++;
      figures.wastedSteps += total;
      if (stop !== undefined) {
        figures.caught++;
        figures.savedSteps += total - (stop.step + 1);
      }
    } else {
      figures.good++;
      if (stoppedEarly) figures.falseAlarms++;
    }
  }
  return figures;
}

const percent = (part: number, whole: number): string => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);

function row(source: string, detector: string, f: Figures, unit: string): string[] {
  return [
    source,
    detector,
    `${f.caught}/${f.wasted} (${percent(f.caught, f.wasted)})`,
    percent(f.savedSteps, f.wastedSteps),
    `${f.falseAlarms}/${f.good} (${percent(f.falseAlarms, f.good)})`,
    f.good === 0 ? '-' : `${(100 * clopperPearsonUpper(f.falseAlarms, f.good, CONFIDENCE)).toFixed(1)}%`,
    unit,
  ];
}

function sum(figures: readonly Figures[]): Figures {
  const total: Figures = { wasted: 0, caught: 0, wastedSteps: 0, savedSteps: 0, good: 0, falseAlarms: 0, patterns: new Map() };
  for (const f of figures) {
    total.wasted += f.wasted;
    total.caught += f.caught;
    total.wastedSteps += f.wastedSteps;
    total.savedSteps += f.savedSteps;
    total.good += f.good;
    total.falseAlarms += f.falseAlarms;
    for (const [pattern, counts] of f.patterns) {
      const entry = total.patterns.get(pattern) ?? { wasted: 0, good: 0 };
      entry.wasted += counts.wasted;
      entry.good += counts.good;
      total.patterns.set(pattern, entry);
    }
  }
  return total;
}

// `part` against `baseline` as a ratio: "-" when both are 0, "new" when only the baseline is.
function ratio(part: number, baseline: number): string {
  if (baseline === 0) return part === 0 ? '-' : 'new';
  return `${(part / baseline).toFixed(2)}×`;
}

// One cell of the comparison: both counts and their ratio.
const against = (part: number, baseline: number): string => `${part} vs ${baseline} (${ratio(part, baseline)})`;

const off = false as const;
// One option at a time away from the defaults (a pattern off by default is turned on with the values given).
const VARIANTS: readonly (readonly [string, StallOptionsInput])[] = [
  ['defaults', {}],
  ['repeatedResult 3', { repeatedResult: { repeats: 3 } }],
  ['repeatedResult 5', { repeatedResult: { repeats: 5 } }],
  ['repeatedResult failing 4', { repeatedResult: { failingRepeats: 4 } }],
  ['repeatedResult off', { repeatedResult: off }],
  ['repeatedFailingCall 3', { repeatedFailingCall: { repeats: 3 } }],
  ['repeatedFailingCall 5', { repeatedFailingCall: { repeats: 5 } }],
  ['repeatedFailingCall off', { repeatedFailingCall: off }],
  ['repeatedError 3', { repeatedError: { repeats: 3 } }],
  ['repeatedError 5', { repeatedError: { repeats: 5 } }],
  ['repeatedError off', { repeatedError: off }],
  ['cycle repeats 2', { cycle: { repeats: 2 } }],
  ['cycle maxPeriod 8', { cycle: { maxPeriod: 8 } }],
  ['cycle off', { cycle: off }],
  ['revisit 4', { revisit: { repeats: 4 } }],
  ['revisit 5', { revisit: { repeats: 5 } }],
  ['revisit 8', { revisit: { repeats: 8 } }],
  ['revisit off', { revisit: off }],
  ['repeatedPair 5', { repeatedPair: { repeats: 5 } }],
  ['repeatedPair 8', { repeatedPair: { repeats: 8 } }],
  ['repeatedPair off', { repeatedPair: off }],
  ['noProgress 3', { noProgress: { repeats: 3 } }],
  ['noProgress 4', { noProgress: { repeats: 4 } }],
  ['noProgress 4, every run', { noProgress: { repeats: 4, nothingNew: false } }],
  ['monologue off', { monologue: off }],
  ['repeatedCall 5', { repeatedCall: { repeats: 5 } }],
  ['repeatedCall 8', { repeatedCall: { repeats: 8 } }],
  ['inferErrors off', { inferErrors: false }],
];

/** Which half of the split a run belongs to: a hash of its task, so that both halves hold every model. */
function half(run: CorpusRun): 'A' | 'B' {
  const byte = Number.parseInt(new Murmur128().update(run.task_id).digest().slice(0, 2), 16);
  return byte % 2 === 0 ? 'A' : 'B';
}

/** Median CPU microseconds per observeStep over every step of `runs`, over `passes` passes. */
function cpuPerStep(runs: readonly CorpusRun[], passes: number, padTo?: number): { medianUs: number; steps: number; outputChars: number } {
  const pad = (text: string): string => (padTo === undefined || text === '' ? text : text.repeat(Math.ceil(padTo / text.length)).slice(0, padTo));
  const records = runs.map((run) =>
    run.steps
      .map(toStallStep)
      .filter((step): step is StallStep => step !== 'user')
      .map((step) => (step.output === undefined ? step : { ...step, output: pad(step.output) })),
  );
  const steps = records.reduce((n, r) => n + r.length, 0);
  const outputChars = records.reduce((n, r) => n + r.reduce((m, s) => m + (s.output?.length ?? 0), 0), 0);
  const times: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    const began = process.cpuUsage();
    for (const record of records) {
      let state = initialStallState();
      for (const step of record) state = observeStep(state, step).state;
    }
    const used = process.cpuUsage(began);
    times.push((used.user + used.system) / steps);
  }
  times.sort((a, b) => a - b);
  return { medianUs: times[Math.floor(passes / 2)] as number, steps, outputChars };
}

export default async function run(): Promise<void> {
  const loaded = SOURCES.map((source) => ({ ...source, runs: readJsonLines<CorpusRun>(source.file) }));
  const cases = readJsonLines<UnitCase>(UNIT_CASES);
  if (loaded.some((source) => source.runs === undefined) || cases === undefined) {
    console.log(`\n## Stall detection on real runs\n\nskipped: the corpus folder ${CORPUS_FOLDER} (or one of its files) is absent on this machine.`);
    return;
  }
  const sources = loaded as { name: string; file: string; runs: CorpusRun[] }[];
  const allRuns = sources.flatMap((source) => source.runs);
  const detectors = [stallDetector('stopwise defaults', DEFAULT_STALL_OPTIONS), openHands, gemini];

  const rows: string[][] = [];
  const defaults: Figures[] = [];
  for (const detector of detectors) {
    const perSource = sources.map((source) => measureRuns(detector, source.runs));
    const agreed = cases.filter((c) => detector.unitCase(c) === c.expected_stuck).length;
    for (const [i, source] of sources.entries()) rows.push(row(source.name, detector.name, perSource[i] as Figures, '-'));
    const overall = sum(perSource);
    rows.push(row('overall', detector.name, overall, `${agreed}/${cases.length}`));
    if (detector === detectors[0]) defaults.push(overall);
  }
  printTable(
    'Stall detection on real runs (wasted: ended by the budget, unresolved; good: resolved)',
    ['source', 'detector', 'wasted caught', 'steps saved', 'good stopped early', `CP ${CONFIDENCE * 100}% upper`, 'unit cases'],
    rows,
  );

  // The defaults against each port, per corpus, on the same runs in this run: counts and their ratio.
  const ratioRows: string[][] = [];
  const [ours, ...baselines] = detectors as [Detector, ...Detector[]];
  const oursPerSource = sources.map((source) => measureRuns(ours, source.runs));
  for (const baseline of baselines) {
    const theirs = sources.map((source) => measureRuns(baseline, source.runs));
    const pairs: [string, Figures, Figures][] = [
      ...sources.map((source, i): [string, Figures, Figures] => [source.name, oursPerSource[i] as Figures, theirs[i] as Figures]),
      ['overall', sum(oursPerSource), sum(theirs)],
    ];
    for (const [source, a, b] of pairs) {
      ratioRows.push([source, baseline.name, against(a.caught, b.caught), against(a.savedSteps, b.savedSteps), against(a.falseAlarms, b.falseAlarms)]);
    }
  }
  printTable(
    'stopwise defaults against each baseline, measured in this run on the same runs (stopwise vs baseline, and the ratio)',
    ['source', 'baseline', 'wasted runs caught', 'wasted steps saved', 'good runs stopped early'],
    ratioRows,
  );

  const patterns = [...(defaults[0]?.patterns ?? new Map<string, { wasted: number; good: number }>())].sort((a, b) => b[1].wasted - a[1].wasted);
  printTable(
    'Default options: the pattern that fired first',
    ['pattern', 'wasted runs', 'good runs stopped early'],
    patterns.map(([pattern, counts]) => [pattern, String(counts.wasted), String(counts.good)]),
  );

  const splitRows: string[][] = [];
  for (const part of ['A', 'B'] as const) {
    const runs = allRuns.filter((r) => half(r) === part);
    for (const detector of detectors) splitRows.push(row(`half ${part} (${runs.length} runs)`, detector.name, measureRuns(detector, runs), '-'));
  }
  printTable('Split by task (hash of the task id): the same detectors on each half', ['half', 'detector', 'wasted caught', 'steps saved', 'good stopped early', `CP ${CONFIDENCE * 100}% upper`, 'unit cases'], splitRows);

  // One option at a time away from the defaults, on each half: how much each threshold matters.
  const halfA = allRuns.filter((r) => half(r) === 'A');
  const halfB = allRuns.filter((r) => half(r) === 'B');
  const variantRows: string[][] = [];
  for (const [label, options] of VARIANTS) {
    const detector = stallDetector(label, options);
    const a = measureRuns(detector, halfA);
    const b = measureRuns(detector, halfB);
    const agreed = cases.filter((c) => detector.unitCase(c) === c.expected_stuck).length;
    const cell = (f: Figures): string => `${f.caught}/${f.wasted}, ${percent(f.savedSteps, f.wastedSteps)}, ${f.falseAlarms}/${f.good}`;
    variantRows.push([label, cell(a), cell(b), cell(sum([a, b])), `${agreed}/${cases.length}`]);
  }
  printTable(
    'One option at a time (caught, steps saved, good stopped early) on each half',
    ['options', 'half A', 'half B', 'overall', 'unit cases'],
    variantRows,
  );

  // Thresholds chosen by calibrateStallDetector on half A, measured on half B.
  const labelled = (runs: readonly CorpusRun[]): StallRun[] =>
    runs
      .filter((r) => isWasted(r) || isGood(r))
      .map((r) => ({
        label: isWasted(r) ? ('wasted' as const) : ('success' as const),
        steps: r.steps.map(toStallStep).filter((step): step is StallStep => step !== 'user'),
      }));
  const began = performance.now();
  const calibration = calibrateStallDetector(labelled(halfA), { maxFalseAlarm: CALIBRATION_MAX_FALSE_ALARM, confidence: CONFIDENCE });
  const tookMs = performance.now() - began;
  const chosen = stallDetector('calibrated on half A', calibration.options);
  const describe = (o: StallOptionsInput): string =>
    (['repeatedResult', 'repeatedFailingCall', 'repeatedError', 'cycle', 'revisit', 'repeatedPair', 'noProgress', 'monologue', 'repeatedCall'] as const)
      .map((key) => {
        const value = o[key];
        return `${key} ${value === false || value === undefined ? 'off' : value.repeats}`;
      })
      .join(', ');
  printTable(
    `calibrateStallDetector on half A (max false alarm ${CALIBRATION_MAX_FALSE_ALARM * 100}% at ${CONFIDENCE * 100}%, ${tookMs.toFixed(0)} ms), measured on half B`,
    ['half', 'detector', 'wasted caught', 'steps saved', 'good stopped early', `CP ${CONFIDENCE * 100}% upper`, 'unit cases'],
    [
      row('half A', chosen.name, measureRuns(chosen, halfA), '-'),
      row('half B', chosen.name, measureRuns(chosen, halfB), `${cases.filter((c) => chosen.unitCase(c) === c.expected_stuck).length}/${cases.length}`),
      row('half B', 'stopwise defaults', measureRuns(stallDetector('defaults', {}), halfB), '-'),
    ],
  );
  console.log(`\nchosen (certified: ${calibration.certified}): ${describe(calibration.options)}`);
  console.log(`defaults: ${describe(DEFAULT_STALL_OPTIONS)}`);

  // The learned score: weights fitted and the threshold certified on half A (split again inside), measured on half B.
  const scoreBegan = performance.now();
  const fitted = fitStallScore(labelled(halfA), { maxFalseAlarm: CALIBRATION_MAX_FALSE_ALARM, confidence: CONFIDENCE });
  const scoreMs = performance.now() - scoreBegan;
  const scoreRow = (name: string, f: StallScoreFigures): string[] => [
    name,
    `${f.wastedCaught}/${f.wastedRuns} (${percent(f.wastedCaught, f.wastedRuns)})`,
    percent(f.wastedStepsSaved, f.wastedSteps),
    `${f.falseAlarms}/${f.successRuns} (${percent(f.falseAlarms, f.successRuns)})`,
    f.successRuns === 0 ? '-' : `${(100 * f.falseAlarmUpper).toFixed(1)}%`,
  ];
  printTable(
    `fitStallScore on half A (max false alarm ${CALIBRATION_MAX_FALSE_ALARM * 100}% at ${CONFIDENCE * 100}%, ${scoreMs.toFixed(0)} ms), measured on half B`,
    ['runs', 'wasted caught', 'steps saved', 'good stopped early', `CP ${CONFIDENCE * 100}% upper`],
    [
      scoreRow('half A, weights', fitted.fit),
      scoreRow('half A, threshold', fitted.calibration),
      scoreRow('half B', evaluateStallScore(fitted.model, labelled(halfB), CONFIDENCE)),
    ],
  );
  const weights = Object.entries(fitted.model.weights)
    .filter(([, weight]) => weight > 0)
    .map(([name, weight]) => `${name} ${weight.toFixed(2)}`)
    .join(', ');
  console.log(
    `\nscore (certified: ${fitted.certified}, threshold ${fitted.model.threshold === null ? 'none' : fitted.model.threshold.toFixed(3)}, window ${fitted.model.window}, ` +
      `bias ${fitted.model.bias.toFixed(2)}): ${weights === '' ? 'every weight 0' : weights}`,
  );

  const misses = cases.filter((c) => detectors[0]?.unitCase(c) !== c.expected_stuck).map((c) => c.case_id.split('/').pop() ?? c.case_id);
  console.log(`\nOpenHands unit cases the defaults disagree with: ${misses.length === 0 ? 'none' : misses.join(', ')}`);

  const cpu = cpuPerStep(allRuns, 5);
  const cpu2k = cpuPerStep(allRuns, 5, 2048);
  console.log(
    `\nCPU per observeStep, defaults, every step of the ${allRuns.length} runs (${cpu.steps} steps, JSON round trips not counted), median of 5 passes:` +
      `\n  outputs as recorded (mean ${Math.round(cpu.outputChars / cpu.steps)} chars, cut to 2,048): ${cpu.medianUs.toFixed(1)} µs` +
      `\n  every non-empty output repeated to 2,048 chars: ${cpu2k.medianUs.toFixed(1)} µs`,
  );
}
