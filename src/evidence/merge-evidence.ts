import { addFailure, createTally, finishTally, type EvidenceReason, type ReportEvidence } from './report-evidence.js';
import type { TestEvidence } from '../core/test-evidence.js';

/**
 * Folds several reports into one: counts add up, failed names are kept once
 * each, and the result passes only when every part passed. The first
 * `reason` wins; an empty list is "no tests ran".
 *
 * @example
 * mergeEvidence([await readJUnitXml(unit), await readJUnitXml(integration)]);
 */
export function mergeEvidence(list: readonly TestEvidence[]): ReportEvidence {
  const tally = createTally();
  const seen = new Set<string>();
  let duration = 0;
  let sawDuration = false;
  let someFailedWithoutName = false;
  let reason: EvidenceReason | undefined;
  let detail: string | undefined;
  for (const evidence of list) {
    tally.ran += evidence.ran;
    tally.skipped += evidence.skipped ?? 0;
    const messages = new Map((evidence.failures ?? []).map((failure) => [failure.name, failure.message]));
    for (const name of evidence.failed) addFailure(tally, name, messages.get(name) ?? '', seen);
    if (evidence.durationMs !== undefined) {
      duration += evidence.durationMs;
      sawDuration = true;
    }
    const part = evidence as Partial<ReportEvidence>;
    if (reason === undefined && part.reason !== undefined) {
      reason = part.reason;
      if (part.detail !== undefined) detail = part.detail;
    }
    if (!evidence.passed && evidence.failed.length === 0 && evidence.ran > 0) someFailedWithoutName = true;
  }
  if (sawDuration) tally.durationMs = duration;
  if (reason !== undefined) {
    tally.reason = reason;
    if (detail !== undefined) tally.detail = detail;
  } else if (someFailedWithoutName) {
    tally.reason = 'incomplete';
    tally.detail = 'a merged report did not pass although it names no failed test';
  }
  return finishTally(tally);
}
