import { editDistance } from './edit-distance.js';

const ALIASES: Readonly<Record<string, string>> = {
  prompttokens: 'inputTokens',
  completiontokens: 'outputTokens',
  tokensin: 'inputTokens',
  tokensout: 'outputTokens',
  price: 'cost',
  spend: 'cost',
  // Renamed in stopwise 0.2: the decision model has one name everywhere.
  judge: 'decisionModel',
  judgecalls: 'decisionModelCalls',
  judgecost: 'decisionModelCost',
};

/**
 * The known name a misspelt one most likely meant, or `undefined` when none
 * is close: the same letters in another case or with `_`/`-`, one name
 * starting with the other (`costUsd` → `cost`), a common synonym
 * (`promptTokens` → `inputTokens`), a name of an earlier release (`judge` →
 * `decisionModel`), or few edits apart (at most a third of
 * the longer name's length, and never more than 3; a swap of two adjacent
 * letters is one edit). The closest wins, the first on a tie.
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
    const allowed = Math.min(3, Math.floor(Math.max(normal.length, wanted.length) / 3));
    if (distance <= (prefix ? 0.5 : allowed) && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}
