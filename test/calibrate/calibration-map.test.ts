import { describe, expect, it } from 'vitest';
import { applyCalibrationMap, assertCalibrationMap, logit, sigmoid, toCalibrationFit, type CalibrationMap } from '../../src/calibrate/calibration-map.js';

describe('calibration maps', () => {
  it('applies each kind of map', () => {
    expect(applyCalibrationMap({ kind: 'platt', a: -1, b: 0 }, 0.73)).toBeCloseTo(0.73, 9);
    expect(applyCalibrationMap({ kind: 'platt', a: -2, b: 0 }, 0.75)).toBeCloseTo(0.9, 9); // odds 3 → 9
    expect(applyCalibrationMap({ kind: 'temperature', temperature: 1 }, 0.42)).toBeCloseTo(0.42, 9);
    expect(applyCalibrationMap({ kind: 'temperature', temperature: 2 }, 0.9)).toBeCloseTo(0.75, 9); // odds 9 → 3
    const isotonic: CalibrationMap = { kind: 'isotonic', x: [0.2, 0.4, 0.8], y: [0.1, 0.3, 0.9] };
    expect(applyCalibrationMap(isotonic, 0.1)).toBe(0.1);
    expect(applyCalibrationMap(isotonic, 0.3)).toBeCloseTo(0.2, 12);
    expect(applyCalibrationMap(isotonic, 0.6)).toBeCloseTo(0.6, 12);
    expect(applyCalibrationMap(isotonic, 1)).toBe(0.9);
  });

  it('keeps 0 and 1 finite through the logit and survives JSON', () => {
    expect(Number.isFinite(logit(0))).toBe(true);
    expect(Number.isFinite(logit(1))).toBe(true);
    expect(sigmoid(-1000)).toBe(0);
    expect(sigmoid(1000)).toBe(1);
    const fit = toCalibrationFit({ kind: 'temperature', temperature: 1.7 });
    const restored = JSON.parse(JSON.stringify(fit.map)) as CalibrationMap;
    expect(applyCalibrationMap(restored, 0.8)).toBe(fit.apply(0.8));
  });

  it('rejects malformed maps and probabilities', () => {
    expect(() => assertCalibrationMap({ kind: 'platt', a: 1, b: 0 })).toThrow(/non-decreasing/);
    expect(() => assertCalibrationMap({ kind: 'temperature', temperature: 0 })).toThrow(/temperature/);
    expect(() => assertCalibrationMap({ kind: 'isotonic', x: [0.5, 0.4], y: [0.1, 0.2] })).toThrow(/non-decreasing/);
    expect(() => assertCalibrationMap({ kind: 'isotonic', x: [0.5], y: [] })).toThrow(/same/);
    expect(() => assertCalibrationMap({ kind: 'other' } as unknown as CalibrationMap)).toThrow(/unknown/);
    expect(() => applyCalibrationMap({ kind: 'temperature', temperature: 1 }, 1.2)).toThrow(RangeError);
    expect(() => applyCalibrationMap({ kind: 'temperature', temperature: 1 }, Number.NaN)).toThrow(RangeError);
  });
});
