import { describeValue } from '../../core/describe-value.js';
import type { DecisionModelRequest } from '../decision-model-client.js';
import { DecisionModelError } from '../decision-model-error.js';

/**
 * Checks a request before anything is sent: an object with at least one
 * question, each a yes/no question. Anything else is `invalid_request`.
 */
export function assertSendableRequest(request: unknown): asserts request is DecisionModelRequest {
  if (typeof request !== 'object' || request === null) {
    throw new DecisionModelError('invalid_request', 'evaluate needs a request { state, questions }');
  }
  const questions: unknown = (request as { questions?: unknown }).questions;
  if (typeof questions !== 'object' || questions === null || Object.keys(questions).length === 0) {
    throw new DecisionModelError('invalid_request', 'a request needs at least one question');
  }
  for (const [name, question] of Object.entries(questions)) {
    const type: unknown = (question as { type?: unknown } | null)?.type;
    if (type !== 'boolean') {
      throw new DecisionModelError(
        'invalid_request',
        `question "${name}" has type ${describeValue(type)}; only yes/no questions (booleanQuestion) are supported`,
      );
    }
  }
}

/** True for a token count a server reported: a finite number at or above 0. */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
