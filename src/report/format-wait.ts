/**
 * A wait for people, in the unit that reads best: milliseconds below a
 * second, seconds below two minutes, minutes below two hours, then hours.
 *
 * @example
 * formatWait(95_000); // "95 s"; formatWait(540_000) is "9 min", formatWait(9_000_000) "2.5 h"
 */
export function formatWait(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Number((ms / 1000).toFixed(1))} s`;
  if (ms < 7_200_000) return `${Number((ms / 60_000).toFixed(1))} min`;
  return `${Number((ms / 3_600_000).toFixed(1))} h`;
}
