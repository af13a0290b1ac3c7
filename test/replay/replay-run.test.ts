import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import { replayRun, summarizeReplays } from '../../src/replay/replay-run.js';
import { parseRunTrace, type RunTrace } from '../../src/replay/run-trace.js';

const folder = join(import.meta.dirname, '../../examples/traces');

function load(name: string): RunTrace {
  const result = parseRunTrace(readFileSync(join(folder, name), 'utf8'), name);
  if (!result.ok) throw new Error(result.error.message);
  return result.trace;
}

describe('replayRun on the bundled example runs', () => {
  const expected: Record<string, [string, string, number, 'decision' | 'end_of_recording']> = {
    '01-done-after-retries.jsonl': ['stop_done', 'tests_and_criteria_passed', 3, 'decision'],
    '02-tests-fail-model-says-done.jsonl': ['handoff_human', 'evidence_contradicts_model', 1, 'decision'],
    '03-no-tests-ran.jsonl': ['retry', 'no_tests_ran', 3, 'end_of_recording'],
    '04-mid-band-then-done.jsonl': ['stop_done', 'tests_and_criteria_passed', 2, 'decision'],
    '05-criteria-low.jsonl': ['handoff_human', 'criteria_low', 1, 'decision'],
    '06-stalled.jsonl': ['handoff_human', 'stalled', 4, 'decision'],
    '07-hard-cap.jsonl': ['handoff_human', 'hard_cap', 20, 'decision'],
  };

  it('covers one outcome per file', () => {
    expect(readdirSync(folder).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('%s ends in %j', (name, [action, reason, step, endedBy]) => {
    const result = replayRun(load(name));
    expect(result.final).toMatchObject({ action, reason });
    expect(result.steps.at(-1)?.step).toBe(step);
    expect(result.endedBy).toBe(endedBy);
  });

  it('stops where the policy stops and ignores the rest of the recording', () => {
    const result = replayRun(load('06-stalled.jsonl'));
    expect(result.stepsRecorded).toBe(5);
    expect(result.steps).toHaveLength(4);
  });

  it('replays under another policy', () => {
    const strict = createStopPolicy({ doneThreshold: 0.9, midBandLow: 0.5, maxSteps: 5 });
    expect(replayRun(load('01-done-after-retries.jsonl'), strict).final.reason).toBe('criteria_mid_band');
    expect(replayRun(load('07-hard-cap.jsonl'), strict).final).toMatchObject({ reason: 'hard_cap', values: { step: 5 } });
  });

  it('summarizes how the runs ended', () => {
    const results = Object.keys(expected).map((name) => replayRun(load(name)));
    const summary = summarizeReplays(results);
    expect(summary.runs).toBe(7);
    expect(summary.byAction).toEqual({ stop_done: 2, retry: 1, handoff_human: 4 });
    expect(summary.unfinished).toBe(1);
    expect(summary.byReason).toEqual([
      { action: 'stop_done', reason: 'tests_and_criteria_passed', count: 2 },
      { action: 'retry', reason: 'no_tests_ran', count: 1 },
      { action: 'handoff_human', reason: 'criteria_low', count: 1 },
      { action: 'handoff_human', reason: 'evidence_contradicts_model', count: 1 },
      { action: 'handoff_human', reason: 'hard_cap', count: 1 },
      { action: 'handoff_human', reason: 'stalled', count: 1 },
    ]);
  });
});
