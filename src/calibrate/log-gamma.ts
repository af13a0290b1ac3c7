// Lanczos approximation, g = 7, nine coefficients (relative error about 1e-15 for z >= 0.5).
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
] as const;
const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/** ln Γ(z) for z > 0, by the Lanczos approximation. */
export function logGamma(z: number): number {
  if (!(z > 0)) throw new RangeError(`logGamma needs z > 0, got ${String(z)}`);
  if (z < 0.5) return logGamma(z + 1) - Math.log(z);
  const shifted = z - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i += 1) sum += (LANCZOS[i] as number) / (shifted + i);
  const t = shifted + LANCZOS_G + 0.5;
  return HALF_LOG_TWO_PI + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}

/**
 * The error of Stirling's formula, ln Γ(z) − ((z − ½)·ln z − z + ½·ln 2π), for z > 0: by its
 * asymptotic series above 15, where it is accurate to a few units in the last place, from
 * {@link logGamma} below.
 */
export function stirlingError(z: number): number {
  if (z > 15) {
    const inverse = 1 / z;
    const square = inverse * inverse;
    return (1 / 12 - (1 / 360 - (1 / 1260 - (1 / 1680 - square / 1188) * square) * square) * square) * inverse;
  }
  return logGamma(z) - (z - 0.5) * Math.log(z) + z - HALF_LOG_TWO_PI;
}
