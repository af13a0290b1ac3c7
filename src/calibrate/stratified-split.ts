import type { LabelledCase } from './labelled-case.js';
import { createSeededRandom, shuffleInPlace } from './seeded-random.js';

/** The two parts of a split: the cases thresholds are chosen on, and the cases kept back to confirm them. */
export interface CaseSplit<T extends LabelledCase> {
  readonly calibration: readonly T[];
  readonly holdout: readonly T[];
}

/**
 * Splits cases into a calibration part and a held-out part, seeded and
 * stratified by task type and label: each (task type, label) group sends
 * `round(holdout × size)` of its cases, drawn at random, to the held-out part.
 * Within each part the cases keep their original order.
 *
 * @example
 * const { calibration, holdout } = splitCases(cases, 0.3, 7);
 */
export function splitCases<T extends LabelledCase>(cases: readonly T[], holdout: number, seed: number): CaseSplit<T> {
  if (typeof holdout !== 'number' || !(holdout >= 0 && holdout < 1)) {
    throw new TypeError(`holdout must be a number in [0, 1), got ${String(holdout)}`);
  }
  const random = createSeededRandom(seed);
  const groups = new Map<string, number[]>();
  cases.forEach((labelled, index) => {
    const key = JSON.stringify([labelled.taskType ?? null, labelled.label]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [index]);
    else group.push(index);
  });
  const heldOut = new Set<number>();
  for (const key of [...groups.keys()].sort()) {
    const indices = shuffleInPlace([...(groups.get(key) ?? [])], random);
    const take = Math.round(holdout * indices.length);
    for (const index of indices.slice(0, take)) heldOut.add(index);
  }
  return {
    calibration: cases.filter((_, index) => !heldOut.has(index)),
    holdout: cases.filter((_, index) => heldOut.has(index)),
  };
}
