import type { ProviderStep } from './provider-step.js';
import { STOPPED_WITHOUT_FINISH, blockedStep, failedStep, parseToolArguments, toolCallStep } from './provider-step.js';

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
 * Maps an OpenAI Chat Completions choice to the loop's next step, on
 * `finish_reason` first and `message.tool_calls` second. `length` halts out of
 * budget (tokens), `content_filter` blocked; null and unknown reasons halt as
 * failed. Send `parallel_tool_calls: false`: several calls halt as failed.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object
 * @example
 * const step = mapOpenAIChatFinishReason(completion.choices[0]);
 */
export function mapOpenAIChatFinishReason(choice: OpenAIChatChoiceLike): ProviderStep<string | null> {
  const raw = choice.finish_reason ?? null;
  const calls = choice.message?.tool_calls ?? [];
  switch (raw) {
    case 'tool_calls':
      return oneToolCall(calls, raw);
    case 'stop':
      // Some OpenAI-compatible servers report `stop` on a complete tool call.
      return calls.length > 0 ? oneToolCall(calls, raw) : blockedStep(STOPPED_WITHOUT_FINISH, raw);
    case 'function_call': {
      const call = choice.message?.function_call;
      if (call === undefined || call === null) return failedStep('finish_reason function_call without a function_call', raw);
      return argumentsStep(call.name, call.arguments, undefined, raw);
    }
    case 'length':
      return { type: 'halt', stop: { kind: 'out_of_budget', limit: 'tokens' }, raw };
    case 'content_filter':
      return blockedStep('content filtered', raw);
    default:
      return failedStep(`unexpected finish_reason ${JSON.stringify(raw)}`, raw);
  }
}

function oneToolCall(calls: readonly OpenAIChatToolCallLike[], raw: string): ProviderStep<string | null> {
  const [call] = calls;
  if (calls.length !== 1 || call === undefined) {
    return failedStep(`finish_reason ${raw} with ${calls.length} tool calls; expected exactly one (send parallel_tool_calls: false)`, raw);
  }
  if (call.function !== undefined) return argumentsStep(call.function.name, call.function.arguments, call.id, raw);
  if (call.custom !== undefined) {
    return call.custom.name === 'finish'
      ? argumentsStep(call.custom.name, call.custom.input, call.id, raw)
      : toolCallStep(call.custom.name, call.custom.input, call.id, raw);
  }
  return failedStep(`tool call of unknown type ${JSON.stringify(call.type)}`, raw);
}

function argumentsStep(name: string, text: unknown, id: string | undefined, raw: string): ProviderStep<string | null> {
  const parsed = parseToolArguments(text);
  if (!parsed.ok) return failedStep(`${name}: ${parsed.error}`, raw);
  return toolCallStep(name, parsed.args, id, raw);
}
