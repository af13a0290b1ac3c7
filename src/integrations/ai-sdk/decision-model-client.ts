import * as ai from 'ai';
import type { DecisionModelCallOptions, DecisionModelClient, DecisionModelRequest, DecisionModelResult } from '../../decision-model/decision-model-client.js';
import { DecisionModelError, isDecisionModelError, type DecisionModelErrorKind } from '../../decision-model/decision-model-error.js';
import { assertEvaluationQuestions, checkProbability } from '../../decision-model/validate-answers.js';
import { describeValue } from '../../core/describe-value.js';

/** An AI SDK 7 decision model (`DecisionModelV4`), as far as stopwise reads it. */
interface AiSdkDecisionModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  doDecide(options: unknown): PromiseLike<unknown>;
}

/** Options of {@link decisionModelClient}. */
export interface AiSdkDecisionModelOptions {
  /** Attempts after the first on a retryable error, as `experimental_decide` counts them (default 2). */
  readonly maxRetries?: number;
  /** Extra HTTP headers for the provider. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Provider-specific options, passed through. */
  readonly providerOptions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /**
   * What the model costs, in the unit of the run's `maxDecisionModelCost`, per
   * million input and output tokens: with it every answer reports its `cost`,
   * which counts toward the decision model's spend.
   */
  readonly pricePerMillionTokens?: { readonly input: number; readonly output: number };
}

type Decide = (options: Record<string, unknown>) => Promise<{
  readonly answers: Readonly<Record<string, { readonly type: string; readonly probability?: unknown }>>;
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number };
  readonly response?: { readonly modelId?: string };
}>;

/**
 * Makes an AI SDK 7 decision model stopwise's decision-model client: a
 * `DecisionModelV4` instance (a provider's `decisionModel(id)`), or an id the
 * default provider resolves. Each request goes through the SDK's
 * `experimental_decide`, so its retries, headers and telemetry apply: the
 * criteria are `boolean` questions against the one state stopwise builds (the
 * task, the acceptance criteria, the test evidence and the output), and each
 * answer's probability is P(true). Token usage is reported with every answer
 * (and its cost, with `pricePerMillionTokens`).
 *
 * A refusal, a missing or extra answer, a probability outside [0, 1] or a
 * question type the model does not support rejects with a
 * `DecisionModelError` (`invalid_response`, or `configuration` for what the
 * model cannot do), never with an answer; provider errors keep their meaning
 * (`auth`, `rate_limited`, `server`, `network`, `aborted`). Needs AI SDK 7:
 * with ai@6 it throws a `TypeError` at once.
 *
 * @example
 * const client = decisionModelClient(myProvider.decisionModel('judge-1'));
 * const check = await checkCompletion(client, { task, output, acceptance, tests });
 */
