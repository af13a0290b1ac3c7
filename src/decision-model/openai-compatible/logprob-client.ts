import type {
  BooleanQuestion,
  DecisionModelCallOptions,
  DecisionModelClient,
  DecisionModelRequest,
  DecisionModelResult,
} from '../decision-model-client.js';
import { DecisionModelError } from '../decision-model-error.js';
import { assertApiKey, assertModelName, createHttpTransport, parseBaseURL, type HttpClientOptions } from '../http/http-transport.js';
import { sendWithRetries } from '../http/send-with-retries.js';
import { assertSendableRequest, isTokenCount } from '../http/wire-checks.js';
import { buildLogprobMessages } from './logprob-prompt.js';
import { mapWithConcurrency } from './map-with-concurrency.js';
import { readYesProbability } from './read-yes-probability.js';
import { setOwnProperty } from '../../core/own-property.js';

/** Options of {@link createLogprobClient}. */
export interface LogprobClientOptions extends HttpClientOptions {
  /** The API root; requests go to `{baseURL}/chat/completions`. */
  readonly baseURL: string;
  readonly model: string;
  /** Sent as a bearer token when given (local servers often need none). */
  readonly apiKey?: string;
  /** The least probability mass "yes" and "no" must hold together. Default 0.5. */
  readonly minLabelMass?: number;
  /** Questions asked at the same time. Default 4. */
  readonly concurrency?: number;
}

/** A decision-model client over an OpenAI-compatible chat endpoint that returns logprobs. */
export interface LogprobClient extends DecisionModelClient {
  readonly model: string;
  readonly baseURL: string;
}

/**
 * A decision model made of any OpenAI-compatible chat endpoint that returns
 * logprobs (OpenAI, vLLM, llama.cpp server, Ollama): one single-token chat
 * completion per question (`max_tokens: 1`, `temperature: 0`,
 * `top_logprobs: 20`), P(yes) = yes / (yes + no) over the yes/no variants. The
 * judged state is placed inside delimiters as untrusted data. Rejects with
 * `invalid_response` when the server returns no logprobs or the labels hold
 * less than `minLabelMass`. Same retry, timeout and size rules as the System
 * One client. These probabilities are uncalibrated: tune thresholds on
 * labelled cases.
 *
 * @example
 * const client = createLogprobClient({ baseURL: 'http://127.0.0.1:8000/v1', model: 'qwen2.5-7b-instruct' });
 */
export function createLogprobClient(options: LogprobClientOptions): LogprobClient {
  if (typeof options !== 'object' || options === null) {
    throw new DecisionModelError('configuration', 'createLogprobClient needs { baseURL, model }');
  }
  const baseURL = parseBaseURL(options.baseURL);
  const { model, apiKey } = options;
  assertModelName(model);
  if (apiKey !== undefined) assertApiKey(apiKey);
  const minLabelMass = options.minLabelMass ?? 0.5;
  if (typeof minLabelMass !== 'number' || !(minLabelMass > 0 && minLabelMass <= 1)) {
    throw new DecisionModelError('configuration', `minLabelMass must be a number in (0, 1], got ${String(minLabelMass)}`);
  }
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new DecisionModelError('configuration', `concurrency must be a positive integer, got ${String(concurrency)}`);
  }
  const transport = createHttpTransport(
    'the chat completions server',
    {
      ...options,
      headers: { ...options.headers, ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }) },
    },
    apiKey === undefined ? [] : [apiKey],
  );
  const url = new URL(`${baseURL}/chat/completions`);

  async function ask(name: string, question: BooleanQuestion, state: unknown, signal: AbortSignal) {
    const body = JSON.stringify({
      model,
      messages: buildLogprobMessages(question, state),
      max_tokens: 1,
      temperature: 0,
      logprobs: true,
      top_logprobs: 20,
    });
    return sendWithRetries(
      transport,
      {
        method: 'POST',
        url,
        body,
        read: (json) => ({ ...readYesProbability(json, name, minLabelMass), ...readMeta(json) }),
      },
      signal,
    );
  }

  return {
    model,
    baseURL,
    async evaluate(request: DecisionModelRequest, evaluateOptions: DecisionModelCallOptions = {}): Promise<DecisionModelResult> {
      assertSendableRequest(request);
      const entries = Object.entries(request.questions);
      const replies = await mapWithConcurrency(
        entries,
        concurrency,
        ([name, question], signal) => ask(name, question, request.state, signal),
        evaluateOptions.signal,
      );
      const answers: Record<string, { probability: number }> = {};
      let inputTokens = 0;
      let outputTokens = 0;
      let counted = false;
      for (const [index, [name]] of entries.entries()) {
        const reply = replies[index];
        if (reply === undefined) throw new DecisionModelError('invalid_response', `no reply for "${name}"`);
        setOwnProperty(answers, name, { probability: reply.probability });
        if (reply.inputTokens !== undefined || reply.outputTokens !== undefined) counted = true;
        inputTokens += reply.inputTokens ?? 0;
        outputTokens += reply.outputTokens ?? 0;
      }
      return {
        answers,
        model: replies.find((reply) => reply.model !== undefined)?.model ?? model,
        ...(counted ? { usage: { inputTokens, outputTokens } } : {}),
      };
    },
  };
}

function readMeta(json: unknown): { model?: string; inputTokens?: number; outputTokens?: number } {
  const { model, usage } = json as { model?: unknown; usage?: unknown };
  const counts = typeof usage === 'object' && usage !== null ? (usage as Record<string, unknown>) : {};
  return {
    ...(typeof model === 'string' && model !== '' ? { model } : {}),
    ...(isTokenCount(counts.prompt_tokens) ? { inputTokens: counts.prompt_tokens } : {}),
    ...(isTokenCount(counts.completion_tokens) ? { outputTokens: counts.completion_tokens } : {}),
  };
}
