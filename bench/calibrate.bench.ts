// Calibration on growing case sets: the full calibrateThresholds (split,
// fixed-sequence walk over 99 thresholds, mid band, held-out confirmation and
// curves), the threshold walk alone, and the recalibration fits.
import { calibrateThresholds } from '../src/calibrate/calibrate-thresholds.js';
import { caseOutcome } from '../src/calibrate/case-outcome.js';
import { fitIsotonic } from '../src/calibrate/fit-isotonic.js';
import { fitPlatt } from '../src/calibrate/fit-platt.js';
import { fitTemperature } from '../src/calibrate/fit-temperature.js';
import type { ScoredCase } from '../src/calibrate/labelled-case.js';
import { certifyDoneThreshold, defaultThresholdGrid } from '../src/calibrate/learn-then-test.js';
import { createSeededRandom } from '../src/calibrate/seeded-random.js';
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
  for (const size of [300, 3_000, 30_000]) {
    const cases = drawCases(size, size);
    const outcomes = cases.map(caseOutcome);
    const grid = defaultThresholdGrid();
    const timings = await measure(
      {
        calibrateThresholds: () => calibrateThresholds(cases, { seed: 1 }),
        'threshold walk': () => certifyDoneThreshold(outcomes, { alpha: 0.05, delta: 0.1, grid, risk: 'joint', method: 'exact' }),
        fitPlatt: () => fitPlatt(cases),
        fitTemperature: () => fitTemperature(cases),
        fitIsotonic: () => fitIsotonic(cases),
      },
      { timeMs: size >= 30_000 ? 1500 : 600 },
    );
    for (const [name, timing] of Object.entries(timings)) {
      rows.push([name, String(size), (timing.meanUs / 1000).toFixed(2), (timing.p50Us / 1000).toFixed(2)]);
    }
    const retained = heapRetained(() => calibrateThresholds(cases, { seed: 1 }));
    rows.push(['result kept in memory', String(size), formatBytes(retained.bytes), '']);
  }
  printTable('calibrate: time per call (ms) by number of cases', ['operation', 'cases', 'mean ms', 'p50 ms'], rows);
}
