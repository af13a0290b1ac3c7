import type { BooleanCriteria, BooleanQuestion, DecisionModelQuestions } from './decision-model-client.js';

/**
 * A yes/no question for a decision model, answered with P(true).
 *
 * @example
 * booleanQuestion('Does the output handle every listed item?', { true: 'every item is handled', false: 'an item is missing' });
 */
export function booleanQuestion(instructions: string, criteria?: BooleanCriteria): BooleanQuestion {
  if (typeof instructions !== 'string' || instructions.trim() === '') {
    throw new TypeError('booleanQuestion needs non-empty instructions');
  }
  return criteria === undefined ? { type: 'boolean', instructions } : { type: 'boolean', instructions, criteria };
}

/** The two default completion questions: `acceptanceCovered` and `noOpenQuestions`. */
export const doneCriteria: DecisionModelQuestions = Object.freeze({
  acceptanceCovered: booleanQuestion('Does the output address every acceptance criterion listed in the task?', {
    true: 'Every acceptance criterion in the list is handled by the output.',
    false: 'At least one acceptance criterion is not handled, only partly handled, or handled only by a claim.',
  }),
  noOpenQuestions: booleanQuestion('Does the output leave no blocking question for the user?', {
    true: 'Nothing in the output waits on a decision, a fact or an access that only the user can give.',
    false: 'The output asks the user something, or stops on a decision or a fact only the user has.',
  }),
});
