/**
 * A duration for people: whole milliseconds below a second, else seconds
 * with at most one decimal (1500 → "1.5 s", 2000 → "2 s", 140000 → "140 s").
 *
 * @example
 * formatDuration(1500); // "1.5 s"
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (Math.abs(Math.round(ms)) < 1000) return `${Math.round(ms)} ms`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}
