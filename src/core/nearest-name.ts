const ALIASES: Readonly<Record<string, string>> = {
  prompttokens: 'inputTokens',
  completiontokens: 'outputTokens',
  tokensin: 'inputTokens',
  tokensout: 'outputTokens',
  price: 'cost',
  spend: 'cost',
};

/**
 * The known name a misspelt one most likely meant, or `undefined` when none
 * is close: the same letters in another case or with `_`/`-`, one name
 * starting with the other (`costUsd` → `cost`), at most two edits apart, or a
 * common synonym (`promptTokens` → `inputTokens`).
 *
 * @example
 * nearestName('costUsd', ['inputTokens', 'outputTokens', 'cost']); // 'cost'
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const wanted = normalize(name);
  if (wanted === '') return undefined;
  const alias = ALIASES[wanted];
  if (alias !== undefined && known.includes(alias)) return alias;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const normal = normalize(candidate);
    if (normal === wanted) return candidate;
    const prefix = (normal.length >= 3 && wanted.startsWith(normal)) || (wanted.length >= 3 && normal.startsWith(wanted));
    const distance = prefix ? 0.5 : editDistance(wanted, normal);
    if (distance <= 2 && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
