import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentLoopState } from '../../src/core/agent-loop-state.js';
import { decideCompletionAction } from '../../src/core/decide-completion-action.js';
import { fingerprintProgress } from '../../src/core/fingerprint.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY, seedStopPolicy } from '../../src/core/policy/seed-stop-policy.js';
import { toCompletionAction } from '../../src/core/policy/to-completion-action.js';
import { appendFingerprint } from '../../src/core/stall.js';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import { outcomeOf, replayRun, summarizeReplays } from '../../src/replay/replay-run.js';
import { parseRunTrace, type RunTrace } from '../../src/replay/run-trace.js';

const folder = join(import.meta.dirname, '../../examples/traces');

function load(name: string): RunTrace {
  const result = parseRunTrace(readFileSync(join(folder, name), 'utf8'), name);
  if (!result.ok) throw new Error(result.error.message);
  return result.trace;
}

const traces = readdirSync(folder)
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
  .map(load);

describe('replayRun on the bundled example runs', () => {
  const expected: Record<string, [string, string, number, 'decision' | 'end_of_recording']> = {
    '01-done-after-retries.jsonl': ['stop success', 'tests_and_criteria_passed', 3, 'decision'],
    '02-tests-fail-model-says-done.jsonl': ['stop need_help', 'evidence_contradicts_model', 1, 'decision'],
    '03-no-tests-ran.jsonl': ['retry', 'no_tests_ran', 3, 'end_of_recording'],
    '04-mid-band-then-done.jsonl': ['stop success', 'tests_and_criteria_passed', 2, 'decision'],
    '05-criteria-low.jsonl': ['stop need_help', 'criteria_low', 1, 'decision'],
    '06-stalled.jsonl': ['stop need_help', 'stalled', 4, 'decision'],
    '07-hard-cap.jsonl': ['stop limit', 'hard_cap', 20, 'decision'],
  };

  it('covers one outcome per file', () => {
    expect(readdirSync(folder).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('%s ends in %j', (name, [outcome, reason, step, endedBy]) => {
    const result = replayRun(load(name));
    expect(outcomeOf(result.final)).toBe(outcome);
    expect(result.final.reason).toBe(reason);
    expect(result.steps.at(-1)?.step).toBe(step);
    expect(result.endedBy).toBe(endedBy);
  });

  it('stops where the policy stops and ignores the rest of the recording, keeping the header', () => {
    const result = replayRun(load('06-stalled.jsonl'));
    expect(result.stepsRecorded).toBe(5);
    expect(result.steps).toHaveLength(4);
    const first = replayRun(load('01-done-after-retries.jsonl'));
    expect(first).toMatchObject({ source: '01-done-after-retries.jsonl', taskType: 'feature', task: expect.stringMatching(/^Add rate limiting/) });
    expect(first.steps[0]).toMatchObject({ step: 1, tests: { passed: false, failed: [], ran: 0 }, lowestProbability: 0.41, lowestCriterion: 'acceptanceCovered' });
  });

  it('replays under another policy document', () => {
    const strict = seedStopPolicy(createStopPolicy({ doneThreshold: 0.9, midBandLow: 0.5, maxSteps: 5 }));
    expect(replayRun(load('01-done-after-retries.jsonl'), strict).final.reason).toBe('criteria_mid_band');
    expect(replayRun(load('07-hard-cap.jsonl'), strict).final).toMatchObject({ reason: 'hard_cap', values: { step: 5 } });
    const byTaskType = parseStopPolicy({
      version: 2,
      rules: [{ id: 'features', when: { taskType: 'feature' }, then: { kind: 'stop', exit: 'need_help', reason: 'features_go_to_review' } }, ...SEED_STOP_POLICY.rules],
    });
    expect(replayRun(load('01-done-after-retries.jsonl'), byTaskType)).toMatchObject({ endedBy: 'decision', final: { rule: 'features' }, steps: [{ step: 1 }] });
  });

  it('replays the seed preset as the action table decides each recorded step', () => {
    for (const numbers of [createStopPolicy({}), createStopPolicy({ doneThreshold: 0.5, midBandLow: 0.2, maxSteps: 3, stallRounds: 2 })]) {
      for (const trace of traces) {
        const replayed = replayRun(trace, seedStopPolicy(numbers));
        let loop: AgentLoopState = { step: 0, recentFingerprints: [] };
        replayed.steps.forEach((step, i) => {
          const recorded = trace.steps[i];
          if (recorded === undefined) throw new Error('a replayed step that was not recorded');
          loop = { step: recorded.step, recentFingerprints: appendFingerprint(loop.recentFingerprints, fingerprintProgress(recorded.tests, recorded.output), numbers.stallRounds) };
          expect(toCompletionAction(step.decision, numbers)).toEqual(decideCompletionAction(recorded.probabilities, recorded.tests, loop, numbers));
        });
      }
    }
  });

  it('summarizes how the runs ended, per outcome and reason', () => {
    const summary = summarizeReplays(traces.map((trace) => replayRun(trace)));
    expect(summary).toEqual({
      runs: 7,
      unfinished: 1,
      byOutcome: [
        { outcome: 'retry', reason: 'no_tests_ran', count: 1 },
        { outcome: 'stop limit', reason: 'hard_cap', count: 1 },
        { outcome: 'stop need_help', reason: 'criteria_low', count: 1 },
        { outcome: 'stop need_help', reason: 'evidence_contradicts_model', count: 1 },
        { outcome: 'stop need_help', reason: 'stalled', count: 1 },
        { outcome: 'stop success', reason: 'tests_and_criteria_passed', count: 2 },
      ],
    });
    expect(summarizeReplays([])).toEqual({ runs: 0, unfinished: 0, byOutcome: [] });
  });
});
