import type { GenerationStep } from './provider-step.js';
import { STOPPED_WITHOUT_FINISH, giveUpStep, parseToolArguments, providerStep, toolCallStep } from './provider-step.js';

/** One tool call of a chat completion message: a function call, or a custom tool call. */
export interface OpenAIChatToolCallLike {
  readonly type?: string | undefined;
  readonly id?: string | undefined;
  readonly function?: { readonly name: string; readonly arguments: unknown } | undefined;
  readonly custom?: { readonly name: string; readonly input: unknown } | undefined;
}

/** The part of an OpenAI chat completion choice the mapper reads; the SDK's `ChatCompletion.Choice` fits. */
export interface OpenAIChatChoiceLike {
  readonly finish_reason: string | null;
  readonly message?:
    | {
        readonly tool_calls?: readonly OpenAIChatToolCallLike[] | null | undefined;
        readonly function_call?: { readonly name: string; readonly arguments: unknown } | null | undefined;
      }
    | null
    | undefined;
}

/**
 * Maps an OpenAI Chat Completions choice to the loop's next step (a tool
 * call, or the step's end for the stop engine), on `finish_reason` first and
 * `message.tool_calls` second. `length` ends the step at the provider's token
 * limit, `content_filter` is a `give_up`; null and unknown reasons, and several
 * calls (send `parallel_tool_calls: false`), end as a generation that could
 * not be read.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object
 * @example
 * const step = mapOpenAIChatFinishReason(completion.choices[0]);
 */
export function mapOpenAIChatFinishReason(choice: OpenAIChatChoiceLike): GenerationStep<string | null> {
  const raw = choice.finish_reason ?? null;
  const calls = choice.message?.tool_calls ?? [];
  switch (raw) {
    case 'tool_calls':
      return oneToolCall(calls, raw);
    case 'stop':
      // Some OpenAI-compatible servers report `stop` on a complete tool call.
      return calls.length > 0 ? oneToolCall(calls, raw) : giveUpStep(STOPPED_WITHOUT_FINISH, raw);
    case 'function_call': {
      const call = choice.message?.function_call;
      if (call === undefined || call === null) return providerStep('failed', 'finish_reason function_call without a function_call', raw);
      return argumentsStep(call.name, call.arguments, undefined, raw);
    }
    case 'length':
      return providerStep('token_limit', `generation cut short at the provider's token limit (${String(raw)})`, raw);
    case 'content_filter':
      return giveUpStep('content filtered', raw);
    default:
      return providerStep('failed', `unexpected finish_reason ${JSON.stringify(raw)}`, raw);
  }
}

function oneToolCall(calls: readonly OpenAIChatToolCallLike[], raw: string): GenerationStep<string | null> {
  const [call] = calls;
  if (calls.length !== 1 || call === undefined) {
    return providerStep('failed', `finish_reason ${raw} with ${calls.length} tool calls; expected exactly one (send parallel_tool_calls: false)`, raw);
  }
  if (call.function !== undefined) return argumentsStep(call.function.name, call.function.arguments, call.id, raw);
  if (call.custom !== undefined) {
    return call.custom.name === 'finish'
      ? argumentsStep(call.custom.name, call.custom.input, call.id, raw)
      : toolCallStep(call.custom.name, call.custom.input, call.id, raw);
  }
  return providerStep('failed', `tool call of unknown type ${JSON.stringify(call.type)}`, raw);
}

function argumentsStep(name: string, text: unknown, id: string | undefined, raw: string): GenerationStep<string | null> {
  const parsed = parseToolArguments(text);
  if (!parsed.ok) return providerStep('failed', `${name}: ${parsed.error}`, raw);
  return toolCallStep(name, parsed.args, id, raw);
}
