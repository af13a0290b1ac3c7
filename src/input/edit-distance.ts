/**
 * The optimal string alignment distance between two strings: the fewest
 * insertions, deletions, substitutions and swaps of two adjacent characters
 * that turn one into the other (Damerau–Levenshtein, each substring edited at
 * most once).
 *
 * @example
 * editDistance('comand', 'command'); // 1
 * editDistance('tset', 'test'); // 1
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(at(i, j), at(i - 2, j - 2) + 1);
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate closest to `name` (case ignored), when it is close enough to
 * be a likely misspelling: at most a third of the longer name's length in
 * edits, and never more than 3. `undefined` when none is; the first candidate
 * wins a tie.
 *
 * @example
 * closestName('maxConsecutiveBlock', ['maxConsecutiveBlocks', 'stateDir']); // 'maxConsecutiveBlocks'
 * closestName('colour', ['tests', 'judge']); // undefined
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    const allowed = Math.min(3, Math.floor(Math.max(name.length, candidate.length) / 3));
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}
