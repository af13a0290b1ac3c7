import { assertTestEvidence, type TestEvidence } from '../core/test-evidence.js';
import { describeValue } from '../core/describe-value.js';
import { doneCriteria } from './boolean-question.js';
import type { DecisionModelQuestions, DecisionModelRequest } from './decision-model-client.js';
import { assertEvaluationQuestions } from './validate-answers.js';

/** What a completion check judges: the task, the agent's output, the acceptance list and the test evidence. */
export interface CompletionInput {
  readonly task: string;
  readonly output: string;
  readonly acceptance: readonly string[];
  readonly tests: TestEvidence;
  /** The questions to ask; {@link doneCriteria} when absent. */
  readonly questions?: DecisionModelQuestions;
}

/** The state a completion check sends to the decision model. Plain JSON data. */
export interface CompletionState {
  readonly task: string;
  readonly output: string;
  readonly acceptance: readonly string[];
  readonly tests: { readonly passed: boolean; readonly ran: number; readonly failed: readonly string[] };
}

/** The request a completion check sends: its state and its questions. */
export interface CompletionRequest extends DecisionModelRequest {
  readonly state: CompletionState;
}

/**
 * Builds the one request a completion check sends: a state holding the task,
 * the output, the acceptance list and the test summary (passed, ran, failed
 * names), with every question. Throws a `TypeError` naming the field for
 * malformed input. The test result is data in the state: no question asks
 * the model whether tests passed.
 *
 * @example
 * const request = createCompletionRequest({ task, output, acceptance, tests });
 * estimateDecisionModelCost(request, { kind: 'blocks', pricePerBlock: 0.0001 });
 */
export function createCompletionRequest(input: CompletionInput): CompletionRequest {
  if (typeof input !== 'object' || input === null) {
    throw new TypeError('the completion input must be an object { task, output, acceptance, tests }');
  }
  const { task, output, acceptance, tests } = input;
  if (typeof task !== 'string') throw new TypeError(`task must be a string, got ${describeValue(task)}`);
  if (typeof output !== 'string') throw new TypeError(`output must be a string, got ${describeValue(output)}`);
  if (!Array.isArray(acceptance)) {
    throw new TypeError(`acceptance must be an array of strings, got ${describeValue(acceptance)}`);
  }
  for (const [index, item] of acceptance.entries()) {
    if (typeof item !== 'string') throw new TypeError(`acceptance[${index}] must be a string, got ${describeValue(item)}`);
  }
  assertTestEvidence(tests);
  const questions = input.questions ?? doneCriteria;
  assertEvaluationQuestions(questions);
  return {
    state: {
      task,
      output,
      acceptance: [...acceptance],
      tests: { passed: tests.passed, ran: tests.ran, failed: [...tests.failed] },
    },
    questions,
  };
}
