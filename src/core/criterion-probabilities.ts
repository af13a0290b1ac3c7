/**
 * P(true) per named yes/no criterion, as a decision model answered them.
 * Combined with AND: the lowest probability decides.
 */
export type CriterionProbabilities = Readonly<Record<string, number>>;

/** The lowest criterion and its probability; `criterion` is absent when there are no criteria. */
export interface LowestCriterion {
  readonly criterion?: string;
  readonly probability: number;
}

/**
 * The lowest probability among the criteria.
 *
 * With no criteria at all the judgement is vacuous and the result is 1 (the
 * model "says done"): evidence alone then decides. Throws a `RangeError`
 * naming the criterion when a value is not a finite number in [0, 1].
 */
export function minCriterionProbability(probabilities: CriterionProbabilities): number {
  return lowestCriterion(probabilities).probability;
}

/** Like {@link minCriterionProbability}, also naming the criterion that is lowest. */
export function lowestCriterion(probabilities: CriterionProbabilities): LowestCriterion {
  if (typeof probabilities !== 'object' || probabilities === null || Array.isArray(probabilities)) {
    throw new RangeError('criterion probabilities must be an object of named numbers');
  }
  let lowestName: string | undefined;
  let lowest = 1;
  for (const name of Object.keys(probabilities)) {
    const value = probabilities[name];
    assertProbability(name, value);
    if (lowestName === undefined || value < lowest) {
      lowest = value;
      lowestName = name;
    }
  }
  return lowestName === undefined ? { probability: 1 } : { criterion: lowestName, probability: lowest };
}

/** Throws a `RangeError` naming the criterion unless `value` is a finite number in [0, 1]. */
export function assertProbability(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    const shown = typeof value === 'string' ? `"${value.slice(0, 40)}"` : String(value);
    throw new RangeError(`criterion "${name}" has probability ${shown}; expected a finite number in [0, 1]`);
  }
}
