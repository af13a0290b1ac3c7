import { describe, expect, it } from 'vitest';
import { STALL_SCORE_FEATURES, type StallScoreFeature, type StallScoreModel } from '../../../src/core/stall-detection/stall-options.js';
import { assertStallScoreModel } from '../../../src/core/stall-detection/stall-schemas.js';
import {
  initialStallScoreState,
  isStallScoreState,
  observeScoreFeatures,
  observeStallScore,
  simHash,
  stallScore,
  type StallScoreState,
} from '../../../src/core/stall-detection/stall-score.js';
import type { StallStep } from '../../../src/core/stall-detection/stall-step.js';

const failing: StallStep = { tool: 'bash', input: 'npm test', output: 'Error: boom', exitCode: 1 };
const weights = (set: Partial<Record<StallScoreFeature, number>>): StallScoreModel['weights'] =>
  Object.fromEntries(STALL_SCORE_FEATURES.map((name) => [name, set[name] ?? 0])) as StallScoreModel['weights'];
const model = (threshold: number | null, set: Partial<Record<StallScoreFeature, number>> = { errorRate: 4, repeatedActions: 4 }): StallScoreModel => ({
  version: 1,
  window: 4,
  bias: -4,
  weights: weights(set),
  threshold,
});

// The features of every step, folded from the initial state, the state going through JSON between steps.
function fold(steps: readonly StallStep[], window: number): { rows: Readonly<Record<StallScoreFeature, number>>[]; state: StallScoreState } {
  let state = initialStallScoreState();
  const rows: Readonly<Record<StallScoreFeature, number>>[] = [];
  for (const step of steps) {
    const observed = observeScoreFeatures(state, step, window);
    state = JSON.parse(JSON.stringify(observed.state)) as StallScoreState;
    rows.push(observed.features);
  }
  return { rows, state };
}

describe('observeScoreFeatures', () => {
  it('reads the window: failures, repeated calls and results, steps taken before, and the rule detector', () => {
    const { rows } = fold(
      [
        { tool: 'read', input: { path: 'src/a.ts' }, output: 'export const a = 1;' },
        { tool: 'read', input: { path: 'src/a.ts' }, output: 'export const a = 1;' },
        { tool: 'edit', input: { path: 'src/b.ts', text: 'x' }, output: 'edited' },
        failing,
        failing,
        failing,
      ],
      4,
    );
    expect(rows[0]).toEqual(Object.fromEntries(STALL_SCORE_FEATURES.map((name) => [name, 0])));
    // The read again: half the window repeats, and no new file was named.
    expect(rows[1]).toMatchObject({ repeatedActions: 0.5, repeatedOutputs: 0.5, revisitedSteps: 0.5, sinceNewFile: 0.25, sinceNewStep: 0.25 });
    // A new file starts sinceNewFile and a new step sinceNewStep afresh.
    expect(rows[2]).toMatchObject({ sinceNewFile: 0, sinceNewStep: 0 });
    // The third identical failure: 3 of the 4 steps failed, and the rule detector finds the repeated result.
    expect(rows[5]).toMatchObject({ errorRate: 0.75, repeatedActions: 0.5, revisitedSteps: 0.5, sinceNewStep: 0.5, ruleFinding: 1 });
    for (const row of rows) for (const name of STALL_SCORE_FEATURES) expect(row[name], name).toBeGreaterThanOrEqual(0);
  });

  it('counts outputs nearly equal to an earlier one in the window, not outputs that share nothing', () => {
    const words = (prefix: string) => Array.from({ length: 80 }, (_, i) => `${prefix}${i}`).join(' ');
    const near = fold([0, 1, 2, 3].map((i) => ({ tool: 'bash', input: `cmd ${i}`, output: `${words('word')} tail${i}` })), 4).rows;
    expect(near.map((row) => row.nearDuplicateOutputs)).toEqual([0, 0.5, 2 / 3, 0.75]);
    expect(near.at(-1)?.repeatedOutputs).toBe(0);
    const far = fold([0, 1, 2, 3].map((i) => ({ tool: 'bash', input: `cmd ${i}`, output: words(`w${i}x`) })), 4).rows;
    expect(far.map((row) => row.nearDuplicateOutputs)).toEqual([0, 0, 0, 0]);
  });

  it('starts afresh at a user message', () => {
    const { state } = fold([failing, failing, failing], 4);
    expect(observeScoreFeatures(state, { role: 'user', text: 'use pg' }, 4)).toEqual({
      state: initialStallScoreState(),
      features: Object.fromEntries(STALL_SCORE_FEATURES.map((name) => [name, 0])),
    });
  });

  it('keeps a state of bounded size however long the run, which reads back as a state', () => {
    const steps = Array.from({ length: 400 }, (_, i): StallStep => ({ tool: 'edit', input: { path: `src/f${i}.ts` }, output: `ok ${i}` }));
    const { state } = fold(steps, 10);
    expect(state.entries).toHaveLength(10);
    expect(state.pairs).toHaveLength(64);
    expect(state.files).toHaveLength(256);
    expect(JSON.stringify(state).length).toBeLessThan(16_000);
    expect(isStallScoreState(state)).toBe(true);
  });
});

