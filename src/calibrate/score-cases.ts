import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { doneCriteria } from '../decision-model/boolean-question.js';
import type { DecisionModelClient, DecisionModelQuestions } from '../decision-model/decision-model-client.js';
import { isDecisionModelError } from '../decision-model/decision-model-error.js';
import { isScoredCase, type LabelledCase } from './labelled-case.js';
import { setOwnProperty } from '../core/own-property.js';
import { canonicalJson } from '../decision-model/canonical-json.js';
import { validateAnswers } from '../decision-model/validate-answers.js';

/** A decision model's answers to one case, as kept in a {@link ScoreCache}. */
export interface CachedScore {
  readonly probabilities: Readonly<Record<string, number>>;
  readonly model: string;
}

/** Where answers are kept so that a resumed run does not ask (and pay) twice. */
export interface ScoreCache {
  get(key: string): CachedScore | undefined | Promise<CachedScore | undefined>;
  set(key: string, score: CachedScore): void | Promise<void>;
}

/** How far a scoring run has come. */
export interface ScoreProgress {
  /** Cases that need a score (those without probabilities). */
  readonly total: number;
  /** Of those, cases finished: scored, taken from the cache, or failed. */
  readonly completed: number;
  readonly fromCache: number;
  readonly failed: number;
}

/** A case the decision model could not score. */
export interface ScoreFailure {
  /** Index of the case in the input. */
  readonly index: number;
  readonly id?: string;
  readonly message: string;
  /** The `DecisionModelError` kind, when the client threw one. */
  readonly kind?: string;
}

/** Options of {@link scoreCases}. */
export interface ScoreCasesOptions {
  /** The questions asked per case (default `doneCriteria`). */
  readonly questions?: DecisionModelQuestions;
  /** Requests in flight at once (default 4). */
  readonly concurrency?: number;
  readonly cache?: ScoreCache;
  /**
   * Folded into every cache key: name the model and settings here so that
   * answers from another model are not reused.
   */
  readonly cacheNamespace?: string;
  readonly onProgress?: (progress: ScoreProgress) => void;
  /** Stops taking new cases and aborts the requests in flight; finished answers stay cached. */
  readonly signal?: AbortSignal;
  /**
   * Called after each failed case with the number of failures since the last
   * answer; returning true stops the run as the signal would, so that a model
   * that cannot answer does not fail every remaining case one by one.
   * The CLI stops after five failures in a row.
   */
  readonly stopWhen?: (failure: ScoreFailure, failuresInRow: number) => boolean;
}

/** The result of {@link scoreCases}: the cases in input order, the scored ones now carrying probabilities. */
export interface ScoreCasesResult {
  readonly cases: readonly LabelledCase[];
  /** Cases answered by the client in this run. */
  readonly scored: number;
  readonly fromCache: number;
  /** Cases that already carried probabilities and were left as they were. */
  readonly alreadyScored: number;
  readonly failures: readonly ScoreFailure[];
  /** True when the signal stopped the run before every case was scored. */
  readonly aborted: boolean;
  /** The failure for which `stopWhen` stopped the run, when it did. */
  readonly stoppedBy?: ScoreFailure;
}

/**
 * Scores the cases that carry no probabilities through any decision-model
 * client: each case's task, acceptance criteria, output and tests go to the
 * model as the state, with `questions`. At most `concurrency` requests are in
 * flight; each answer is written to `cache` as soon as it arrives, and a case
 * already in the cache is not asked again, so an interrupted run resumes
 * without paying twice. A failed request leaves its case unscored and is
 * reported; it is never turned into a probability.
 *
 * @example
 * const { cases, failures } = await scoreCases(labelled, client, { cache, concurrency: 4, onProgress: console.log });
 */
