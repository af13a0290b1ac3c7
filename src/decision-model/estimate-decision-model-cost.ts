import type { DecisionModelRequest, DecisionModelUsage } from './decision-model-client.js';

/** Default block size of block pricing: 4 KB. */
export const DEFAULT_BLOCK_BYTES = 4096;

/**
 * How a hosted decision model bills a request: per block of request bytes
 * (every `blockBytes` of the JSON request is one block, anything under counts
 * as one, cost = blocks × questions × price) or per token reported in usage.
 */
export type DecisionModelPricing =
  | { readonly kind: 'blocks'; readonly blockBytes?: number; readonly pricePerBlock: number }
  | {
      readonly kind: 'tokens';
      readonly pricePerMillionInputTokens: number;
      readonly pricePerMillionOutputTokens?: number;
    };

/** A cost estimate, with the quantities it was computed from. */
export type DecisionModelCostEstimate =
  | {
      readonly kind: 'blocks';
      readonly cost: number;
      readonly bytes: number;
      readonly blocks: number;
      readonly questions: number;
    }
  | { readonly kind: 'tokens'; readonly cost: number; readonly inputTokens: number; readonly outputTokens: number };

/**
 * Estimates what one decision-model request costs under a pricing rule.
 * Block pricing counts the UTF-8 bytes of the JSON-serialised request; token
 * pricing needs the `usage` the client reported. Throws a `TypeError` for a
 * malformed pricing rule, or token pricing without `usage.inputTokens`.
 *
 * @example
 * estimateDecisionModelCost(request, { kind: 'blocks', pricePerBlock: 0.0002 });
 * // { kind: 'blocks', cost: 0.0004, bytes: 3120, blocks: 1, questions: 2 }
 */
export function estimateDecisionModelCost(
  request: DecisionModelRequest,
  pricing: DecisionModelPricing,
  usage?: DecisionModelUsage,
): DecisionModelCostEstimate {
  if (typeof pricing !== 'object' || pricing === null) throw new TypeError('pricing must be an object with a kind');
  if (pricing.kind === 'blocks') {
    const blockBytes = pricing.blockBytes ?? DEFAULT_BLOCK_BYTES;
    if (!Number.isInteger(blockBytes) || blockBytes < 1) {
      throw new TypeError(`pricing.blockBytes must be a positive integer, got ${String(blockBytes)}`);
    }
    assertPrice('pricing.pricePerBlock', pricing.pricePerBlock);
    const json = JSON.stringify(request);
    if (typeof json !== 'string') throw new TypeError('request must be JSON-serialisable');
    const questions = countQuestions(request);
    const bytes = utf8ByteLength(json);
    const blocks = Math.max(1, Math.ceil(bytes / blockBytes));
    return { kind: 'blocks', cost: blocks * questions * pricing.pricePerBlock, bytes, blocks, questions };
  }
  if (pricing.kind === 'tokens') {
    assertPrice('pricing.pricePerMillionInputTokens', pricing.pricePerMillionInputTokens);
    const outputPrice = pricing.pricePerMillionOutputTokens ?? 0;
    assertPrice('pricing.pricePerMillionOutputTokens', outputPrice);
    const inputTokens = usage?.inputTokens;
    if (typeof inputTokens !== 'number' || !Number.isFinite(inputTokens) || inputTokens < 0) {
      throw new TypeError('token pricing needs the usage a client reported, with usage.inputTokens a non-negative number');
    }
    const reported = usage?.outputTokens;
    const hasOutput = typeof reported === 'number' && Number.isFinite(reported) && reported >= 0;
    if (outputPrice > 0 && !hasOutput) {
      throw new TypeError('pricing.pricePerMillionOutputTokens needs usage.outputTokens a non-negative number');
    }
    const outputTokens = hasOutput ? reported : 0;
    const cost = (inputTokens * pricing.pricePerMillionInputTokens + outputTokens * outputPrice) / 1_000_000;
    return { kind: 'tokens', cost, inputTokens, outputTokens };
  }
  throw new TypeError(`pricing.kind must be "blocks" or "tokens", got ${String((pricing as { kind?: unknown }).kind)}`);
}

function countQuestions(request: DecisionModelRequest): number {
  const { questions } = request;
  if (typeof questions !== 'object' || questions === null) throw new TypeError('request.questions must be an object');
  return Object.keys(questions).length;
}

function assertPrice(field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`${field} must be a non-negative number, got ${String(value)}`);
  }
}

/** UTF-8 length of a well-formed string (JSON.stringify escapes lone surrogates), without encoding it. */
function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
