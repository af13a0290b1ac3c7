import { describe, expect, it } from 'vitest';
import { calibrateStallDetector, type StallRun } from '../../src/calibrate/calibrate-stall-detector.js';
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
