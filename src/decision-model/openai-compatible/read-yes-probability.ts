// Reads P(yes) from an OpenAI-compatible chat completion generated with
// `max_tokens: 1, logprobs: true, top_logprobs: 20`.
// See https://platform.openai.com/docs/api-reference/chat/object (choices[].logprobs.content[].top_logprobs).
import { describeValue } from '../../core/describe-value.js';
import { DecisionModelError } from '../decision-model-error.js';

/** P(yes) normalised over the yes/no variants, with the mass each side held. */
export interface YesProbability {
  readonly probability: number;
  readonly yesMass: number;
  readonly noMass: number;
}

const LOGPROB_SLACK = 1e-6;

/**
 * Sums the probability of the "yes" variants and of the "no" variants among
 * the first token's top logprobs (case and leading space ignored) and returns
 * yes / (yes + no). Rejects with `invalid_response` when the completion has
 * no logprobs, a logprob is not a number at or below 0, or the two labels
 * together hold less than `minLabelMass`.
 */
export function readYesProbability(body: unknown, question: string, minLabelMass: number): YesProbability {
  const first = firstTokenLogprobs(body);
  if (first === undefined) {
    throw invalid(`no logprobs came back for "${question}"; the server must support logprobs: true and top_logprobs`);
  }
  let yesMass = 0;
  let noMass = 0;
  for (const [index, entry] of first.entries()) {
    if (typeof entry !== 'object' || entry === null) throw invalid(`top_logprobs[${index}] is not an object`);
    const { token, logprob } = entry as { token?: unknown; logprob?: unknown };
    if (typeof token !== 'string') throw invalid(`top_logprobs[${index}].token is not a string`);
    if (typeof logprob !== 'number' || !Number.isFinite(logprob) || logprob > LOGPROB_SLACK) {
      throw invalid(`top_logprobs[${index}].logprob is ${describeValue(logprob)}; expected a number at or below 0`);
    }
    const label = normaliseLabel(token);
    if (label === 'yes') yesMass += Math.exp(Math.min(logprob, 0));
    else if (label === 'no') noMass += Math.exp(Math.min(logprob, 0));
  }
  const mass = yesMass + noMass;
  if (!(mass >= minLabelMass) || mass === 0) {
    throw invalid(
      `"yes" and "no" hold ${mass.toFixed(3)} of the probability mass for "${question}", below minLabelMass ${minLabelMass}; the answer is unreliable`,
    );
  }
  return { probability: Math.min(1, yesMass / mass), yesMass, noMass };
}

/** A token reduced to its label: leading whitespace and tokenizer space markers dropped, lower case. */
export function normaliseLabel(token: string): string {
  return token.replace(/^[\s\u2581\u0120]+/u, '').trimEnd().toLowerCase();
}

function firstTokenLogprobs(body: unknown): unknown[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const choices = (body as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) return undefined;
  const logprobs: unknown = (choices[0] as { logprobs?: unknown } | undefined)?.logprobs;
  if (typeof logprobs !== 'object' || logprobs === null) return undefined;
  const content = (logprobs as { content?: unknown }).content;
  if (!Array.isArray(content)) return undefined;
  const top: unknown = (content[0] as { top_logprobs?: unknown } | undefined)?.top_logprobs;
  return Array.isArray(top) && top.length > 0 ? top : undefined;
}

function invalid(message: string): DecisionModelError {
  return new DecisionModelError('invalid_response', `logprob decision model: ${message}`);
}
