import { describe, expect, it } from 'vitest';
import { certifyStallScoreThreshold, evaluateStallScore, fitStallScore, fitStallScoreWeights, stallScoreFeatures } from '../../src/calibrate/fit-stall-score.js';
import type { StallRun } from '../../src/calibrate/calibrate-stall-detector.js';
import { STALL_SCORE_FEATURES } from '../../src/core/stall-detection/stall-options.js';
import { assertStallScoreModel } from '../../src/core/stall-detection/stall-schemas.js';
import { initialStallScoreState, observeStallScore, simHash } from '../../src/core/stall-detection/stall-score.js';
import type { StallStep } from '../../src/core/stall-detection/stall-step.js';

const work = (i: number): StallRun => ({
  label: 'success',
  steps: [
    { tool: 'read', input: { path: `src/m${i}.ts` }, output: `export const m${i} = ${i};` },
    { tool: 'edit', input: { path: `src/m${i}.ts`, text: `${i + 1}` }, output: `edited m${i}` },
    { tool: 'bash', input: 'npm test', output: `Tests: ${i} passed`, exitCode: 0 },
  ],
});
const loop = (i: number): StallRun => ({
  label: 'wasted',
  steps: [
    { tool: 'read', input: { path: `src/j${i}.ts` }, output: `job ${i}` },
    ...Array.from({ length: 12 }, (): StallStep => ({ tool: 'bash', input: `node job-${i}.js`, output: "Error: Cannot find module 'pg'", exitCode: 1 })),
  ],
});

describe('the stall score', () => {
  it('has features in [0, 1], none of them a step count, and grows on a loop', () => {
    const rows = stallScoreFeatures(loop(1), 10);
    for (const row of rows) {
      for (const name of STALL_SCORE_FEATURES) {
        expect(row[name]).toBeGreaterThanOrEqual(0);
        expect(row[name]).toBeLessThanOrEqual(1);
      }
    }
    expect(rows.at(-1)).toMatchObject({ errorRate: 1, repeatedActions: 0.9, repeatedOutputs: 0.9, ruleFinding: 1 });
    // The same loop later in a longer run gives the same features once the window is full.
    const later = stallScoreFeatures({ label: 'wasted', steps: [...work(2).steps, ...work(3).steps, ...loop(1).steps] }, 10);
    expect(later.at(-1)).toMatchObject({ errorRate: 1, repeatedActions: 0.9, repeatedOutputs: 0.9 });
    expect(simHash('the same words here') === simHash('the same words here')).toBe(true);
  });

  it('fits non-negative weights and certifies a threshold only with enough successful runs', () => {
    const runs = [...Array.from({ length: 400 }, (_, i) => work(i)), ...Array.from({ length: 60 }, (_, i) => loop(i))];
    const weights = fitStallScoreWeights(runs);
    expect(() => assertStallScoreModel(weights)).not.toThrow();
    expect(Object.values(weights.weights).every((w) => w >= 0)).toBe(true);
    const few = certifyStallScoreThreshold(weights, runs.slice(0, 100), 0.02, 0.95);
    expect(few).toMatchObject({ certified: false, neededSuccessRuns: 149 });
    // Not certified: the threshold is null, which never stops, and the model is plain data that survives JSON.
    expect(few.model.threshold).toBeNull();
    expect(JSON.parse(JSON.stringify(few.model))).toEqual(few.model);
    expect(() => assertStallScoreModel(few.model)).not.toThrow();
    expect(evaluateStallScore(few.model, runs)).toMatchObject({ wastedCaught: 0, falseAlarms: 0 });
    const fit = fitStallScore(runs, { maxFalseAlarm: 0.02, calibrationShare: 0.6, seed: 3 });
    expect(fit.certified).toBe(true);
    expect(fit.calibration.falseAlarmUpper).toBeLessThanOrEqual(0.02);
    const figures = evaluateStallScore(fit.model, runs);
    expect(figures.wastedCaught).toBe(60);
    expect(figures.falseAlarms).toBe(0);
  });

  it('stops a run step by step at run time, and starts afresh at a user message', () => {
    const fit = fitStallScore([...Array.from({ length: 400 }, (_, i) => work(i)), ...Array.from({ length: 60 }, (_, i) => loop(i))], {
      maxFalseAlarm: 0.02,
      calibrationShare: 0.6,
      seed: 3,
    });
    let state = initialStallScoreState();
    let stoppedAt = -1;
    for (const [i, step] of loop(99).steps.entries()) {
      const observed = observeStallScore(state, step, fit.model);
      state = JSON.parse(JSON.stringify(observed.state));
      if (observed.stop && stoppedAt < 0) stoppedAt = i;
    }
    expect(stoppedAt).toBeGreaterThan(0);
    expect(observeStallScore(state, { role: 'user', text: 'try pg' }, fit.model)).toMatchObject({ score: 0, stop: false });
    expect(() => assertStallScoreModel({ ...fit.model, weights: { ...fit.model.weights, errorRate: -1 } })).toThrow(/monotone/);
  });
});
