import type { CriterionProbabilities } from '../core/criterion-probabilities.js';
import { describeValue } from '../core/describe-value.js';
import type { DecisionModelQuestions, DecisionModelResult, DecisionModelUsage } from './decision-model-client.js';
import { DecisionModelError } from './decision-model-error.js';
import { setOwnProperty } from '../core/own-property.js';

/** A decision model's answer after validation: one probability per asked question. */
export interface ValidatedAnswers {
  readonly probabilities: CriterionProbabilities;
  readonly model: string;
  readonly usage?: DecisionModelUsage;
}

/**
 * Checks what a client resolved with against the questions that were asked:
 * every asked name answered, every probability a finite number in [0, 1], the
 * model named by a string. Answers to questions that were not asked are
 * dropped. Anything else rejects with an `invalid_response` `DecisionModelError`,
 * so a hand-written client cannot slip a bad value into a decision.
 *
 * @example
 * const { probabilities } = validateAnswers(await client.evaluate(request), request.questions);
 */
export function validateAnswers(result: unknown, questions: DecisionModelQuestions): ValidatedAnswers {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    throw invalid(`the decision model's result must be an object, got ${describeValue(result)}`);
  }
  const { answers, model, usage } = result as Partial<Record<keyof DecisionModelResult, unknown>>;
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) {
    throw invalid(`the decision model's result has no answers object (got ${describeValue(answers)})`);
  }
  if (typeof model !== 'string') {
    throw invalid(`the decision model's result must name its model as a string, got ${describeValue(model)}`);
  }
  const probabilities: Record<string, number> = {};
  for (const name of Object.keys(questions)) {
    const answer: unknown = Object.hasOwn(answers, name) ? (answers as Record<string, unknown>)[name] : undefined;
    if (answer === undefined) throw invalid(`the decision model did not answer the question "${name}"`);
    const probability =
      typeof answer === 'object' && answer !== null ? (answer as { probability?: unknown }).probability : undefined;
    setOwnProperty(probabilities, name, checkProbability(name, probability));
  }
  const validUsage = readUsage(usage);
  return validUsage === undefined ? { probabilities, model } : { probabilities, model, usage: validUsage };
}

/**
 * Returns `value` when it is a finite number in [0, 1], and otherwise throws an
 * `invalid_response` `DecisionModelError` naming the question.
 */
export function checkProbability(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw invalid(
      `the decision model answered "${name}" with ${describeValue(value)}; expected a probability, a finite number in [0, 1]`,
    );
  }
  return value;
}

/**
 * Throws a `TypeError` unless `questions` is an object of at least one named
 * yes/no question, each `{ type: 'boolean', instructions }`.
 */
export function assertEvaluationQuestions(questions: DecisionModelQuestions): void {
  if (typeof questions !== 'object' || questions === null || Array.isArray(questions)) {
    throw new TypeError('questions must be an object of named questions');
  }
  const names = Object.keys(questions);
  if (names.length === 0) throw new TypeError('questions must name at least one question');
  for (const name of names) {
    const question: unknown = questions[name];
    if (typeof question !== 'object' || question === null) {
      throw new TypeError(`questions.${name} must be a question built with booleanQuestion()`);
    }
    const { type, instructions } = question as { type?: unknown; instructions?: unknown };
    if (type !== 'boolean') {
      throw new TypeError(`questions.${name}.type must be "boolean", got ${describeValue(type)}`);
    }
    if (typeof instructions !== 'string' || instructions.trim() === '') {
      throw new TypeError(`questions.${name}.instructions must be a non-empty string`);
    }
  }
}

/** The token counts of a reported usage that are non-negative finite numbers; anything else is left out. */
function readUsage(usage: unknown): DecisionModelUsage | undefined {
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return undefined;
  const { inputTokens, outputTokens, cost } = usage as Record<string, unknown>;
  const valid = (count: unknown): count is number => typeof count === 'number' && Number.isFinite(count) && count >= 0;
  if (!valid(inputTokens) && !valid(outputTokens) && !valid(cost)) return undefined;
  return {
    ...(valid(inputTokens) ? { inputTokens } : {}),
    ...(valid(outputTokens) ? { outputTokens } : {}),
    ...(valid(cost) ? { cost } : {}),
  };
}

function invalid(message: string): DecisionModelError {
  return new DecisionModelError('invalid_response', message);
}
