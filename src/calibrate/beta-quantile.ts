import { betaDensity, incompleteBeta } from './incomplete-beta.js';

const MAX_STEPS = 200;

/**
 * The quantile of Beta(a, b): the x in [0, 1] with I_x(a, b) = p, for p in
 * [0, 1] and a, b > 0. Halley steps from the starting point of Numerical
 * Recipes `invbetai`, kept inside a bracket that every evaluation narrows and
 * replaced by bisection when they would leave it; the residual is taken on the
 * smaller tail, so p near 1 loses nothing to 1 − p.
 */
export function betaQuantile(p: number, a: number, b: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must be a number in [0, 1], got ${String(p)}`);
  if (!(a > 0) || !(b > 0) || !Number.isFinite(a) || !Number.isFinite(b)) {
    throw new RangeError(`the beta parameters must be finite and positive, got ${String(a)} and ${String(b)}`);
  }
  if (p === 0) return 0;
  if (p === 1) return 1;
  const upperTail = p > 0.5;
  const target = upperTail ? 1 - p : p;
  let low = 0;
  let high = 1;
  const widths = [1, 1, 1];
  let x = startingPoint(p, a, b);
  for (let step = 0; step < MAX_STEPS; step += 1) {
    if (!(x > low && x < high)) x = midpoint(low, high);
    const tails = incompleteBeta(x, a, b);
    // the tail on the side of p, which I_x − p is computed on; it rises with x on the lower side, falls on the upper
    const tail = upperTail ? tails.upper : tails.lower;
    const sign = upperTail ? -1 : 1;
    const residual = sign * (tail - target);
    if (residual === 0) return x;
    if (residual < 0) low = x;
    else high = x;
    const density = betaDensity(x, a, b);
    let next = Number.NaN;
    if (density > 0 && Number.isFinite(density)) {
      const ratio = tail / target;
      if (tail > 0 && (ratio > 2 || ratio < 0.5)) {
        // far from the root the tail is exponential-like in x: a Newton step on ln(tail) − ln(target)
        next = x - (sign * Math.log(ratio) * tail) / density;
      } else {
        const newton = residual / density;
        const curvature = (a - 1) / x - (b - 1) / (1 - x);
        const halley = newton / (1 - 0.5 * Math.min(1, newton * curvature));
        next = x - (Number.isFinite(halley) ? halley : newton);
      }
      if (next > low && next < high && Math.abs(next - x) <= 4 * Number.EPSILON * x) return next;
    }
    widths.push(high - low);
    // bisect when a step leaves the bracket or three steps have not halved it
    if (!(next > low && next < high) || high - low > 0.5 * (widths.shift() as number)) next = midpoint(low, high);
    if (next === low || next === high) return x;
    x = next;
  }
  return x;
}

/** The middle of a bracket, geometric where it spans orders of magnitude near 0. */
function midpoint(low: number, high: number): number {
  if (low > 0 && high / low > 16) return Math.sqrt(low * high);
  if (low === 0 && high < 1e-3) return high / 16;
  return low + (high - low) / 2;
}

/** Numerical Recipes' first guess for the beta quantile (normal approximation, or the power tails). */
function startingPoint(p: number, a: number, b: number): number {
  if (a >= 1 && b >= 1) {
    const tail = p < 0.5 ? p : 1 - p;
    const t = Math.sqrt(-2 * Math.log(tail));
    let z = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t;
    if (p < 0.5) z = -z;
    const al = (z * z - 3) / 6;
    const h = 2 / (1 / (2 * a - 1) + 1 / (2 * b - 1));
    const w = (z * Math.sqrt(al + h)) / h - (1 / (2 * b - 1) - 1 / (2 * a - 1)) * (al + 5 / 6 - 2 / (3 * h));
    const guess = a / (a + b * Math.exp(2 * w));
    return Number.isFinite(guess) ? guess : a / (a + b);
  }
  const lnA = Math.log(a / (a + b));
  const lnB = Math.log(b / (a + b));
  const t = Math.exp(a * lnA) / a;
  const u = Math.exp(b * lnB) / b;
  const w = t + u;
  return p < t / w ? Math.pow(a * w * p, 1 / a) : 1 - Math.pow(b * w * (1 - p), 1 / b);
}
