import type { DecisionModelCallOptions, DecisionModelClient, DecisionModelRequest, DecisionModelResult } from '../decision-model-client.js';
import { DecisionModelError } from '../decision-model-error.js';
import { assertApiKey, assertModelName, createHttpTransport, parseBaseURL, type HttpClientOptions } from '../http/http-transport.js';
import { sendWithRetries } from '../http/send-with-retries.js';
import { assertSendableRequest } from '../http/wire-checks.js';
import { readSystemOneAnswers, readSystemOneModels, toSystemOneQuestions, type SystemOneModel } from './system-one-wire.js';

/** Options of {@link createSystemOneClient}. */
export interface SystemOneClientOptions extends HttpClientOptions {
  readonly apiKey: string;
  /** The API root, usually ending in `/v1`. */
  readonly baseURL: string;
  /** The model alias to ask; the answer names the model that replied. */
  readonly model: string;
}

/** A System One decision-model client: `evaluate` plus `listModels`. */
export interface SystemOneClient extends DecisionModelClient {
  readonly model: string;
  readonly baseURL: string;
  /** The models the API offers. */
  listModels(options?: DecisionModelCallOptions): Promise<SystemOneModel[]>;
}

/**
 * A decision-model client for the System One API: `POST {baseURL}/systemone`
 * with every question in one request. Retries network errors, 408, 429, 5xx
 * and 529 with exponential backoff and jitter (honouring `retry-after`), never
 * 401, 403 or 422; applies `timeoutMs` to each attempt; stops at once when the
 * caller's signal aborts; refuses a body over 8 MB. Rejects only with an
 * `DecisionModelError`, and never puts the API key in a message.
 *
 * @example
 * const client = createSystemOneClient({ apiKey, baseURL: 'https://api.example.com/v1', model: 'sys-1' });
 * const { answers } = await client.evaluate({ state: 'The sky is blue.', questions: doneCriteria });
 */
export function createSystemOneClient(options: SystemOneClientOptions): SystemOneClient {
  if (typeof options !== 'object' || options === null) {
    throw new DecisionModelError('configuration', 'createSystemOneClient needs { apiKey, baseURL, model }');
  }
  const { apiKey, model } = options;
  assertApiKey(apiKey);
  const baseURL = parseBaseURL(options.baseURL);
  assertModelName(model);
  const transport = createHttpTransport(
    'System One',
    { ...options, headers: { ...options.headers, authorization: `Bearer ${apiKey}` } },
    [apiKey],
  );

  return {
    model,
    baseURL,
    async evaluate(request: DecisionModelRequest, evaluateOptions: DecisionModelCallOptions = {}): Promise<DecisionModelResult> {
      assertSendableRequest(request);
      const questions = toSystemOneQuestions(request.questions);
      let body: string;
      try {
        body = JSON.stringify({ model, state: request.state, questions });
      } catch (error) {
        throw new DecisionModelError('invalid_request', `the state cannot be sent as JSON: ${(error as Error).message}`);
      }
      return sendWithRetries(
        transport,
        {
          method: 'POST',
          url: new URL(`${baseURL}/systemone`),
          body,
          read: (json) => readSystemOneAnswers(json, request.questions, model),
        },
        evaluateOptions.signal,
      );
    },
    async listModels(listOptions: DecisionModelCallOptions = {}): Promise<SystemOneModel[]> {
      return sendWithRetries(
        transport,
        { method: 'GET', url: new URL(`${baseURL}/models`), read: readSystemOneModels },
        listOptions.signal,
      );
    },
  };
}
