import { describe, expect, it } from 'vitest';
import type { LabelledCase } from '../../src/calibrate/labelled-case.js';
import { splitCases } from '../../src/calibrate/stratified-split.js';

const cases: LabelledCase[] = Array.from({ length: 100 }, (_, index) => ({
  id: String(index),
  label: index % 4 === 0 ? 'not_done' : 'done',
  taskType: index < 60 ? 'bugfix' : 'feature',
  probabilities: { a: index / 100 },
}));

describe('splitCases', () => {
  it('holds out the share of each task type and label, seeded', () => {
    const { calibration, holdout } = splitCases(cases, 0.3, 11);
    expect(calibration.length + holdout.length).toBe(100);
    const count = (part: readonly LabelledCase[], taskType: string, label: string) =>
      part.filter((c) => c.taskType === taskType && c.label === label).length;
    expect(count(holdout, 'bugfix', 'not_done')).toBe(Math.round(0.3 * 15));
    expect(count(holdout, 'bugfix', 'done')).toBe(Math.round(0.3 * 45));
    expect(count(holdout, 'feature', 'not_done')).toBe(Math.round(0.3 * 10));
    expect(count(holdout, 'feature', 'done')).toBe(Math.round(0.3 * 30));
    expect(splitCases(cases, 0.3, 11)).toEqual({ calibration, holdout });
    expect(splitCases(cases, 0.3, 12).holdout).not.toEqual(holdout);
    // Original order is kept within each part.
    const ids = holdout.map((c) => Number(c.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('keeps everything for calibration at holdout 0 and rejects a bad share', () => {
    expect(splitCases(cases, 0, 1).holdout).toEqual([]);
    expect(() => splitCases(cases, 1, 1)).toThrow(TypeError);
    expect(() => splitCases(cases, -0.1, 1)).toThrow(TypeError);
  });
});
