import { incompleteBeta } from './incomplete-beta.js';

/**
 * P(X ≤ k) for X ~ Binomial(n, p), through the regularised incomplete beta:
 * P(X ≤ k) = 1 − I_p(k + 1, n − k), with p itself passed on (not 1 − p). Accurate to a few units in the last place
 * relative, in the far tails too. k below 0 gives 0, k at or above n gives 1.
 */
export function binomialCdf(k: number, n: number, p: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${String(n)}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must be a number in [0, 1], got ${String(p)}`);
  const count = Math.floor(k);
  if (count < 0) return 0;
  if (count >= n) return 1;
  if (p === 0) return 1;
  if (p === 1) return 0;
  return incompleteBeta(p, count + 1, n - count).upper;
}
