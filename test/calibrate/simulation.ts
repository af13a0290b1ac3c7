// Case generators with a known truth, for checking the guarantee by simulation.
import type { ScoredCase } from '../../src/calibrate/labelled-case.js';
import type { RandomSource } from '../../src/calibrate/seeded-random.js';

/** How the true chance of "done" relates to the score the model reports. */
export type Miscalibration = 'well_calibrated' | 'over_confident' | 'under_confident';

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));
const logit = (p: number): number => Math.log(p / (1 - p));

/** The true P(done | reported score s) for each kind of model. */
export function trueDoneChance(kind: Miscalibration, score: number): number {
  const clamped = Math.min(1 - 1e-9, Math.max(1e-9, score));
  switch (kind) {
    case 'well_calibrated':
      return clamped;
    case 'over_confident':
      return sigmoid(logit(clamped) / 2);
    case 'under_confident':
      return sigmoid(logit(clamped) * 2);
  }
}

export function normal(random: RandomSource): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * One case: the reported score is logit-normal, the label is drawn from the
 * true chance, and the tests pass more often on done runs.
 */
export function drawCase(kind: Miscalibration, random: RandomSource): ScoredCase {
  const score = sigmoid(1 + 1.6 * normal(random));
  const done = random() < trueDoneChance(kind, score);
  const roll = random();
  const passRate = done ? 0.85 : 0.7;
  const failRate = done ? 0.1 : 0.2;
  const tests =
    roll < passRate
      ? { passed: true, failed: [], ran: 10 }
      : roll < passRate + failRate
        ? { passed: false, failed: ['a test'], ran: 10 }
        : { passed: false, failed: [], ran: 0 };
  return { probabilities: { criterion: score }, tests, label: done ? 'done' : 'not_done' };
}

/**
 * The true false-done rates at each threshold k/100 (k = 0..100), measured on
 * `size` fresh cases: joint (share of all cases whose tests passed, whose
 * score is at or above the threshold and whose label is not done) and
 * conditional (the same count over the cases stopped at that threshold).
 */
export function measureTrueRates(
  kind: Miscalibration,
  size: number,
  random: RandomSource,
): { joint: number[]; conditional: number[] } {
  const falseDones = new Array<number>(101).fill(0);
  const stopped = new Array<number>(101).fill(0);
  for (let index = 0; index < size; index++) {
    const drawn = drawCase(kind, random);
    if (drawn.tests?.passed !== true) continue;
    const bucket = Math.min(100, Math.floor((drawn.probabilities.criterion as number) * 100 + 1e-12));
    stopped[bucket] = (stopped[bucket] ?? 0) + 1;
    if (drawn.label === 'not_done') falseDones[bucket] = (falseDones[bucket] ?? 0) + 1;
  }
  const joint = new Array<number>(101).fill(0);
  const conditional = new Array<number>(101).fill(0);
  let falseAbove = 0;
  let stoppedAbove = 0;
  for (let bucket = 100; bucket >= 0; bucket--) {
    falseAbove += falseDones[bucket] as number;
    stoppedAbove += stopped[bucket] as number;
    joint[bucket] = falseAbove / size;
    conditional[bucket] = stoppedAbove === 0 ? 0 : falseAbove / stoppedAbove;
  }
  return { joint, conditional };
}
