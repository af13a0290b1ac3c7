import type { DecisionModelCallOptions, DecisionModelClient, DecisionModelRequest, DecisionModelResult } from './decision-model-client.js';
import { validateAnswers } from './validate-answers.js';
import { setOwnProperty } from '../core/own-property.js';
import { canonicalJson } from './canonical-json.js';
import { assertDecisionModelClient } from './check-completion.js';

/** Options of {@link createCachedClient}. */
export interface CachedClientOptions {
  /** How many answers to keep; the least recently used is dropped first. */
  readonly maxEntries: number;
}

/** A client that answers repeated requests from a bounded cache, with counters. */
export interface CachedClient extends DecisionModelClient {
  /** Answers held now (at most `maxEntries`). */
  readonly size: number;
  /** Requests answered from the cache. */
  readonly hits: number;
  /** Requests passed on to the wrapped client. */
  readonly misses: number;
  /** Drops every cached answer. */
  clear(): void;
}

/**
 * Wraps a client so that a request with the same state and the same questions
 * (compared as canonical JSON, key order ignored) is answered from a bounded
 * least-recently-used cache: a loop that repeats itself, or a hook re-run on
 * the same output, pays once. Only validated answers are kept; errors are
 * never cached. Keys are SHA-256 digests, so a cached entry does not keep the
 * judged output alive.
 *
 * @example
 * const client = createCachedClient(createHostedClient(), { maxEntries: 256 });
 */
export function createCachedClient(client: DecisionModelClient, options: CachedClientOptions): CachedClient {
  assertDecisionModelClient(client);
  const maxEntries = options?.maxEntries;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new TypeError(`maxEntries must be a positive integer, got ${String(maxEntries)}`);
  }
  const entries = new Map<string, DecisionModelResult>();
  let hits = 0;
  let misses = 0;

  return {
    get size() {
      return entries.size;
    },
    get hits() {
      return hits;
    },
    get misses() {
      return misses;
    },
    clear() {
      entries.clear();
    },
    async evaluate(request: DecisionModelRequest, evaluateOptions?: DecisionModelCallOptions): Promise<DecisionModelResult> {
      const key = await digest(canonicalJson({ state: request.state, questions: request.questions }));
      const cached = entries.get(key);
      if (cached !== undefined) {
        entries.delete(key);
        entries.set(key, cached);
        hits += 1;
        return cached;
      }
      misses += 1;
      const result = await client.evaluate(request, evaluateOptions);
      const valid = validateAnswers(result, request.questions);
      const answers: Record<string, { probability: number }> = {};
      for (const [name, probability] of Object.entries(valid.probabilities)) {
        setOwnProperty(answers, name, Object.freeze({ probability }));
      }
      const stored: DecisionModelResult = Object.freeze({
        answers: Object.freeze(answers),
        model: valid.model,
        ...(valid.usage === undefined ? {} : { usage: Object.freeze({ ...valid.usage }) }),
      });
      entries.set(key, stored);
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
      return stored;
    },
  };
}

async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
