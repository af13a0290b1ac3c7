import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EvaluatedRun } from '../../src/core/evaluated-run.js';
import type { StopExit } from '../../src/core/policy/stop-decision.js';
import { suggestLimits } from '../../src/core/suggest-limits.js';

const run = (exit: StopExit, steps: number, wallClockMs = 0, cost = 0, taskType = 'research'): EvaluatedRun => ({
  outcome: { exit, steps, usage: { wallClockMs, cost } },
  taskType,
});

describe('suggestLimits', () => {
  it('puts the ceiling at the quantile times the headroom, from successful runs only', () => {
    // 20 successes: 19 at most 14 steps, the longest 19; plus stuck runs that must not count.
    const steps = [5, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 14, 19];
    const runs = [
      ...steps.map((s, i) => run('success', s, 1_000 * s, 0.01 * (i + 1))),
      run('limit', 50, 999_999, 9),
      run('failed', 80, 999_999, 9),
    ];
    const suggestion = suggestLimits(runs).research!;
    expect(suggestion.limits.maxSteps).toBe(Math.ceil(14 * 1.25)); // 95% of 20 = 19th value = 14
    expect(suggestion.limits.maxWallClockMs).toBe(17_500);
    expect(suggestion.limits.maxCost).toBeCloseTo(0.19 * 1.25, 12);
    expect(suggestion).toMatchObject({ basedOn: { maxSteps: 20, maxWallClockMs: 20, maxCost: 20 }, successes: 20, quantile: 0.95, headroom: 1.25 });
    expect(suggestLimits(runs, { quantile: 1, headroom: 1 }).research!.limits.maxSteps).toBe(19);
    expect(suggestLimits(runs, { quantile: 0.5, headroom: 2 }).research!.limits.maxSteps).toBe(20);
  });

  it('leaves out a figure with no basis instead of suggesting 0', () => {
    const suggestion = suggestLimits([run('success', 3), run('success', 4, 2_000), run('gave_up', 9, 1, 1, 'ops')], { minRuns: 1 });
    expect(suggestion.research).toMatchObject({ limits: { maxSteps: 5, maxWallClockMs: 2_500 }, basedOn: { maxSteps: 2, maxWallClockMs: 1, maxCost: 0 } });
    expect(suggestion.research!.limits).not.toHaveProperty('maxCost');
    expect(suggestion.ops).toEqual({ limits: {}, basedOn: { maxSteps: 0, maxWallClockMs: 0, maxCost: 0 }, successes: 0, quantile: 0.95, headroom: 1.25, minRuns: 1 });
  });

  it('suggests nothing from fewer successes than the quantile needs, and says how many there were', () => {
    const one = suggestLimits([run('success', 4, 5)]).research!;
    expect(one).toEqual({ limits: {}, basedOn: { maxSteps: 1, maxWallClockMs: 1, maxCost: 0 }, successes: 1, quantile: 0.95, headroom: 1.25, minRuns: 20 });
    const nineteen = Array.from({ length: 19 }, (_, index) => run('success', index + 1));
    expect(suggestLimits(nineteen).research!.limits).toEqual({});
    expect(suggestLimits([...nineteen, run('success', 20)]).research!.limits.maxSteps).toBe(Math.ceil(19 * 1.25));
    // The fewest runs follow the quantile: 10 at 0.9, 1 at 1.
    expect(suggestLimits(nineteen.slice(0, 10), { quantile: 0.9 }).research!.minRuns).toBe(10);
    expect(suggestLimits(nineteen.slice(0, 10), { quantile: 0.9 }).research!.limits.maxSteps).toBe(Math.ceil(9 * 1.25));
    expect(suggestLimits([run('success', 4)], { quantile: 1 }).research!.limits.maxSteps).toBe(5);
    expect(() => suggestLimits([], { minRuns: 0 })).toThrow(/minRuns/);
  });

  it('rejects a bad quantile, headroom or usage', () => {
    expect(() => suggestLimits([], { quantile: 0 })).toThrow(RangeError);
    expect(() => suggestLimits([], { quantile: 1.1 })).toThrow(/quantile/);
    expect(() => suggestLimits([], { headroom: 0.8 })).toThrow(/headroom/);
    expect(() => suggestLimits([run('success', 3, Number.NaN)])).toThrow(/wallClockMs/);
    expect(() => suggestLimits([{ outcome: { exit: 'success', steps: 3 } } as never])).toThrow(
      /runs\[0\]\.outcome\.usage must be an object/,
    );
    expect(() => suggestLimits([run('success', 3, 10), { outcome: { exit: 'success', steps: -1, usage: { wallClockMs: 1, cost: 0 } } }])).toThrow(
      /runs\[1\]\.outcome\.steps/,
    );
  });

  it('never suggests a ceiling below the quantile of successful runs (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 60 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.double({ min: 1, max: 3, noNaN: true }),
        (steps, quantile, headroom) => {
          const limits = suggestLimits(steps.map((s) => run('success', s)), { quantile, headroom, minRuns: 1 }).research!.limits;
          const covered = steps.filter((s) => s <= limits.maxSteps!).length;
          expect(covered / steps.length).toBeGreaterThanOrEqual(quantile - 1e-9);
        },
      ),
    );
  });
});
