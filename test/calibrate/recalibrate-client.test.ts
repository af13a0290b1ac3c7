import { describe, expect, it } from 'vitest';
import { applyCalibrationMap } from '../../src/calibrate/calibration-map.js';
import { recalibrateClient } from '../../src/calibrate/recalibrate-client.js';
import type { DecisionModelClient, DecisionModelRequest } from '../../src/decision-model/decision-model-client.js';
import { isDecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { doneCriteria } from '../../src/decision-model/boolean-question.js';

function fixedClient(answers: Record<string, number>): DecisionModelClient & { seen: DecisionModelRequest[]; signals: unknown[] } {
  const seen: DecisionModelRequest[] = [];
  const signals: unknown[] = [];
  return {
    seen,
    signals,
    async evaluate(request, options) {
      seen.push(request);
      signals.push(options?.signal);
      const out: Record<string, { probability: number }> = {};
      for (const [name, probability] of Object.entries(answers)) out[name] = { probability };
      return { model: 'inner', answers: out, usage: { inputTokens: 10 } };
    },
  };
}

describe('recalibrateClient', () => {
  it('passes every probability through the map and keeps the rest of the result', async () => {
    const inner = fixedClient({ acceptanceCovered: 0.9, noOpenQuestions: 0.6 });
    const map = { kind: 'temperature', temperature: 2 } as const;
    const client = recalibrateClient(inner, map);
    const signal = new AbortController().signal;
    const result = await client.evaluate({ state: 'x', questions: doneCriteria }, { signal });
    expect(result.answers.acceptanceCovered?.probability).toBeCloseTo(0.75, 9);
    expect(result.answers.noOpenQuestions?.probability).toBeCloseTo(applyCalibrationMap(map, 0.6), 12);
    expect(result.model).toBe('inner');
    expect(result.usage).toEqual({ inputTokens: 10 });
    expect(inner.seen[0]?.questions).toBe(doneCriteria);
    expect(inner.signals[0]).toBe(signal);
  });

  it('takes one map per question and passes the others unchanged', async () => {
    const client = recalibrateClient(fixedClient({ acceptanceCovered: 0.9, noOpenQuestions: 0.6 }), {
      acceptanceCovered: { kind: 'isotonic', x: [0, 1], y: [0, 0.5] },
    });
    const result = await client.evaluate({ state: 'x', questions: doneCriteria });
    expect(result.answers).toEqual({ acceptanceCovered: { probability: 0.45 }, noOpenQuestions: { probability: 0.6 } });
  });

  it('turns a non-probability answer into an DecisionModelError and rejects a bad map', async () => {
    const client = recalibrateClient(fixedClient({ acceptanceCovered: Number.NaN }), { kind: 'temperature', temperature: 1 });
    const error = await client.evaluate({ state: 'x', questions: doneCriteria }).catch((caught: unknown) => caught);
    expect(isDecisionModelError(error)).toBe(true);
    expect((error as { kind: string }).kind).toBe('invalid_response');
    expect(() => recalibrateClient(fixedClient({}), { kind: 'platt', a: 2, b: 0 })).toThrow(RangeError);
  });
});
