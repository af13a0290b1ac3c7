/**
 * A fitted recalibration map, as plain data (it serialises as JSON):
 * Platt scaling `q = 1 / (1 + exp(a·logit(p) + b))`, temperature scaling
 * `q = σ(logit(p) / temperature)`, or an isotonic step function given by its
 * breakpoints (linear between them, flat beyond the ends). All three are
 * non-decreasing in p.
 */
export type CalibrationMap =
  | { readonly kind: 'platt'; readonly a: number; readonly b: number }
  | { readonly kind: 'temperature'; readonly temperature: number }
  | { readonly kind: 'isotonic'; readonly x: readonly number[]; readonly y: readonly number[] };

/** A fitted map and the function that applies it. */
export interface CalibrationFit<M extends CalibrationMap = CalibrationMap> {
  readonly map: M;
  readonly apply: (probability: number) => number;
}

/** Probabilities are clamped this far from 0 and 1 before taking a logit. */
export const LOGIT_EPSILON = 1e-6;

/** log(p / (1 − p)) with p clamped to [ε, 1 − ε]. */
export function logit(probability: number): number {
  const p = Math.min(1 - LOGIT_EPSILON, Math.max(LOGIT_EPSILON, probability));
  return Math.log(p / (1 - p));
}

/** The logistic function 1 / (1 + exp(−z)), computed without overflow. */
export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/**
 * Applies a recalibration map to one probability. Throws a `RangeError` when
 * the probability is not in [0, 1] or the map is malformed.
 *
 * @example
 * applyCalibrationMap({ kind: 'temperature', temperature: 2 }, 0.9); // ≈ 0.75
 */
export function applyCalibrationMap(map: CalibrationMap, probability: number): number {
  if (typeof probability !== 'number' || !(probability >= 0 && probability <= 1)) {
    throw new RangeError(`probability must be a number in [0, 1], got ${String(probability)}`);
  }
  switch (map.kind) {
    case 'platt':
      return sigmoid(-(map.a * logit(probability) + map.b));
    case 'temperature':
      return sigmoid(logit(probability) / map.temperature);
    case 'isotonic':
      return interpolate(map.x, map.y, probability);
    default:
      throw new RangeError(`unknown calibration map kind ${JSON.stringify((map as { kind?: unknown }).kind)}`);
  }
}

/** Throws a `RangeError` naming the field when `map` is not a valid {@link CalibrationMap}. */
export function assertCalibrationMap(map: CalibrationMap): void {
  if (typeof map !== 'object' || map === null) throw new RangeError('a calibration map must be an object');
  switch (map.kind) {
    case 'platt':
      if (!Number.isFinite(map.a) || !Number.isFinite(map.b)) throw new RangeError('platt map needs finite a and b');
      if (map.a > 0) throw new RangeError(`platt map must be non-decreasing (a <= 0), got a = ${map.a}`);
      return;
    case 'temperature':
      if (!(Number.isFinite(map.temperature) && map.temperature > 0)) {
        throw new RangeError(`temperature must be a positive number, got ${String(map.temperature)}`);
      }
      return;
    case 'isotonic': {
      const { x, y } = map;
      if (!Array.isArray(x) || !Array.isArray(y) || x.length === 0 || x.length !== y.length) {
        throw new RangeError('isotonic map needs x and y arrays of the same non-zero length');
      }
      for (let index = 0; index < x.length; index++) {
        const xi = x[index] as number;
        const yi = y[index] as number;
        if (!(xi >= 0 && xi <= 1) || !(yi >= 0 && yi <= 1)) throw new RangeError(`isotonic point ${index} is outside [0, 1]`);
        if (index > 0 && (xi < (x[index - 1] as number) || yi < (y[index - 1] as number))) {
          throw new RangeError(`isotonic points must be non-decreasing in x and y (point ${index})`);
        }
      }
      return;
    }
    default:
      throw new RangeError(`unknown calibration map kind ${JSON.stringify((map as { kind?: unknown }).kind)}`);
  }
}

/** Wraps a map in a {@link CalibrationFit}. */
export function toCalibrationFit<M extends CalibrationMap>(map: M): CalibrationFit<M> {
  assertCalibrationMap(map);
  return { map, apply: (probability) => applyCalibrationMap(map, probability) };
}

function interpolate(x: readonly number[], y: readonly number[], at: number): number {
  const last = x.length - 1;
  if (at <= (x[0] as number)) return y[0] as number;
  if (at >= (x[last] as number)) return y[last] as number;
  let low = 0;
  let high = last;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if ((x[middle] as number) <= at) low = middle;
    else high = middle;
  }
  const x0 = x[low] as number;
  const x1 = x[high] as number;
  const y0 = y[low] as number;
  const y1 = y[high] as number;
  return x1 === x0 ? y1 : y0 + ((y1 - y0) * (at - x0)) / (x1 - x0);
}
