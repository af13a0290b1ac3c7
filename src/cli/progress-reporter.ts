import type { ScoreProgress } from '../calibrate/score-cases.js';

/** Where progress is written: a terminal gets a redrawn bar, anything else plain lines. */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Shows scoring progress and closes the display when the run ends. */
export interface ProgressReporter {
  update(progress: ScoreProgress): void;
  finish(): void;
}

/**
 * A progress display for live scoring: on a terminal a bar redrawn in place
 * (`\r`), elsewhere one plain line every tenth of the way and at the end, so
 * logs stay readable.
 *
 * @example
 * const progress = createProgressReporter(process.stderr, 'scoring');
 * await scoreCases(cases, client, { onProgress: progress.update });
 * progress.finish();
 */
export function createProgressReporter(stream: ProgressStream, label = 'scoring'): ProgressReporter {
  let last: ScoreProgress | undefined;
  let lastLineAt = -1;
  const describe = (p: ScoreProgress): string =>
    `${p.completed}/${p.total} (${p.fromCache} from cache, ${p.failed} failed)`;
  return {
    update(progress) {
      last = progress;
      if (stream.isTTY === true) {
        const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 50));
        const filled = progress.total === 0 ? width : Math.round((progress.completed / progress.total) * width);
        stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${describe(progress)}`);
        return;
      }
      const step = Math.max(1, Math.ceil(progress.total / 10));
      if (progress.completed === progress.total || progress.completed - lastLineAt >= step || lastLineAt < 0) {
        lastLineAt = progress.completed;
        stream.write(`${label}: ${describe(progress)}\n`);
      }
    },
    finish() {
      if (stream.isTTY === true && last !== undefined) stream.write('\n');
      else if (last !== undefined && lastLineAt !== last.completed) stream.write(`${label}: ${describe(last)}\n`);
    },
  };
}
