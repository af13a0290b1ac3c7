import { describe, expect, it } from 'vitest';
import { generateSimulatedRuns } from '../../bench/simulated-runs.js';
import { replayRun } from '../../src/replay/replay-run.js';

describe('generateSimulatedRuns', () => {
  const runs = generateSimulatedRuns({ seed: 20261130, runs: 1000 });

  it('is deterministic for a seed and differs across seeds', () => {
    expect(generateSimulatedRuns({ seed: 20261130, runs: 1000 })).toEqual(runs);
    expect(generateSimulatedRuns({ seed: 7, runs: 5 })).not.toEqual(runs.slice(0, 5));
  });

  it('has what the documentation promises', () => {
    expect(runs).toHaveLength(1000);
    for (const run of runs) {
      expect(run.steps.length).toBeGreaterThanOrEqual(3);
      expect(run.steps.length).toBeLessThanOrEqual(30);
      run.steps.forEach((step, index) => expect(step.step).toBe(index + 1));
      for (const step of run.steps) {
        for (const p of Object.values(step.probabilities)) {
          expect(p).toBeGreaterThanOrEqual(0);
          expect(p).toBeLessThanOrEqual(1);
        }
      }
    }
    const endings = new Map<string, number>();
    for (const run of runs) {
      const reason = replayRun(run).final.reason;
      endings.set(reason, (endings.get(reason) ?? 0) + 1);
    }
    for (const reason of ['hard_cap', 'stalled', 'tests_and_criteria_passed', 'evidence_contradicts_model', 'criteria_low']) {
      expect(endings.get(reason) ?? 0, reason).toBeGreaterThan(10);
    }
    const earlyNoTests = runs.filter((run) => run.steps[0]!.tests.ran === 0).length;
    const earlyFailing = runs.filter((run) => run.steps.some((step) => step.tests.ran > 0 && !step.tests.passed)).length;
    expect(earlyNoTests).toBeGreaterThan(300);
    expect(earlyFailing).toBeGreaterThan(500);
    const drifting = runs.filter((run) => {
      const first = Math.min(...Object.values(run.steps[0]!.probabilities));
      const last = Math.min(...Object.values(run.steps[run.steps.length - 1]!.probabilities));
      return last > first;
    }).length;
    expect(drifting).toBeGreaterThan(600);
  });
});
