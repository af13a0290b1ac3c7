// The System One decision-model wire format: questions of SDK type `boolean`
// travel as `noul`, answers come back as `{ type: 'noul', noul: P(yes) }`.
import { describeValue } from '../../core/describe-value.js';
import type { DecisionModelQuestions, DecisionModelResult, DecisionModelUsage } from '../decision-model-client.js';
import { DecisionModelError } from '../decision-model-error.js';
import { assertSendableRequest, isTokenCount } from '../http/wire-checks.js';
import { checkProbability } from '../validate-answers.js';
import { setOwnProperty } from '../../core/own-property.js';

/** A yes/no question as the API takes it. */
export interface SystemOneWireQuestion {
  readonly type: 'noul';
  readonly instructions?: string;
  readonly criteria?: unknown;
}

/** A model the API lists. */
export interface SystemOneModel {
  readonly name: string;
  readonly description?: string;
  readonly releaseDate?: string;
}

/**
 * Maps questions to the wire: `boolean` becomes `noul`. Any other type is an
 * `invalid_request` error, raised before anything is sent.
 */
export function toSystemOneQuestions(questions: DecisionModelQuestions): Record<string, SystemOneWireQuestion> {
  assertSendableRequest({ questions });
  const wire: Record<string, SystemOneWireQuestion> = {};
  for (const [name, question] of Object.entries(questions)) {
    setOwnProperty(wire, name, {
      type: 'noul',
      ...(question.instructions === undefined ? {} : { instructions: question.instructions }),
      ...(question.criteria === undefined ? {} : { criteria: question.criteria }),
    });
  }
  return wire;
}

/**
 * Reads an evaluate response: every asked question answered with a `noul`
 * probability in [0, 1]; unknown fields and unasked answers are ignored; the
 * model as the server names it (the alias sent when it names none).
 */
export function readSystemOneAnswers(body: unknown, questions: DecisionModelQuestions, sentModel: string): DecisionModelResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid(`the response is not a JSON object (got ${describeValue(body)})`);
  }
  const { answers, model, usage } = body as { answers?: unknown; model?: unknown; usage?: unknown };
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) {
    throw invalid(`the response has no answers object (got ${describeValue(answers)})`);
  }
  const read: Record<string, { probability: number }> = {};
  for (const name of Object.keys(questions)) {
    const answer: unknown = Object.hasOwn(answers, name) ? (answers as Record<string, unknown>)[name] : undefined;
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
      throw invalid(`the response has no answer to the question "${name}"`);
    }
    const { type, noul } = answer as { type?: unknown; noul?: unknown };
    if (type !== undefined && type !== 'noul') {
      throw invalid(`the answer to "${name}" has type ${describeValue(type)}, expected "noul"`);
    }
    setOwnProperty(read, name, { probability: checkProbability(name, noul) });
  }
  const reportedUsage = readUsage(usage);
  return {
    answers: read,
    model: typeof model === 'string' && model !== '' ? model : sentModel,
    ...(reportedUsage === undefined ? {} : { usage: reportedUsage }),
  };
}

/** Reads a model list `{ models: [{ name, description, release_date }] }`. */
export function readSystemOneModels(body: unknown): SystemOneModel[] {
  const models: unknown = typeof body === 'object' && body !== null ? (body as { models?: unknown }).models : undefined;
  if (!Array.isArray(models)) throw invalid('the model list has no models array');
  return models.map((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null) throw invalid(`models[${index}] is not an object`);
    const { name, description, release_date: releaseDate } = entry as Record<string, unknown>;
    if (typeof name !== 'string' || name === '') throw invalid(`models[${index}].name is not a non-empty string`);
    return {
      name,
      ...(typeof description === 'string' ? { description } : {}),
      ...(typeof releaseDate === 'string' ? { releaseDate } : {}),
    };
  });
}

function readUsage(usage: unknown): DecisionModelUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { input_tokens: input, output_tokens: output } = usage as Record<string, unknown>;
  if (!isTokenCount(input) && !isTokenCount(output)) return undefined;
  return {
    ...(isTokenCount(input) ? { inputTokens: input } : {}),
    ...(isTokenCount(output) ? { outputTokens: output } : {}),
  };
}

function invalid(message: string): DecisionModelError {
  return new DecisionModelError('invalid_response', `System One: ${message}`);
}
