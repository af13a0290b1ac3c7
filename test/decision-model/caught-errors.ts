// Helpers for asserting what a call threw or rejected with.
import { isDecisionModelError, type DecisionModelError } from '../../src/decision-model/decision-model-error.js';

/**
 * The `DecisionModelError` a promise rejects with. Throws (failing the test) when
 * the promise resolves, which for a decision means an answer came out where
 * only an error may, or when it rejects with anything else.
 */
export async function rejection(promise: Promise<unknown>): Promise<DecisionModelError> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    if (!isDecisionModelError(error)) throw error;
    return error;
  }
  throw new Error(`expected an DecisionModelError, got an answer: ${JSON.stringify(value)}`);
}

/** What `run` throws, or `undefined` when it returns. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