export async function scoreCases(
  cases: readonly LabelledCase[],
  client: DecisionModelClient,
  options: ScoreCasesOptions = {},
): Promise<ScoreCasesResult> {
  const questions = options.questions ?? doneCriteria;
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${String(concurrency)}`);
  }
  const names = Object.keys(questions);
  if (names.length === 0) throw new RangeError('scoreCases needs at least one question');
  const namespace = options.cacheNamespace ?? '';
  const out: LabelledCase[] = [...cases];
  const pending = cases.flatMap((labelled, index) => (isScoredCase(labelled) ? [] : [index]));
  const failures: ScoreFailure[] = [];
  // Aborted by the caller's signal or by `stopWhen`; requests see both.
  const stop = new AbortController();
  const signal = options.signal === undefined ? stop.signal : AbortSignal.any([options.signal, stop.signal]);
  // Every request in flight listens to it (a few listeners each); no leak, so no warning at high concurrency.
  setMaxListeners(0, signal);
  let scored = 0;
  let fromCache = 0;
  let completed = 0;
  let failuresInRow = 0;
  let stoppedBy: ScoreFailure | undefined;
  const report = (): void =>
    options.onProgress?.({ total: pending.length, completed, fromCache, failed: failures.length });

  /** Scores one case; false when the run was stopped while it was asked. */
  const scoreOne = async (index: number): Promise<boolean> => {
    const labelled = cases[index] as LabelledCase;
    const state = caseState(labelled);
    const key = scoreCacheKey(namespace, state, questions);
    const cached = await options.cache?.get(key);
    if (cached !== undefined && names.every((name) => isProbability(cached.probabilities[name]))) {
      out[index] = withProbabilities(labelled, cached.probabilities, names);
      fromCache++;
      return true;
    }
    try {
      const { probabilities, model } = validateAnswers(await client.evaluate({ state, questions }, { signal }), questions);
      await options.cache?.set(key, { probabilities, model });
      out[index] = withProbabilities(labelled, probabilities, names);
      scored++;
      failuresInRow = 0;
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      const failure: ScoreFailure = {
        index,
        ...(labelled.id === undefined ? {} : { id: labelled.id }),
        message: error instanceof Error ? error.message : String(error),
        ...(isDecisionModelError(error) ? { kind: error.kind } : {}),
      };
      failures.push(failure);
      failuresInRow++;
      if (options.stopWhen?.(failure, failuresInRow) === true) {
        stoppedBy = failure;
        stop.abort(new Error(`scoring stopped: ${failure.message}`));
      }
      return true;
    }
  };

  let next = 0;
  let unfinished = false;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (signal.aborted) {
        if (next < pending.length) unfinished = true;
        return;
      }
      const position = next++;
      if (position >= pending.length) return;
      if (!(await scoreOne(pending[position] as number))) {
        unfinished = true;
        return;
      }
      completed++;
      report();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
  failures.sort((a, b) => a.index - b.index);
  return {
    cases: out,
    scored,
    fromCache,
    alreadyScored: cases.length - pending.length,
    failures,
    aborted: unfinished && options.signal?.aborted === true,
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
  };
}

/**
 * The usual `stopWhen` rule of {@link scoreCases}: stop at the first `auth`
 * or `configuration` error (every later request would repeat it), or after
 * `maxFailuresInRow` failures with no answer between them.
 *
 * @example
 * await scoreCases(cases, client, { stopWhen: stopOnRepeatedFailures(5) });
 */
export function stopOnRepeatedFailures(maxFailuresInRow = 5): (failure: ScoreFailure, failuresInRow: number) => boolean {
  if (!Number.isInteger(maxFailuresInRow) || maxFailuresInRow < 1) {
    throw new RangeError(`maxFailuresInRow must be a positive integer, got ${String(maxFailuresInRow)}`);
  }
  return (failure, failuresInRow) =>
    failure.kind === 'auth' || failure.kind === 'configuration' || failuresInRow >= maxFailuresInRow;
}

/** What the decision model is shown about a case. */
export function caseState(labelled: LabelledCase): Record<string, unknown> {
  return {
    ...(labelled.task === undefined ? {} : { task: labelled.task }),
    ...(labelled.acceptance === undefined ? {} : { acceptance: labelled.acceptance }),
    ...(labelled.output === undefined ? {} : { output: labelled.output }),
    ...(labelled.tests === undefined ? {} : { tests: labelled.tests }),
  };
}

/** The cache key of one request: a SHA-256 of the namespace, the state and the questions, in a stable JSON form. */
export function scoreCacheKey(namespace: string, state: unknown, questions: DecisionModelQuestions): string {
  return createHash('sha256').update(canonicalJson([namespace, state, questions])).digest('hex');
}

function withProbabilities(
  labelled: LabelledCase,
  probabilities: Readonly<Record<string, number>>,
  names: readonly string[],
): LabelledCase {
  const picked: Record<string, number> = {};
  for (const name of names) setOwnProperty(picked, name, probabilities[name] as number);
  return { ...labelled, probabilities: picked };
}

function isProbability(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1;
}
