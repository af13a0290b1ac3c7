import { isScoredCase, type LabelledCase, type ScoredCase } from '../calibrate/labelled-case.js';
import { openScoreCacheFile, type ScoreCacheFile } from '../calibrate/score-cache-file.js';
import { scoreCases, stopOnRepeatedFailures, type ScoreFailure } from '../calibrate/score-cases.js';
import { createConfiguredClient, type ConfiguredClient, type DecisionModelConfig } from '../decision-model/create-configured-client.js';
import { isDecisionModelError } from '../decision-model/decision-model-error.js';
import type { CliIo } from './cli-io.js';
import { createProgressReporter } from './progress-reporter.js';
import { countNoun } from '../core/count-noun.js';

/** What `stopwise calibrate --live` was asked to do. */
export interface LiveScoringSettings {
  readonly config: DecisionModelConfig;
  readonly concurrency: number;
  /** The cache file as given (shown in messages) and resolved. */
  readonly cache: { readonly shown: string; readonly path: string };
}

/** How a live scoring run went, for the JSON output. */
export interface LiveScoringSummary {
  readonly client: ConfiguredClient['client'];
  readonly model: string;
  readonly cache: string;
  /** Cases answered by the model in this run. */
  readonly scored: number;
  readonly fromCache: number;
  /** Cases that already carried probabilities. */
  readonly alreadyScored: number;
}

/** Every case scored, or the exit code after the reason was printed. */
export type LiveScoringOutcome =
  | { readonly ok: true; readonly cases: readonly ScoredCase[]; readonly summary: LiveScoringSummary }
  | { readonly ok: false; readonly code: number };

/** Failed calls with no answer between them after which a run stops. */
export const MAX_FAILURES_IN_A_ROW = 5;
const LISTED_FAILURES = 20;
const SIGNAL_EXIT_CODES: Readonly<Record<'SIGINT' | 'SIGTERM', number>> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Scores the cases that carry no probabilities with the configured decision
 * model, through the score cache file, with a progress display on standard
 * error. SIGINT or SIGTERM stops the run and keeps every answer on disk; a
 * second signal quits at once. Anything short of every case scored prints
 * why (naming the lines of the cases that failed) and returns an exit code:
 * nothing is calibrated on part of the cases.
 */
export async function scoreCasesLive(
  source: string,
  cases: readonly LabelledCase[],
  lines: readonly number[],
  settings: LiveScoringSettings,
  io: CliIo,
): Promise<LiveScoringOutcome> {
  const say = (text: string): void => io.stderr(`stopwise calibrate: ${text}\n`);
  let client: ConfiguredClient;
  try {
    client = await createConfiguredClient(settings.config, {
      env: io.env ?? process.env,
      settingNames: { baseURL: '--base-url', model: '--model', apiKeyEnv: '--api-key-env' },
    });
  } catch (error) {
    if (!isDecisionModelError(error)) throw error;
    say(error.message);
    return { ok: false, code: 1 };
  }
  let cache: ScoreCacheFile;
  try {
    cache = await openScoreCacheFile(settings.cache.path);
  } catch (error) {
    say(`${settings.cache.shown}: the score cache could not be opened (${(error as Error).message})`);
    return { ok: false, code: 1 };
  }

  const unscored = cases.filter((labelled) => !isScoredCase(labelled)).length;
  say(
    `scoring ${unscored} case${unscored === 1 ? '' : 's'} with the ${client.client} model "${client.model}" at ${client.baseURL} ` +
      `(concurrency ${settings.concurrency}); answers cached in ${settings.cache.shown} (${cache.loaded} on disk` +
      `${cache.skippedLines === 0 ? '' : `, ${cache.skippedLines} unreadable line${cache.skippedLines === 1 ? '' : 's'} skipped`})`,
  );

  const interrupt = new AbortController();
  let received: 'SIGINT' | 'SIGTERM' | undefined;
  const onSignal = (signal: 'SIGINT' | 'SIGTERM'): void => {
    if (received !== undefined) process.exit(SIGNAL_EXIT_CODES[signal]);
    received = signal;
    interrupt.abort(new Error(`interrupted by ${signal}`));
  };
  const onInt = (): void => onSignal('SIGINT');
  const onTerm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  const progress = createProgressReporter(io.progress ?? { write: io.stderr }, 'scoring');
  let result: Awaited<ReturnType<typeof scoreCases>>;
  try {
    result = await scoreCases(cases, client, {
      concurrency: settings.concurrency,
      cache,
      cacheNamespace: `${client.client}:${client.model}`,
      onProgress: (update) => progress.update(update),
      signal: interrupt.signal,
      stopWhen: stopOnRepeatedFailures(MAX_FAILURES_IN_A_ROW),
    });
  } finally {
    progress.finish();
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
  try {
    await cache.flush();
  } catch (error) {
    say(`${settings.cache.shown}: answers could not be written (${(error as Error).message})`);
    return { ok: false, code: 1 };
  }

  const left = result.cases.filter((labelled) => !isScoredCase(labelled)).length;
  const answered = result.scored + result.fromCache;
  const kept = `the ${answered} answer${answered === 1 ? '' : 's'} so far ${answered === 1 ? 'is' : 'are'} kept in ${settings.cache.shown}`;
  if (received !== undefined) {
    say(`interrupted: ${left} of ${unscored} cases still unscored; ${kept}: run the same command again to resume`);
    return { ok: false, code: SIGNAL_EXIT_CODES[received] };
  }
  if (left > 0) {
    for (const line of describeFailures(source, result.failures, lines)) say(line);
    const stopped = result.stoppedBy;
    if (stopped !== undefined) {
      say(
        stopped.kind === 'auth' || stopped.kind === 'configuration'
          ? `stopped at the first ${stopped.kind} error: every request would fail the same way`
          : `stopped after ${MAX_FAILURES_IN_A_ROW} cases failed in a row`,
      );
    }
    say(
      `${left} of ${unscored} cases could not be scored (${result.failures.length} failed, ${left - result.failures.length} not tried); ` +
        `nothing was calibrated; ${kept}: run again to ask only for the rest`,
    );
    return { ok: false, code: 1 };
  }
  say(`scored ${countNoun(unscored, 'case')}: ${result.scored} asked, ${result.fromCache} from ${settings.cache.shown}`);
  return {
    ok: true,
    cases: result.cases as readonly ScoredCase[],
    summary: {
      client: client.client,
      model: client.model,
      cache: settings.cache.shown,
      scored: result.scored,
      fromCache: result.fromCache,
      alreadyScored: result.alreadyScored,
    },
  };
}

function describeFailures(source: string, failures: readonly ScoreFailure[], lines: readonly number[]): string[] {
  const out = failures
    .slice(0, LISTED_FAILURES)
    .map(
      (failure) =>
        `${source}:${lines[failure.index] ?? '?'}: ${failure.id === undefined ? '' : `case ${failure.id}: `}not scored: ${failure.message}`,
    );
  if (failures.length > LISTED_FAILURES) out.push(`... and ${failures.length - LISTED_FAILURES} more cases not scored`);
  return out;
}
