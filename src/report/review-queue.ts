import { DEFAULT_TASK_TYPE } from '../core/evaluated-run.js';
import type { ReportedRun } from './reported-run.js';

/** A run a person should look at: a give-up with what it tried, or a hand-off with its question. */
export interface ReviewItem {
  /** When the run ended, ISO 8601 UTC. */
  readonly at: string;
  /** The line of the outcomes file it came from. */
  readonly line: number;
  readonly taskType: string;
  readonly exit: 'gave_up' | 'need_help';
  /** The give-up's note, or the hand-off's question. */
  readonly note: string;
  readonly steps: number;
  /** For a hand-off: how long it waited for an answer (0 when nobody could be asked). */
  readonly waitedMs?: number;
  /** Whether the task was impossible on purpose (a give-up was then right). */
  readonly impossible?: boolean;
}

/**
 * The give-ups and hand-offs, newest first (ties: the later line first).
 *
 * @example
 * reviewQueue(runs)[0]; // { at: '2026-03-09T17:04:00.000Z', exit: 'need_help', note: 'Which currency?', ... }
 */
export function reviewQueue(runs: readonly ReportedRun[]): ReviewItem[] {
  const items: { item: ReviewItem; at: number }[] = [];
  for (const run of runs) {
    const { exit } = run.outcome;
    if (exit !== 'gave_up' && exit !== 'need_help') continue;
    const item: ReviewItem = {
      at: new Date(run.at).toISOString(),
      line: run.line,
      taskType: run.taskType ?? DEFAULT_TASK_TYPE,
      exit,
      note: run.outcome.note ?? '',
      steps: run.outcome.steps,
      ...(exit === 'need_help' ? { waitedMs: run.outcome.waitedMs ?? 0 } : {}),
      ...(run.impossible === undefined ? {} : { impossible: run.impossible }),
    };
    items.push({ item, at: run.at });
  }
  items.sort((a, b) => b.at - a.at || b.item.line - a.item.line);
  return items.map(({ item }) => item);
}
