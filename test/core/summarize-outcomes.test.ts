import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../src/core/budget.js';
import type { EvaluatedRun } from '../../src/core/evaluated-run.js';
import type { StopExit } from '../../src/core/policy/stop-decision.js';
import { summarizeOutcomes } from '../../src/core/summarize-outcomes.js';

const outcome = (exit: StopExit) => ({ exit, steps: 4, usage: emptyUsage() });

describe('summarizeOutcomes', () => {
  const runs: EvaluatedRun[] = [
    { outcome: outcome('success'), taskType: 'research', independentCheck: true },
    { outcome: outcome('success'), taskType: 'research', independentCheck: false },
    { outcome: outcome('success'), taskType: 'research' },
    { outcome: outcome('gave_up'), taskType: 'research', impossible: true },
    { outcome: outcome('success'), taskType: 'research', impossible: true, independentCheck: false },
    { outcome: outcome('limit'), taskType: 'bugfix' },
    { outcome: outcome('failed'), taskType: 'bugfix' },
    { outcome: outcome('need_help') },
  ];

  it('gives per task type the runs, the share of each exit, true success and correct give-up', () => {
    const summary = summarizeOutcomes(runs);
    expect(Object.keys(summary)).toEqual(['research', 'bugfix', 'default']);
    expect(summary.research).toEqual({
      runs: 5,
      counts: { success: 4, limit: 0, gave_up: 1, need_help: 0, failed: 0 },
      shares: { success: 0.8, limit: 0, gave_up: 0.2, need_help: 0, failed: 0 },
      checkedSuccesses: 3,
      trueSuccessRate: 1 / 3,
      impossibleRuns: 2,
      correctGiveUpRate: 0.5,
    });
    expect(summary.bugfix).toMatchObject({ runs: 2, shares: { limit: 0.5, failed: 0.5 }, trueSuccessRate: null, correctGiveUpRate: null });
    expect(summary.default).toMatchObject({ runs: 1, shares: { need_help: 1 } });
  });

  it('shares of each task type add up to 1', () => {
    for (const entry of Object.values(summarizeOutcomes(runs))) {
      expect(Object.values(entry.shares).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
  });

  it('is empty for no runs, and keeps an odd task type as an own key', () => {
    expect(summarizeOutcomes([])).toEqual({});
    const summary = summarizeOutcomes([{ outcome: outcome('success'), taskType: '__proto__' }]);
    expect(Object.keys(summary)).toEqual(['__proto__']);
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
  });

  it('rejects a malformed run, naming its index and field', () => {
    expect(() => summarizeOutcomes([runs[0]!, { outcome: { ...outcome('success'), exit: 'done' as StopExit } }])).toThrow(/runs\[1\]\.outcome\.exit/);
    expect(() => summarizeOutcomes([{ outcome: outcome('success'), impossible: 'yes' as unknown as boolean }])).toThrow(/runs\[0\]\.impossible/);
    expect(() => summarizeOutcomes([null as unknown as EvaluatedRun])).toThrow(/runs\[0\]/);
    expect(() => summarizeOutcomes('runs' as unknown as EvaluatedRun[])).toThrow(/array/);
  });
});
