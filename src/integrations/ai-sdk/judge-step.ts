import type { AgentLoopState } from '../../core/agent-loop-state.js';
import type { CriterionProbabilities } from '../../core/criterion-probabilities.js';
import { decideCompletionAction, decideFromEvidence } from '../../core/decide-completion-action.js';
import { DEFAULT_POLICY, type StopPolicy } from '../../core/stop-policy.js';
import type { TestEvidence } from '../../core/test-evidence.js';
import { doneCriteria } from '../../judge/boolean-question.js';
import type { EvaluateOptions, EvaluationClient, EvaluationQuestions } from '../../judge/evaluation-client.js';
import { EvaluationError } from '../../judge/evaluation-error.js';
import type { CompletionDecision } from './completion-loop.js';

/** What one completion check after a step needs. */
export interface JudgeStepInput {
  readonly task: string;
  readonly output: string;
  readonly acceptance: readonly string[];
  readonly tests: TestEvidence;
  readonly loop: AgentLoopState;
  readonly questions?: EvaluationQuestions | undefined;
  readonly policy?: StopPolicy | undefined;
}

/**
 * The action for one step: rules 1 to 3 from the evidence alone, and only when
 * they do not decide, one request to the decision model with every question,
 * its answers validated, then the action table.
 */
export async function judgeStep(
  client: EvaluationClient,
  input: JudgeStepInput,
  options: EvaluateOptions = {},
): Promise<CompletionDecision> {
  const policy = input.policy ?? DEFAULT_POLICY;
  const fromEvidence = decideFromEvidence(input.tests, input.loop, policy);
  if (fromEvidence !== undefined) return { ...fromEvidence, evaluated: false };
  const questions = input.questions ?? doneCriteria;
  const state = {
    task: input.task,
    output: input.output,
    acceptance: [...input.acceptance],
    tests: { passed: input.tests.passed, ran: input.tests.ran, failed: [...input.tests.failed] },
  };
  const result = await client.evaluate({ state, questions }, options);
  const probabilities = readAnswers(result, Object.keys(questions));
  return {
    ...decideCompletionAction(probabilities, input.tests, input.loop, policy),
    evaluated: true,
    probabilities,
    model: result.model,
  };
}

function readAnswers(result: unknown, names: readonly string[]): CriterionProbabilities {
  const answers = (result as { answers?: unknown } | null | undefined)?.answers;
  if (typeof answers !== 'object' || answers === null) {
    throw new EvaluationError('invalid_response', 'the decision model returned no answers object');
  }
  const probabilities: Record<string, number> = {};
  for (const name of names) {
    const probability = (answers as Record<string, { probability?: unknown } | undefined>)[name]?.probability;
    if (typeof probability !== 'number' || !Number.isFinite(probability) || probability < 0 || probability > 1) {
      throw new EvaluationError(
        'invalid_response',
        `the decision model's answer to "${name}" is ${probability === undefined ? 'missing' : `not a probability in [0, 1] (${String(probability)})`}`,
      );
    }
    probabilities[name] = probability;
  }
  return probabilities;
}
