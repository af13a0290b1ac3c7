import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedStopPolicy } from '../../src/core/policy/seed-stop-policy.js';
import { toCompletionAction } from '../../src/core/policy/to-completion-action.js';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import { replayRun } from '../../src/replay/replay-run.js';
import { replayRunWithPolicy, summarizePolicyReplays } from '../../src/replay/replay-run-with-policy.js';
import { parseRunTrace, type RunTrace } from '../../src/replay/run-trace.js';

const folder = join(import.meta.dirname, '../../examples/traces');
const traces: RunTrace[] = readdirSync(folder)
  .filter((name) => name.endsWith('.jsonl'))
  .map((name) => {
    const parsed = parseRunTrace(readFileSync(join(folder, name), 'utf8'), name);
    if (!parsed.ok) throw new Error(name);
    return parsed.trace;
  });

describe('replayRunWithPolicy', () => {
  it('replays the seed preset as a document exactly as replayRun replays its numbers', () => {
    for (const numbers of [createStopPolicy({}), createStopPolicy({ doneThreshold: 0.5, midBandLow: 0.2, maxSteps: 3, stallRounds: 2 })]) {
      const document = seedStopPolicy(numbers);
      for (const trace of traces) {
        const before = replayRun(trace, numbers);
        const after = replayRunWithPolicy(trace, document);
        expect(after.steps.map((step) => toCompletionAction(step.decision, numbers))).toEqual(before.steps.map((step) => step.action));
        expect(after.endedBy).toBe(before.endedBy);
      }
    }
  });

  it('summarises how the runs ended per outcome and reason', () => {
    const results = traces.map((trace) => replayRunWithPolicy(trace, seedStopPolicy()));
    const summary = summarizePolicyReplays(results);
    expect(summary.runs).toBe(traces.length);
    expect(summary.byOutcome.reduce((sum, entry) => sum + entry.count, 0)).toBe(traces.length);
    expect(summary.unfinished).toBe(results.filter((result) => result.final.kind !== 'stop').length);
  });
});
