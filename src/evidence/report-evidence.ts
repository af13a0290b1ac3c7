import { cutText } from '../core/cut-text.js';
import type { TestEvidence, TestFailure } from '../core/test-evidence.js';

/**
 * Why a run did not pass although no test failed, or why it failed outside
 * any test. `timeout`: killed after `timeoutMs`; `failed_outside_tests`: the
 * command exited non-zero while the report shows no failing test (a crash, a
 * compile error); `spawn_failed`: the command could not start;
 * `report_unreadable`: the report was missing or could not be read;
 * `bailed_out`: a TAP `Bail out!`; `incomplete`: fewer tests than planned, or
 * a report that says the run did not succeed.
 */
export type EvidenceReason =
  | 'timeout'
  | 'failed_outside_tests'
  | 'spawn_failed'
  | 'report_unreadable'
  | 'bailed_out'
  | 'incomplete';

/**
 * What a report reader returns: a `TestEvidence` with the counts always
 * present. `ran` counts leaf test cases that ran (passed or failed), `skipped`
 * counts skipped and todo tests, `total = ran + skipped`. `passed` is true
 * only when at least one test ran, none failed and nothing else went wrong.
 */
export interface ReportEvidence extends TestEvidence {
  readonly skipped: number;
  readonly total: number;
  readonly failures: readonly TestFailure[];
  /** Set when the run did not pass for a reason other than failed tests. */
  readonly reason?: EvidenceReason;
  /** One sentence saying what `reason` means for this run. */
  readonly detail?: string;
}

/** The longest failure message kept, in UTF-16 code units (string length); longer ones are cut with an ellipsis. */
export const MAX_FAILURE_MESSAGE_LENGTH = 1000;

/** Counts gathered by a reader, before the invariants are applied. */
export interface TestTally {
  ran: number;
  skipped: number;
  readonly failures: TestFailure[];
  durationMs?: number;
  reason?: EvidenceReason;
  detail?: string;
}

/** An empty tally. */
export function createTally(): TestTally {
  return { ran: 0, skipped: 0, failures: [] };
}

/** Records one failed test; a name already recorded is kept once (the first message wins). */
export function addFailure(tally: TestTally, name: string, message: string, seen: Set<string>): void {
  if (seen.has(name)) return;
  const kept = detachString(name);
  seen.add(kept);
  tally.failures.push({ name: kept, message: detachString(trimMessage(message)) });
}

/**
 * A fresh copy of a string. A parser's strings are often slices of the chunk
 * they were read from; keeping one would keep the whole chunk alive, so a
 * long report with many failures would stay in memory.
 */
function detachString(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/**
 * Trims a failure message to {@link MAX_FAILURE_MESSAGE_LENGTH} UTF-16 code
 * units, the last one an ellipsis; the cut never splits a surrogate pair.
 */
export function trimMessage(message: string, max: number = MAX_FAILURE_MESSAGE_LENGTH): string {
  const trimmed = message.trim();
  if (trimmed.length <= max) return trimmed;
  return `${cutText(trimmed, max).slice(0, -1).trimEnd()}…`;
}

/**
 * Applies the invariants: never `passed: true` with failures or a reason,
 * never `passed: true` with nothing run, and a failed test always counts as run.
 */
export function finishTally(tally: TestTally): ReportEvidence {
  const failed = tally.failures.map((failure) => failure.name);
  const ran = Math.max(tally.ran, failed.length);
  const passed = ran > 0 && failed.length === 0 && tally.reason === undefined;
  return {
    passed,
    failed,
    ran,
    skipped: tally.skipped,
    total: ran + tally.skipped,
    failures: tally.failures.map((failure) => ({ ...failure })),
    ...(tally.durationMs === undefined || !Number.isFinite(tally.durationMs) ? {} : { durationMs: Math.max(0, tally.durationMs) }),
    ...(tally.reason === undefined ? {} : { reason: tally.reason }),
    ...(tally.detail === undefined ? {} : { detail: tally.detail }),
  };
}
