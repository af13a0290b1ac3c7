import { normalizeOutput } from './normalize-output.js';
import { observeDigest } from './observe-step.js';
import {
  DEFAULT_STALL_OPTIONS,
  STALL_SCORE_FEATURES,
  STALL_SCORE_MAX_WINDOW,
  type StallScoreFeature,
  type StallScoreModel,
} from './stall-options.js';
import { initialStallState, isStallState, type StallState } from './stall-state.js';
import type { StallStep } from './stall-step.js';
import { digest as digestOf, digestStep } from './step-digest.js';

/** One step of the score's window: its call and result digests, whether it failed, its output's SimHash, whether it was seen before. */
export interface StallScoreWindowEntry {
  readonly call: string;
  readonly result: string;
  readonly failed: boolean;
  readonly sketch: string;
  readonly revisit: boolean;
}

/**
 * What the score remembers between steps: the window, bounded sets of the turn's (call, result) pairs and of
 * the files named (as short digests), and the rule detector's state. Plain JSON of bounded size.
 */
export interface StallScoreState {
  readonly version: 1;
  readonly entries: readonly StallScoreWindowEntry[];
  readonly pairs: readonly string[];
  readonly files: readonly string[];
  readonly sinceNewFile: number;
  readonly sinceNewStep: number;
  readonly rules: StallState;
}

/** The state of the score before the first step of a turn. */
export function initialStallScoreState(): StallScoreState {
  return { version: 1, entries: [], pairs: [], files: [], sinceNewFile: 0, sinceNewStep: 0, rules: initialStallState() };
}

const MAX_PAIRS = 64;
const MAX_FILES = 256;
const NEAR_BITS = 3;

/** The features of the step just observed and the state after it. */
export function observeScoreFeatures(
  state: StallScoreState,
  step: StallStep,
  window: number,
): { readonly state: StallScoreState; readonly features: Readonly<Record<StallScoreFeature, number>> } {
  if (step.role === 'user') return { state: initialStallScoreState(), features: zeroFeatures() };
  const digest = digestStep(step, DEFAULT_STALL_OPTIONS);
  const observed = observeDigest(state.rules, digest, DEFAULT_STALL_OPTIONS);
  const pair = `${digest.callDigest}${digest.resultDigest}`;
  const revisit = state.pairs.includes(pair);
  const pairs = revisit ? state.pairs : [...state.pairs, pair].slice(-MAX_PAIRS);
  const named = step.tool === undefined ? [] : fileNames(step.input).map((name) => digestOf('file', name));
  const freshFile = named.some((name) => !state.files.includes(name));
  const files = freshFile ? [...state.files, ...named.filter((name) => !state.files.includes(name))].slice(-MAX_FILES) : state.files;
  const sketch = simHash(normalizeOutput(step.output ?? step.text ?? ''));
  const entry: StallScoreWindowEntry = { call: digest.callDigest, result: digest.resultDigest, failed: digest.failed, sketch, revisit };
  const entries = [...state.entries, entry].slice(-window);
  const next: StallScoreState = {
    version: 1,
    entries,
    pairs,
    files,
    sinceNewFile: freshFile ? 0 : state.sinceNewFile + 1,
    sinceNewStep: revisit ? state.sinceNewStep + 1 : 0,
    rules: observed.state,
  };
  const n = entries.length;
  let nearDuplicates = 0;
  for (let i = 1; i < n; i++) {
    const sketchI = (entries[i] as StallScoreWindowEntry).sketch;
    for (let j = 0; j < i; j++) {
      if (hammingDistance(sketchI, (entries[j] as StallScoreWindowEntry).sketch) <= NEAR_BITS) {
        nearDuplicates++;
        break;
      }
    }
  }
  const features: Record<StallScoreFeature, number> = {
    errorRate: entries.filter((e) => e.failed).length / n,
    repeatedOutputs: 1 - new Set(entries.map((e) => e.result)).size / n,
    repeatedActions: 1 - new Set(entries.map((e) => e.call)).size / n,
    nearDuplicateOutputs: nearDuplicates / n,
    sinceNewFile: Math.min(1, next.sinceNewFile / window),
    revisitedSteps: entries.filter((e) => e.revisit).length / n,
    sinceNewStep: Math.min(1, next.sinceNewStep / window),
    ruleFinding: observed.stall === undefined ? 0 : 1,
  };
  return { state: next, features };
}