describe('isStallScoreState', () => {
  it("refuses another version, an overlong window and a rule detector's state that is not one", () => {
    const state = fold([failing, failing], 4).state;
    expect(isStallScoreState(initialStallScoreState())).toBe(true);
    expect(isStallScoreState(state)).toBe(true);
    expect(isStallScoreState({ ...state, version: 2 })).toBe(false);
    expect(isStallScoreState({ ...state, entries: Array.from({ length: 65 }, () => state.entries[0]) })).toBe(false);
    expect(isStallScoreState({ ...state, rules: { ...state.rules, version: 1 } })).toBe(false);
    expect(isStallScoreState({ ...state, sinceNewStep: 0.5 })).toBe(false);
    expect(isStallScoreState(null)).toBe(false);
  });
});

describe('stallScore and observeStallScore', () => {
  it('is the logistic of the bias and the weighted features, and never falls when a feature grows', () => {
    const zero = Object.fromEntries(STALL_SCORE_FEATURES.map((name) => [name, 0])) as Record<StallScoreFeature, number>;
    expect(stallScore(model(0.5), zero)).toBeCloseTo(1 / (1 + Math.exp(4)), 12);
    expect(stallScore(model(0.5), { ...zero, errorRate: 1, repeatedActions: 0.5 })).toBeCloseTo(1 / (1 + Math.exp(-2)), 12);
    for (const name of STALL_SCORE_FEATURES) {
      const m = model(0.5, Object.fromEntries(STALL_SCORE_FEATURES.map((feature, i) => [feature, i + 1])));
      expect(stallScore(m, { ...zero, [name]: 1 }), name).toBeGreaterThan(stallScore(m, zero));
    }
  });

  it('stops at the first step whose score reaches the threshold, never with a null threshold, and scores a user message 0', () => {
    const run = [failing, failing, failing, failing];
    const stops = (threshold: number | null) => {
      let state = initialStallScoreState();
      return run.map((step) => {
        const observed = observeStallScore(state, step, model(threshold));
        state = observed.state;
        return observed.stop;
      });
    };
    // errorRate 1 from the first step; repeatedActions 0, 0.5, 2/3, 0.75: the scores 0.5, 0.88, 0.93, 0.95.
    expect(stops(0.9)).toEqual([false, false, true, true]);
    expect(stops(0.5)).toEqual([true, true, true, true]);
    expect(stops(null)).toEqual([false, false, false, false]);
    const { state } = fold(run, 4);
    expect(observeStallScore(state, { role: 'user', text: 'try pg' }, model(0))).toMatchObject({ score: 0, stop: false });
  });

  it('checks a model before it is used, naming the field', () => {
    expect(() => assertStallScoreModel(model(0.9))).not.toThrow();
    expect(() => assertStallScoreModel({ ...model(0.9), weights: weights({ errorRate: -1 }) })).toThrow(/^stall score model\.weights\.errorRate: must be at least 0: the score is monotone/);
    expect(() => assertStallScoreModel({ ...model(0.9), window: 100 })).toThrow(/^stall score model\.window: /);
    expect(() => assertStallScoreModel('score')).toThrow(TypeError);
  });
});

describe('simHash', () => {
  it('is 16 hex characters, the same for the same text, close for texts that differ in one word, far for others', () => {
    const distance = (a: string, b: string): number => {
      let bits = 0;
      for (let i = 0; i < 16; i++) for (let x = Number.parseInt(a[i] as string, 16) ^ Number.parseInt(b[i] as string, 16); x !== 0; x &= x - 1) bits++;
      return bits;
    };
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    expect(simHash(words)).toMatch(/^[0-9a-f]{16}$/);
    expect(simHash(words)).toBe(simHash(words));
    expect(simHash('')).toBe('0'.repeat(16));
    expect(distance(simHash(`${words} tail1`), simHash(`${words} tail2`))).toBeLessThanOrEqual(3);
    expect(distance(simHash(words), simHash(Array.from({ length: 80 }, (_, i) => `other${i}`).join(' ')))).toBeGreaterThan(3);
  });
});
