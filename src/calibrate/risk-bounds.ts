import { betaQuantile } from './beta-quantile.js';
import { binomialCdf } from './binomial-cdf.js';

/**
 * Exact binomial p-value for the null "the risk is above `alpha`", given
 * `losses` 0/1 losses among `n` cases: P(Binomial(n, alpha) ≤ losses).
 * Valid for 0/1 losses on independent cases; never larger than the
 * Hoeffding–Bentkus p-value for the same counts.
 *
 * @example
 * binomialTailPValue(6, 300, 0.05); // ≈ 0.0066
 */
export function binomialTailPValue(losses: number, n: number, alpha: number): number {
  assertCounts(losses, n);
  assertRate('alpha', alpha);
  if (n === 0) return 1;
  return Math.min(1, binomialCdf(losses, n, alpha));
}

/**
 * Hoeffding p-value for the null "the mean loss is above `alpha`", for losses
 * in [0, 1]: exp(−n·h(min(R̂, α), α)) with h the Bernoulli relative entropy.
 */
export function hoeffdingPValue(meanLoss: number, n: number, alpha: number): number {
  assertRate('meanLoss', meanLoss);
  assertRate('alpha', alpha);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${String(n)}`);
  if (n === 0) return 1;
  return Math.min(1, Math.exp(-n * bernoulliDivergence(Math.min(meanLoss, alpha), alpha)));
}

/**
 * Bentkus p-value for the null "the mean loss is above `alpha`", for losses
 * in [0, 1]: e·P(Binomial(n, α) ≤ ⌈n·R̂⌉).
 */
export function bentkusPValue(meanLoss: number, n: number, alpha: number): number {
  assertRate('meanLoss', meanLoss);
  assertRate('alpha', alpha);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${String(n)}`);
  if (n === 0) return 1;
  // n·R̂ of a 0/1 mean can land a hair above an integer in floating point; a relative slack keeps ⌈k⌉ = k.
  const scaled = n * meanLoss;
  return Math.min(1, Math.E * binomialCdf(Math.ceil(scaled - 1e-9 * Math.max(1, scaled)), n, alpha));
}

/**
 * The Hoeffding–Bentkus p-value of Learn-then-Test: the smaller of
 * {@link hoeffdingPValue} and {@link bentkusPValue}. Valid for any losses in
 * [0, 1] on independent cases.
 *
 * @example
 * hoeffdingBentkusPValue(6 / 300, 300, 0.05); // ≈ 0.018
 */
export function hoeffdingBentkusPValue(meanLoss: number, n: number, alpha: number): number {
  return Math.min(hoeffdingPValue(meanLoss, n, alpha), bentkusPValue(meanLoss, n, alpha));
}

/**
 * One-sided Clopper–Pearson upper confidence bound on a rate, from `events`
 * out of `n`, at `confidence` (for example 0.95): Beta⁻¹(confidence; k + 1, n − k),
 * and 1 when every case is an event or there are no cases.
 *
 * @example
 * clopperPearsonUpper(6, 300, 0.95); // ≈ 0.039
 */
export function clopperPearsonUpper(events: number, n: number, confidence: number): number {
  assertCounts(events, n);
  if (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1)) {
    throw new RangeError(`confidence must be a number in (0, 1), got ${String(confidence)}`);
  }
  if (n === 0 || events === n) return 1;
  return betaQuantile(confidence, events + 1, n - events);
}

/** Bernoulli relative entropy h(a, b) = a·ln(a/b) + (1 − a)·ln((1 − a)/(1 − b)), with 0·ln 0 = 0. */
export function bernoulliDivergence(a: number, b: number): number {
  const term = (p: number, q: number): number => (p === 0 ? 0 : p * Math.log(p / q));
  return term(a, b) + term(1 - a, 1 - b);
}

function assertCounts(events: number, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${String(n)}`);
  if (!Number.isInteger(events) || events < 0 || events > n) {
    throw new RangeError(`the count must be an integer in [0, ${n}], got ${String(events)}`);
  }
}

function assertRate(name: string, value: number): void {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new RangeError(`${name} must be a number in [0, 1], got ${String(value)}`);
  }
}
