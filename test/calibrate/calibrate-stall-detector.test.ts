import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { calibrateStallDetector, searchGrid, type StallRun } from '../../src/calibrate/calibrate-stall-detector.js';
import type { StallStep } from '../../src/core/stall-detection/stall-step.js';

const bash = (command: string, output: string, exitCode = 0): StallStep => ({ tool: 'bash', input: { command }, output, exitCode });
const work = (n: number, tag: string): StallStep[] => Array.from({ length: n }, (_, i) => bash(`step ${tag} ${i}`, `out ${i}`));

// Wasted runs end in a loop of one repeated failing call; successful runs repeat a call 3 times (a legitimate retry) and go on.
const wasted = (k: number): StallRun => ({ label: 'wasted', steps: [...work(5, `w${k}`), ...Array.from({ length: 12 }, () => bash('make', 'Error: boom', 2))] });
const success = (k: number): StallRun => ({
  label: 'success',
  steps: [...work(4, `s${k}`), ...Array.from({ length: 3 }, () => bash('flaky', 'Error: try again', 1)), ...work(6, `t${k}`)],
});

describe('calibrateStallDetector', () => {
  const runs = [...Array.from({ length: 30 }, (_, k) => wasted(k)), ...Array.from({ length: 120 }, (_, k) => success(k))];

  it('stops the most wasted steps while the bound on false alarms holds', () => {
    const { options, figures, certified } = calibrateStallDetector(runs, { maxFalseAlarm: 0.05 });
    expect(certified).toBe(true);
    expect(figures.falseAlarms).toBe(0);
    expect(figures.falseAlarmUpper).toBeLessThanOrEqual(0.05);
    expect(figures.wastedCaught).toBe(30);
    // A failing-call threshold of 3 would stop every successful run; the choice stays above it.
    expect(options.repeatedFailingCall === false || options.repeatedFailingCall.repeats > 3).toBe(true);
    expect(figures.patterns.reduce((n, p) => n + p.wastedRuns, 0)).toBe(30);
  });

  it('turns every pattern off when no options meet the bound', () => {
    const few = [wasted(0), success(0)];
    const { certified, options, figures } = calibrateStallDetector(few, { maxFalseAlarm: 0.01 });
    expect(certified).toBe(false);
    expect(options.repeatedResult).toBe(false);
    expect(figures.wastedCaught).toBe(0);
  });

  it('rejects a bound outside (0, 1)', () => {
    expect(() => calibrateStallDetector(runs, { maxFalseAlarm: 0 })).toThrow(RangeError);
  });
});

describe('searchGrid', () => {
  const NEVER = 0x7fffffff;
  /** Every combination scored, as the search's result must be: the most saved, then the fewest alarms, then the first. */
  function scoreEveryCombination(columns: Int32Array[][], lengths: Int32Array, wasted: boolean[], allowed: (alarms: number) => boolean): number[] | undefined {
    let best: { choice: number[]; saved: number; alarms: number } | undefined;
    const walk = (depth: number, choice: number[]): void => {
      if (depth === columns.length) {
        let saved = 0;
        let alarms = 0;
        lengths.forEach((length, i) => {
          const at = Math.min(...choice.map((v, d) => columns[d]![v]![i]!));
          if (at === NEVER) return;
          if (wasted[i]) saved += length - (at + 1);
          else if (at < length - 1) alarms++;
        });
        if (allowed(alarms) && (best === undefined || saved > best.saved || (saved === best.saved && alarms < best.alarms))) best = { choice, saved, alarms };
        return;
      }
      columns[depth]!.forEach((_, v) => walk(depth + 1, [...choice, v]));
    };
    walk(0, []);
    return best?.choice;
  }

  it('returns what scoring every combination returns', () => {
    const grid = fc
      .record({ runs: fc.integer({ min: 1, max: 8 }), shape: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }), maxAlarms: fc.integer({ min: 0, max: 3 }) })
      .chain(({ runs, shape, maxAlarms }) =>
        fc.record({
          lengths: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: runs, maxLength: runs }),
          wasted: fc.array(fc.boolean(), { minLength: runs, maxLength: runs }),
          stops: fc.tuple(...shape.map((candidates) => fc.array(fc.array(fc.option(fc.integer({ min: 0, max: 11 }), { nil: NEVER }), { minLength: runs, maxLength: runs }), { minLength: candidates, maxLength: candidates }))),
          maxAlarms: fc.constant(maxAlarms),
        }),
      );
    fc.assert(
      fc.property(grid, ({ lengths, wasted, stops, maxAlarms }) => {
        const columns = stops.map((candidates) => candidates.map((values) => Int32Array.from(values, (at, i) => (at === NEVER ? NEVER : Math.min(at, lengths[i]! - 1)))));
        const allowed = (alarms: number): boolean => alarms <= maxAlarms;
        expect(searchGrid(columns, Int32Array.from(lengths), wasted, allowed)).toEqual(scoreEveryCombination(columns, Int32Array.from(lengths), wasted, allowed));
      }),
      { numRuns: 500 },
    );
  });
});
