import type { GenerationStep } from './provider-step.js';
import { STOPPED_WITHOUT_FINISH, giveUpStep, parseToolArguments, providerStep, toolCallStep } from './provider-step.js';

/** The raw values of a Responses API result: its `status` and `incomplete_details.reason`. */
export interface OpenAIResponseRaw {
  readonly status: string | null;
  readonly incompleteReason: string | null;
}

/** The part of an OpenAI Responses API result the mapper reads; the SDK's `Response` fits. */
export interface OpenAIResponseLike {
  readonly status?: string | null | undefined;
  readonly incomplete_details?: { readonly reason?: string | null | undefined } | null | undefined;
  readonly error?: { readonly code?: string | null | undefined; readonly message?: string | null | undefined } | null | undefined;
  readonly output?:
    | readonly {
        readonly type: string;
        readonly name?: unknown;
        readonly arguments?: unknown;
        readonly input?: unknown;
        readonly call_id?: unknown;
      }[]
    | undefined;
}

const CALL_TYPES: ReadonlySet<string> = new Set(['function_call', 'custom_tool_call']);

/**
 * Maps an OpenAI Responses API result to the loop's next step (a tool call, or the step's end for the stop engine), on `status`
 * first, `incomplete_details.reason` second and the `output` items third.
 * `max_output_tokens` ends the step at the provider's token limit, `max_messages` the
 * provider's step limit, `content_filter` a `give_up`, `steered` resumes; `failed`,
 * `cancelled`, an unfinished (`queued`, `in_progress`), null or unknown status
 * ends as a generation that could not be read (`failed`).
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export function mapOpenAIResponseStatus(response: OpenAIResponseLike): GenerationStep<OpenAIResponseRaw> {
  const raw: OpenAIResponseRaw = { status: response.status ?? null, incompleteReason: response.incomplete_details?.reason ?? null };
  switch (raw.status) {
    case 'completed':
      return completedStep(response, raw);
    case 'incomplete':
      switch (raw.incompleteReason) {
        case 'max_output_tokens':
          return providerStep('token_limit', `generation cut short at the provider's token limit (${raw.incompleteReason})`, raw);
        case 'max_messages':
          return providerStep('step_limit', `the provider's limit of tool calls or messages was reached (${raw.incompleteReason})`, raw);
        case 'content_filter':
          return giveUpStep('content filtered', raw);
        case 'steered':
          return { type: 'resume', raw };
        default:
          return providerStep('failed', `response incomplete for an unexpected reason ${JSON.stringify(raw.incompleteReason)}`, raw);
      }
    case 'failed': {
      const error = response.error;
      const detail = error?.message ?? error?.code ?? 'no error detail';
      return providerStep('failed', `response failed: ${detail}`, raw);
    }
    case 'cancelled':
      return providerStep('failed', 'response was cancelled', raw);
    case 'queued':
    case 'in_progress':
      return providerStep('failed', `response is not finished (status ${raw.status}); poll it until it completes before mapping it`, raw);
    default:
      return providerStep('failed', `unexpected response status ${JSON.stringify(raw.status)}`, raw);
  }
}

function completedStep(response: OpenAIResponseLike, raw: OpenAIResponseRaw): GenerationStep<OpenAIResponseRaw> {
  const calls = (response.output ?? []).filter((item) => CALL_TYPES.has(item.type));
  const [call] = calls;
  if (calls.length === 0) return giveUpStep(STOPPED_WITHOUT_FINISH, raw);
  if (calls.length > 1 || call === undefined) {
    return providerStep('failed', `completed with ${calls.length} tool calls; expected exactly one (send parallel_tool_calls: false)`, raw);
  }
  const name = String(call.name);
  const id = typeof call.call_id === 'string' ? call.call_id : undefined;
  if (call.type === 'custom_tool_call' && name !== 'finish') return toolCallStep(name, call.input, id, raw);
  const parsed = parseToolArguments(call.type === 'custom_tool_call' ? call.input : call.arguments);
  if (!parsed.ok) return providerStep('failed', `${name}: ${parsed.error}`, raw);
  return toolCallStep(name, parsed.args, id, raw);
}