/** The score of a set of features under a model: the logistic of the bias plus the weighted features. */
export function stallScore(model: StallScoreModel, features: Readonly<Record<StallScoreFeature, number>>): number {
  let z = model.bias;
  for (const name of STALL_SCORE_FEATURES) z += model.weights[name] * features[name];
  return 1 / (1 + Math.exp(-z));
}

/**
 * One step through a learned stall score: the next state, the score, and whether it reached the model's threshold.
 * A user message starts the turn afresh: its score is 0 and it never stops, whatever the threshold.
 */
export function observeStallScore(
  state: StallScoreState,
  step: StallStep,
  model: StallScoreModel,
): { readonly state: StallScoreState; readonly score: number; readonly stop: boolean } {
  const { state: next, features } = observeScoreFeatures(state, step, model.window);
  if (step.role === 'user') return { state: next, score: 0, stop: false };
  const score = stallScore(model, features);
  return { state: next, score, stop: model.threshold !== null && score >= model.threshold };
}

/** True for a value shaped like a saved {@link StallScoreState} of this version (its rule detector's state included). */
export function isStallScoreState(value: unknown): value is StallScoreState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  return (
    state.version === 1 &&
    Array.isArray(state.entries) &&
    state.entries.length <= STALL_SCORE_MAX_WINDOW &&
    Array.isArray(state.pairs) &&
    state.pairs.length <= MAX_PAIRS &&
    Array.isArray(state.files) &&
    state.files.length <= MAX_FILES &&
    Number.isInteger(state.sinceNewFile) &&
    Number.isInteger(state.sinceNewStep) &&
    isStallState(state.rules)
  );
}

function zeroFeatures(): Record<StallScoreFeature, number> {
  return Object.fromEntries(STALL_SCORE_FEATURES.map((name) => [name, 0])) as Record<StallScoreFeature, number>;
}

// A file named in a call: a path-like token with an extension ("src/a.py", "Main.java").
const FILE_NAME = /(?:[\w.-]+\/)*[\w-]+\.[A-Za-z][\w]{0,7}\b/g;

function fileNames(input: unknown): string[] {
  const text = typeof input === 'string' ? input : safeJson(input);
  const found = new Set<string>();
  for (const match of text.slice(0, 4096).matchAll(FILE_NAME)) {
    const name = match[0].replace(/^\.\//, '');
    if (!/^\d/.test(name)) found.add(name);
    if (found.size >= 8) break;
  }
  return [...found];
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** A 64-bit SimHash of the text's word 3-grams, as 16 hex characters (empty text: all zeros). */
export function simHash(text: string): string {
  const words = text.slice(0, 8192).split(/[^A-Za-z0-9_]+/).filter((word) => word !== '');
  const counts = new Int32Array(64);
  if (words.length === 0) return '0'.repeat(16);
  const grams = words.length < 3 ? [words.join(' ')] : words.slice(2).map((word, i) => `${words[i]} ${words[i + 1]} ${word}`);
  for (const gram of grams) {
    const high = fnv1a(gram, 0x811c9dc5);
    const low = fnv1a(gram, 0x01000193 ^ 0x9e3779b9);
    for (let bit = 0; bit < 32; bit++) {
      counts[bit] = (counts[bit] as number) + ((high >>> bit) & 1 ? 1 : -1);
      counts[bit + 32] = (counts[bit + 32] as number) + ((low >>> bit) & 1 ? 1 : -1);
    }
  }
  let high = 0;
  let low = 0;
  for (let bit = 0; bit < 32; bit++) {
    if ((counts[bit] as number) > 0) high |= 1 << bit;
    if ((counts[bit + 32] as number) > 0) low |= 1 << bit;
  }
  return `${(high >>> 0).toString(16).padStart(8, '0')}${(low >>> 0).toString(16).padStart(8, '0')}`;
}

function fnv1a(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

function hammingDistance(a: string, b: string): number {
  let distance = 0;
  for (let i = 0; i < 16; i += 8) {
    let x = (Number.parseInt(a.slice(i, i + 8), 16) ^ Number.parseInt(b.slice(i, i + 8), 16)) >>> 0;
    while (x !== 0) {
      x &= x - 1;
      distance++;
    }
  }
  return distance;
}
