/** Where a count falls in the predictive distribution of a baseline, and the band of counts that are usual. */
export interface PredictiveBand {
  /** P(X ≥ observed): how likely a count this high is if the share has not changed. */
  readonly pValue: number;
  /** The smallest count not in the lower `alpha` tail. */
  readonly low: number;
  /** The largest count not in the upper `alpha` tail: a count above it alerts. */
  readonly high: number;
}

/**
 * The beta-binomial posterior predictive of the number of events in `n` new
 * trials after `baselineEvents` in `baselineTrials`, with a uniform prior on
 * the rate: X ~ BetaBinomial(n, baselineEvents + 1, baselineTrials − baselineEvents + 1).
 * Unlike a plain binomial bound at the baseline share, it carries the
 * baseline's own uncertainty: a short or empty baseline gives a wide band.
 * Returns the upper tail at `observed` and the band [low, high] of counts
 * outside both `alpha` tails. O(n): the probabilities by their ratio
 * recurrence, in logarithms.
 *
 * @example
 * predictiveBand(10, 100, 7, 50, 0.01).high; // the most limit stops of 50 runs that a 10-in-100 baseline still calls usual
 */
export function predictiveBand(baselineEvents: number, baselineTrials: number, observed: number, n: number, alpha: number): PredictiveBand {
  const a = baselineEvents + 1;
  const b = baselineTrials - baselineEvents + 1;
  const logs = new Float64Array(n + 1);
  let top = 0;
  for (let k = 0; k < n; k += 1) {
    const next = (logs[k] as number) + Math.log(n - k) - Math.log(k + 1) + Math.log(k + a) - Math.log(n - k - 1 + b);
    logs[k + 1] = next;
    if (next > top) top = next;
  }
  let total = 0;
  for (let k = 0; k <= n; k += 1) {
    const p = Math.exp((logs[k] as number) - top);
    logs[k] = p;
    total += p;
  }
  let low = 0;
  let below = 0;
  while (low < n && (below + (logs[low] as number)) / total <= alpha) {
    below += logs[low] as number;
    low += 1;
  }
  let high = n;
  let above = 0;
  let pValue = observed <= 0 ? 1 : Number.NaN;
  for (let k = n; k >= 0; k -= 1) {
    above += logs[k] as number;
    if (k === observed) pValue = Math.min(1, above / total);
    if (above / total <= alpha) high = k - 1;
  }
  return { pValue: Number.isNaN(pValue) ? 0 : pValue, low, high: Math.max(high, low) };
}
