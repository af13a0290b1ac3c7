import { describe, expect, it } from 'vitest';
import { booleanQuestion, doneCriteria } from '../../src/decision-model/boolean-question.js';
import { estimateDecisionModelCost, type DecisionModelPricing } from '../../src/decision-model/estimate-decision-model-cost.js';
import type { DecisionModelQuestions, DecisionModelRequest } from '../../src/decision-model/decision-model-client.js';

const TWO: DecisionModelQuestions = { done: booleanQuestion('Done?'), clear: booleanQuestion('Clear?') };

/** A request whose JSON is exactly `bytes` bytes long. */
function requestOfBytes(bytes: number, questions: DecisionModelQuestions = TWO): DecisionModelRequest {
  const empty = JSON.stringify({ state: '', questions }).length;
  return { state: 'x'.repeat(bytes - empty), questions };
}

function blocks(request: DecisionModelRequest, pricing: DecisionModelPricing) {
  const estimate = estimateDecisionModelCost(request, pricing);
  if (estimate.kind !== 'blocks') throw new Error('expected a block estimate');
  return estimate;
}

describe('estimateDecisionModelCost with block pricing', () => {
  const pricing = { kind: 'blocks', pricePerBlock: 0.001 } as const;

  it('counts one block for anything up to 4 KB, and at least one', () => {
    expect(blocks(requestOfBytes(200), pricing)).toMatchObject({ blocks: 1, questions: 2, bytes: 200 });
    expect(blocks(requestOfBytes(4096), pricing).blocks).toBe(1);
    expect(blocks(requestOfBytes(4097), pricing).blocks).toBe(2);
    expect(blocks(requestOfBytes(3 * 4096 + 1), pricing).blocks).toBe(4);
  });

  it('multiplies blocks by questions by price', () => {
    const estimate = blocks(requestOfBytes(5000), pricing);
    expect(estimate.cost).toBeCloseTo(2 * 2 * 0.001, 12);
    const three = { a: booleanQuestion('a?'), b: booleanQuestion('b?'), c: booleanQuestion('c?') };
    expect(blocks(requestOfBytes(200, three), pricing).cost).toBeCloseTo(3 * 0.001, 12);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const ascii = blocks({ state: 'aaaa', questions: doneCriteria }, pricing).bytes;
    expect(blocks({ state: 'éééé', questions: doneCriteria }, pricing).bytes).toBe(ascii + 4);
    expect(blocks({ state: '€€€€', questions: doneCriteria }, pricing).bytes).toBe(ascii + 8);
    expect(blocks({ state: 'a😀', questions: doneCriteria }, pricing).bytes).toBe(ascii + 1);
    const state = 'ü€😀 mixed text';
    expect(blocks({ state, questions: doneCriteria }, pricing).bytes).toBe(
      Buffer.byteLength(JSON.stringify({ state, questions: doneCriteria })),
    );
  });

  it('takes another block size', () => {
    expect(blocks(requestOfBytes(2000), { ...pricing, blockBytes: 1000 }).blocks).toBe(2);
  });

  it('refuses malformed pricing', () => {
    const request = requestOfBytes(300);
    expect(() => estimateDecisionModelCost(request, { kind: 'blocks', pricePerBlock: -1 })).toThrow(TypeError);
    expect(() => estimateDecisionModelCost(request, { kind: 'blocks', pricePerBlock: 1, blockBytes: 0 })).toThrow(TypeError);
    expect(() => estimateDecisionModelCost(request, { kind: 'euros' } as never)).toThrow(/blocks/);
  });
});

describe('estimateDecisionModelCost with token pricing', () => {
  it('prices the reported input tokens, and output tokens when priced', () => {
    const request = requestOfBytes(300);
    expect(estimateDecisionModelCost(request, { kind: 'tokens', pricePerMillionInputTokens: 2 }, { inputTokens: 500_000 })).toEqual({
      kind: 'tokens',
      cost: 1,
      inputTokens: 500_000,
      outputTokens: 0,
    });
    expect(
      estimateDecisionModelCost(
        request,
        { kind: 'tokens', pricePerMillionInputTokens: 2, pricePerMillionOutputTokens: 8 },
        { inputTokens: 1000, outputTokens: 10 },
      ).cost,
    ).toBeCloseTo(0.00208, 12);
  });

  it('needs the usage a client reported', () => {
    const request = requestOfBytes(300);
    expect(() => estimateDecisionModelCost(request, { kind: 'tokens', pricePerMillionInputTokens: 2 })).toThrow(/usage/);
    expect(() =>
      estimateDecisionModelCost(request, { kind: 'tokens', pricePerMillionInputTokens: 2, pricePerMillionOutputTokens: 1 }, { inputTokens: 3 }),
    ).toThrow(/outputTokens/);
  });
});
