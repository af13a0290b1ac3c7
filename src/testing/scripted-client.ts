import type { DecisionModelCallOptions, DecisionModelClient, DecisionModelRequest, DecisionModelResult } from '../decision-model/decision-model-client.js';
import { DecisionModelError, isDecisionModelError } from '../decision-model/decision-model-error.js';
import { validateAnswers } from '../decision-model/validate-answers.js';

/** One scripted answer set: P(true) per question name. */
export type ScriptedAnswers = Readonly<Record<string, number>>;

/** What a scripted call does: answer with probabilities, or reject with a `DecisionModelError`. */
export type ScriptedReply = ScriptedAnswers | DecisionModelError;

/** A script: replies used call by call, or a function of the request and the call index (from 0). */
export type Script =
  | readonly ScriptedReply[]
  | ((request: DecisionModelRequest, callIndex: number) => ScriptedReply | Promise<ScriptedReply>);

/** Options of {@link createScriptedClient}. */
export interface ScriptedClientOptions {
  /** The model name reported in every answer. Default `scripted`. */
  readonly model?: string;
}

/** A scripted decision model that records every request it receives. */
export interface ScriptedClient extends DecisionModelClient {
  /** Every request received, in order (also those that were rejected). */
  readonly calls: readonly DecisionModelRequest[];
}

/**
 * A decision model for offline tests of stop policies: it answers from a
 * script and records every request in `calls`. Its answers are validated like
 * a real client's: a scripted answer set that misses an asked question or
 * holds a value outside [0, 1] rejects with `invalid_response`, and a script
 * that runs out rejects with a `configuration` error naming the call.
 *
 * @example
 * const client = createScriptedClient([{ acceptanceCovered: 0.4, noOpenQuestions: 0.9 }, { acceptanceCovered: 0.9, noOpenQuestions: 0.9 }]);
 * await decideCompletionAfterEvaluate(client, { task, output, acceptance, tests, loop });
 * client.calls.length; // 1
 */
export function createScriptedClient(script: Script, options: ScriptedClientOptions = {}): ScriptedClient {
  if (typeof script !== 'function' && !Array.isArray(script)) {
    throw new TypeError('createScriptedClient needs a list of replies or a function (request, callIndex) => reply');
  }
  const model = options.model ?? 'scripted';
  const calls: DecisionModelRequest[] = [];

  return {
    calls,
    async evaluate(request: DecisionModelRequest, evaluateOptions: DecisionModelCallOptions = {}): Promise<DecisionModelResult> {
      const callIndex = calls.length;
      calls.push(request);
      if (evaluateOptions.signal?.aborted === true) {
        throw new DecisionModelError('aborted', `scripted call ${callIndex} was aborted`);
      }
      const reply = await nextReply(script, request, callIndex);
      if (isDecisionModelError(reply)) throw reply;
      if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
        throw new DecisionModelError('invalid_response', `scripted call ${callIndex}: the reply is not an answer set`);
      }
      const answers: Record<string, { probability: number }> = {};
      for (const [name, probability] of Object.entries(reply)) answers[name] = { probability };
      const valid = validateAnswers({ answers, model }, request.questions);
      const asked: Record<string, { probability: number }> = {};
      for (const [name, probability] of Object.entries(valid.probabilities)) asked[name] = { probability };
      return { answers: asked, model };
    },
  };
}

async function nextReply(script: Script, request: DecisionModelRequest, callIndex: number): Promise<ScriptedReply> {
  if (typeof script === 'function') return script(request, callIndex);
  const reply = script[callIndex];
  if (reply === undefined) {
    throw new DecisionModelError(
      'configuration',
      `the script has ${script.length} ${script.length === 1 ? 'reply' : 'replies'}, and call ${callIndex + 1} found none left`,
    );
  }
  return reply;
}
