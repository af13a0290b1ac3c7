import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { toOutcomeRecord, type OutcomeRecord, type OutcomeRecordFields } from '../core/outcome-record.js';
import type { StopOutcome } from '../core/stop-outcome.js';

/** What {@link appendOutcomeRecord} adds to the outcome; `at` defaults to now. */
export type AppendOutcomeFields = Partial<OutcomeRecordFields>;

/**
 * Appends one line for a finished run to an outcomes file (JSON Lines, the
 * format `stopwise report` reads), creating the file and its folder when
 * missing. The line is written with one append call, so runs that end at the
 * same time in different processes do not interleave on a local file system.
 * Returns the record written; an I/O failure rejects.
 *
 * @example
 * const outcome = await runAgentLoop({ limits, turn, verify });
 * await appendOutcomeRecord('outcomes.jsonl', outcome, { taskType: 'bugfix' });
 */
export async function appendOutcomeRecord(file: string, outcome: StopOutcome, fields: AppendOutcomeFields = {}): Promise<OutcomeRecord> {
  const record = toOutcomeRecord(outcome, { ...fields, at: fields.at ?? new Date() });
  const path = resolve(file);
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, `${JSON.stringify(record)}\n`, 'utf8');
  return record;
}
