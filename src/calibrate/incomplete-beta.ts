import { stirlingError } from './log-gamma.js';

/** Both tails of the beta distribution at one point, each to full relative precision. */
export interface BetaTails {
  /** I_x(a, b) = P(X ≤ x) for X ~ Beta(a, b). */
  readonly lower: number;
  /** 1 − I_x(a, b) = P(X > x). */
  readonly upper: number;
}

const TINY = 1e-300;
const MAX_TERMS = 100_000;

/**
 * The regularised incomplete beta function I_x(a, b) and its complement, for
 * x in [0, 1] and a, b > 0: the continued fraction of Numerical Recipes §6.4,
 * evaluated by the modified Lentz method on the side where it converges fast,
 * the other tail by subtraction (it is then the larger one). The prefactor
 * x^a·(1 − x)^b / B(a, b) is computed from Stirling errors and the deviance
 * (Loader's saddle-point form) so that it keeps its precision for a, b up to
 * 10^6 and beyond.
 */
export function incompleteBeta(x: number, a: number, b: number): BetaTails {
  if (!(a > 0) || !(b > 0) || !Number.isFinite(a) || !Number.isFinite(b)) {
    throw new RangeError(`the beta parameters must be finite and positive, got ${String(a)} and ${String(b)}`);
  }
  if (!(x >= 0 && x <= 1)) throw new RangeError(`x must be a number in [0, 1], got ${String(x)}`);
  if (x === 0) return { lower: 0, upper: 1 };
  if (x === 1) return { lower: 1, upper: 0 };
  // 1 − x is exact for x ≥ ½; below, x is the exact one, and the prefactor takes its products from it
  const y = 1 - x;
  if (x < (a + 1) / (a + b + 2)) {
    const lower = Math.min(1, (betaPowerTerms(x, y, a, b) * continuedFraction(x, a, b)) / a);
    return { lower, upper: 1 - lower };
  }
  const upper = Math.min(1, (betaPowerTerms(y, x, b, a) * continuedFraction(y, b, a)) / b);
  return { lower: 1 - upper, upper };
}

/** The density of Beta(a, b) at x in (0, 1). */
export function betaDensity(x: number, a: number, b: number): number {
  if (x <= 0 || x >= 1) return 0;
  return betaPowerTerms(x, 1 - x, a, b) / (x * (1 - x));
}

/**
 * x^a·y^b / B(a, b) with y = 1 − x, written as
 * √(ab / (2πn))·exp(δ(n) − δ(a) − δ(b) − D(a, n·x) − D(b, n·y)) with n = a + b,
 * δ the Stirling error and D the deviance: no large terms cancel. n·x and n·y
 * come from the smaller of x and y (the exact one) and n minus that product.
 */
function betaPowerTerms(x: number, y: number, a: number, b: number): number {
  const n = a + b;
  const nx = x <= y ? n * x : n - n * y;
  const ny = x <= y ? n - nx : n * y;
  const exponent = stirlingError(n) - stirlingError(a) - stirlingError(b) - deviance(a, nx) - deviance(b, ny);
  return Math.sqrt((a * b) / (2 * Math.PI * n)) * Math.exp(exponent);
}

/** D(k, m) = k·ln(k/m) + m − k ≥ 0, by its series where k and m are close (Loader 2000). */
function deviance(k: number, m: number): number {
  if (Math.abs(k - m) < 0.1 * (k + m)) {
    let v = (k - m) / (k + m);
    let sum = (k - m) * v;
    let term = 2 * k * v;
    v *= v;
    for (let j = 1; j < 1000; j += 1) {
      term *= v;
      const next = sum + term / (2 * j + 1);
      if (next === sum) return next;
      sum = next;
    }
    return sum;
  }
  return k * Math.log(k / m) + m - k;
}

/** The continued fraction of I_x(a, b) (Numerical Recipes `betacf`), modified Lentz. */
function continuedFraction(x: number, a: number, b: number): number {
  const guard = (value: number): number => (Math.abs(value) < TINY ? TINY : value);
  let c = 1;
  let d = 1 / guard(1 - ((a + b) * x) / (a + 1));
  let h = d;
  for (let m = 1; m <= MAX_TERMS; m += 1) {
    const m2 = 2 * m;
    const even = (m * (b - m) * x) / ((a - 1 + m2) * (a + m2));
    d = 1 / guard(1 + even * d);
    c = guard(1 + even / c);
    h *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + 1 + m2));
    d = 1 / guard(1 + odd * d);
    c = guard(1 + odd / c);
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) <= Number.EPSILON) break;
  }
  return h;
}
