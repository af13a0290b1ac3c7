// Calibration on growing case sets, against the threshold walk as it was before calibration decided cases
// through the stop engine (bench/baseline-threshold-walk.ts: the seed's table read by hand, one sorted pass),
// measured in the same run: the walk and the full calibrateThresholds (split, fixed-sequence walk over 99
// thresholds, mid band, held-out confirmation and curves, the same per task type), each on a policy object
// seen for the first time (every kind of case decided by decide once) and on one seen before, and the
// recalibration fits.
import { calibrateThresholds } from '../src/calibrate/calibrate-thresholds.js';
import { fitIsotonic } from '../src/calibrate/fit-isotonic.js';
import { fitPlatt } from '../src/calibrate/fit-platt.js';
import { fitTemperature } from '../src/calibrate/fit-temperature.js';
import type { ScoredCase } from '../src/calibrate/labelled-case.js';
import { certifyDoneThreshold, defaultThresholdGrid } from '../src/calibrate/learn-then-test.js';
import { createSeededRandom } from '../src/calibrate/seeded-random.js';
import { parseStopPolicy } from '../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../src/core/policy/seed-stop-policy.js';
import { baselineThresholdWalk } from './baseline-threshold-walk.js';
import { formatBytes, heapRetained, measure, printTable } from './harness.js';

function drawCases(count: number, seed: number): ScoredCase[] {
  const random = createSeededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const u = 1 - random();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
    const score = 1 / (1 + Math.exp(-(1 + 1.6 * z)));
    const done = random() < score;
    return {
      probabilities: { acceptanceCovered: score, noOpenQuestions: Math.min(1, score + 0.05) },
      tests: random() < 0.85 ? { passed: true, failed: [], ran: 10 } : { passed: false, failed: ['t'], ran: 10 },
      label: done ? 'done' : 'not_done',
      taskType: index % 3 === 0 ? 'bugfix' : 'feature',
    };
  });
}

export default async function run(): Promise<void> {
  const rows: string[][] = [];
  const grid = defaultThresholdGrid();
  const walk = { alpha: 0.05, delta: 0.1, grid, risk: 'joint' as const, method: 'exact' as const };
  // A copy of the seed preset no calibration has seen: its cases are decided by decide, each kind once.
  const unseen = () => parseStopPolicy(SEED_STOP_POLICY);
  for (const size of [300, 3_000, 30_000]) {
    const cases = drawCases(size, size);
    const expected = baselineThresholdWalk(cases, walk);
    const found = certifyDoneThreshold(cases, SEED_STOP_POLICY, walk).threshold;
    if (found !== expected) throw new Error(`the walk through decide certified ${found}, the baseline ${expected}, on ${size} cases`);
    const timings = await measure(
      {
        'baseline: the threshold walk, seed table by hand': () => baselineThresholdWalk(cases, walk),
        'certifyDoneThreshold, policy not seen before': () => certifyDoneThreshold(cases, unseen(), walk),
        'certifyDoneThreshold, policy seen before': () => certifyDoneThreshold(cases, SEED_STOP_POLICY, walk),
        'calibrateThresholds, policy not seen before': () => calibrateThresholds(cases, { seed: 1, policy: unseen() }),
        'calibrateThresholds, policy seen before': () => calibrateThresholds(cases, { seed: 1 }),
        fitPlatt: () => fitPlatt(cases),
        fitTemperature: () => fitTemperature(cases),
        fitIsotonic: () => fitIsotonic(cases),
      },
      { timeMs: size >= 30_000 ? 1500 : 600 },
    );
    const baseline = timings['baseline: the threshold walk, seed table by hand']?.meanUs ?? Number.NaN;
    for (const [name, timing] of Object.entries(timings)) {
      rows.push([name, String(size), (timing.meanUs / 1000).toFixed(2), (timing.p50Us / 1000).toFixed(2), `${(timing.meanUs / baseline).toFixed(1)}x`]);
    }
    const retained = heapRetained(() => calibrateThresholds(cases, { seed: 1 }));
    rows.push(['result kept in memory', String(size), formatBytes(retained.bytes), '', '']);
  }
  printTable('calibrate: time per call (ms) by number of cases, and the mean against the baseline walk of the same size', ['operation', 'cases', 'mean ms', 'p50 ms', 'x baseline'], rows);
}
