import { describeValue } from '../core/describe-value.js';
import { assertStallStep, type StallStep } from '../core/stall-detection/stall-step.js';
import { forEachJsonLine, lineError, LineFieldError, readObject, type LineError } from '../input/line-fields.js';
import type { StallRun } from './calibrate-stall-detector.js';

/** The result of {@link parseStallRuns}: the runs and the 1-based line each came from, or the first problem. */
export type StallRunsResult =
  | { readonly ok: true; readonly runs: readonly StallRun[]; readonly lines: readonly number[] }
  | { readonly ok: false; readonly error: LineError };

/**
 * Reads labelled runs from JSON Lines text, one run a line:
 * `{ "steps": [StallStep, ...], "label": "wasted" | "success" }`. Blank lines
 * are skipped and other top-level fields (an `id`, say) ignored; a step with a
 * field a `StallStep` does not have is refused, so that a misspelt `exit_code`
 * does not silently change what the detector sees. Never throws on bad input:
 * the result names the line and the field that were wrong.
 *
 * @example
 * const read = parseStallRuns('{"steps":[{"tool":"bash","input":"ls","output":"a.ts"}],"label":"success"}\n', 'runs.jsonl');
 * if (read.ok) read.runs[0]?.label; // 'success'
 */
export function parseStallRuns(text: string, source = '<input>'): StallRunsResult {
  const runs: StallRun[] = [];
  const lines: number[] = [];
  const error = forEachJsonLine(text, source, (value, line) => {
    runs.push(readRun(value));
    lines.push(line);
  });
  if (error !== undefined) return { ok: false, error };
  if (runs.length === 0) return { ok: false, error: lineError(source, undefined, undefined, 'the file holds no runs') };
  return { ok: true, runs, lines };
}

function readRun(value: unknown): StallRun {
  const record = readObject(value, undefined);
  if (!('label' in record)) throw new LineFieldError('is missing; expected "wasted" or "success"', 'label');
  if (record.label !== 'wasted' && record.label !== 'success') {
    throw new LineFieldError(`must be "wasted" or "success", got ${describeValue(record.label)}`, 'label');
  }
  if (!('steps' in record)) throw new LineFieldError('is missing; expected an array of steps', 'steps');
  if (!Array.isArray(record.steps)) throw new LineFieldError(`must be an array of steps, got ${describeValue(record.steps)}`, 'steps');
  const steps = record.steps.map((step: unknown, index): StallStep => {
    try {
      assertStallStep(step, `steps[${index}]`);
    } catch (error) {
      throw new LineFieldError((error as Error).message);
    }
    return step;
  });
  return { steps, label: record.label };
}
