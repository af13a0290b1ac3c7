/**
 * Round axis ticks from 0 to at least `max`: steps of 1, 2 or 5 times a power
 * of ten, the one nearest to `max / count`, the last tick the first one at or above `max` (the
 * axis then ends there).
 *
 * @example
 * niceTicks(0.11); // [0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12]
 */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const mantissa = rough / power;
  const step = (mantissa < 1.5 ? 1 : mantissa < 3 ? 2 : mantissa < 7 ? 5 : 10) * power;
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const ticks: number[] = [];
  for (let i = 0; ; i += 1) {
    const tick = Number((i * step).toFixed(decimals));
    ticks.push(tick);
    if (tick >= max * (1 - 1e-12)) return ticks;
  }
}