export function decisionModelClient(model: string | AiSdkDecisionModel, options: AiSdkDecisionModelOptions = {}): DecisionModelClient {
  const decide = (ai as Record<string, unknown>).experimental_decide;
  if (typeof decide !== 'function') {
    throw new TypeError(
      'decisionModelClient needs AI SDK 7 or later (ai@7, which has experimental_decide); with ai@6 use createSystemOneClient (stopwise/system-one) or createLogprobClient (stopwise/openai-compatible)',
    );
  }
  if (typeof model !== 'string' && !isDecisionModel(model)) {
    throw new TypeError(
      `decisionModelClient needs an AI SDK decision model (an object with specificationVersion "v4" and doDecide, such as provider.decisionModel(id)) or a model id, got ${describeValue(model)}`,
    );
  }
  const price = options.pricePerMillionTokens;
  if (price !== undefined && !(isAmount(price.input) && isAmount(price.output))) {
    throw new TypeError(`pricePerMillionTokens needs input and output as finite numbers of at least 0, got ${describeValue(price)}`);
  }
  const name = typeof model === 'string' ? model : model.modelId;
  return {
    async evaluate(request: DecisionModelRequest, callOptions: DecisionModelCallOptions = {}): Promise<DecisionModelResult> {
      assertEvaluationQuestions(request.questions);
      if (callOptions.signal?.aborted === true) throw new DecisionModelError('aborted', `the request to the decision model ${name} was aborted before it was sent`);
      let result: Awaited<ReturnType<Decide>>;
      try {
        result = await (decide as Decide)({
          model,
          state: request.state,
          questions: request.questions,
          ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
          ...(options.headers === undefined ? {} : { headers: options.headers }),
          ...(options.providerOptions === undefined ? {} : { providerOptions: options.providerOptions }),
          ...(callOptions.signal === undefined ? {} : { abortSignal: callOptions.signal }),
        });
      } catch (error) {
        throw toDecisionModelError(error, name, callOptions.signal);
      }
      const answers: Record<string, { probability: number }> = {};
      for (const question of Object.keys(request.questions)) {
        const answer = Object.hasOwn(result.answers, question) ? result.answers[question] : undefined;
        if (answer?.type !== 'boolean') {
          throw new DecisionModelError('invalid_response', `the decision model ${name} gave no probability for "${question}" (answer: ${describeValue(answer)})`);
        }
        answers[question] = { probability: checkProbability(question, answer.probability) };
      }
      const inputTokens = result.usage?.inputTokens;
      const outputTokens = result.usage?.outputTokens;
      const cost = price === undefined ? undefined : ((inputTokens ?? 0) * price.input + (outputTokens ?? 0) * price.output) / 1_000_000;
      const usage = {
        ...(typeof inputTokens === 'number' ? { inputTokens } : {}),
        ...(typeof outputTokens === 'number' ? { outputTokens } : {}),
        ...(cost === undefined ? {} : { cost }),
      };
      return { answers, model: result.response?.modelId ?? name, ...(Object.keys(usage).length === 0 ? {} : { usage }) };
    },
  };
}

function isDecisionModel(value: unknown): value is AiSdkDecisionModel {
  const candidate = value as Partial<AiSdkDecisionModel> | null;
  return typeof candidate === 'object' && candidate !== null && candidate.specificationVersion === 'v4' && typeof candidate.doDecide === 'function';
}

function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** The AI SDK's errors as stopwise's: the SDK's error names are stable across its releases, its classes are not exported by ai@6. */
function toDecisionModelError(error: unknown, model: string, signal: AbortSignal | undefined): DecisionModelError {
  if (isDecisionModelError(error)) return error;
  const found = error as { name?: unknown; message?: unknown; statusCode?: unknown; isRetryable?: unknown; lastError?: unknown; reason?: unknown } | null;
  const name = typeof found?.name === 'string' ? found.name : '';
  const message = `the decision model ${model}: ${typeof found?.message === 'string' ? found.message : String(error)}`;
  const kind = ((): DecisionModelErrorKind => {
    if (signal?.aborted === true) return (signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError' ? 'timeout' : 'aborted';
    if (name === 'AbortError') return 'aborted';
    if (name === 'TimeoutError') return 'timeout';
    switch (name) {
      case 'AI_DecisionRefusalError':
      case 'AI_InvalidResponseDataError':
      case 'AI_TypeValidationError':
      case 'AI_JSONParseError':
        return 'invalid_response';
      case 'AI_DecisionUnsupportedQuestionTypeError':
      case 'AI_NoSuchModelError':
      case 'AI_UnsupportedModelVersionError':
      case 'AI_LoadAPIKeyError':
        return 'configuration';
      case 'AI_InvalidArgumentError':
        return 'invalid_request';
      case 'AI_RetryError':
        return toDecisionModelError(found?.lastError, model, signal).kind;
      case 'AI_APICallError':
        return statusKind(found?.statusCode, found?.isRetryable === true);
      default:
        return 'invalid_response';
    }
  })();
  const status = typeof found?.statusCode === 'number' ? found.statusCode : undefined;
  return new DecisionModelError(kind, message, { cause: error, ...(status === undefined ? {} : { status }) });
}

function statusKind(status: unknown, retryable: boolean): DecisionModelErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limited';
  if (status === 408) return 'timeout';
  if (typeof status === 'number' && status >= 500) return 'server';
  if (typeof status === 'number' && status >= 400) return 'invalid_request';
  return retryable ? 'network' : 'invalid_response';
}
