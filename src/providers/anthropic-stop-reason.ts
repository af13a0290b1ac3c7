import type { GenerationStep } from './provider-step.js';
import { ProviderStopError, STOPPED_WITHOUT_FINISH, giveUpStep, providerStep, toolCallStep } from './provider-step.js';

/** The part of an Anthropic `Message` the mapper reads; the SDK's `Message` fits. */
export interface AnthropicMessageLike {
  readonly stop_reason: string | null;
  readonly stop_sequence?: string | null | undefined;
  readonly content: readonly {
    readonly type: string;
    readonly id?: string | undefined;
    readonly name?: string | undefined;
    readonly input?: unknown;
  }[];
  readonly stop_details?:
    | { readonly type: string; readonly category?: string | null | undefined; readonly explanation?: string | null | undefined }
    | null
    | undefined;
}

/**
 * Maps an Anthropic Messages API response to the loop's next step (a tool call, or the step's end for the stop engine), on
 * `stop_reason` first and content second. Throws a `ProviderStopError` for
 * zero or several `tool_use` blocks (send `disable_parallel_tool_use: true`)
 * and for any other reason (`stop_sequence` without a generated sequence,
 * null, unknown): the loop reports those as failed.
 *
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 * @example
 * const step = mapAnthropicStopReason(await client.messages.create({ ... }));
 * if (step.type === 'call') runTool(step.tool, step.args);
 */
export function mapAnthropicStopReason(message: AnthropicMessageLike): GenerationStep<string | null> {
  const raw = message.stop_reason;
  switch (raw) {
    case 'tool_use': {
      const calls = message.content.filter((block) => block.type === 'tool_use');
      const [call] = calls;
      if (calls.length !== 1 || call === undefined) {
        throw new ProviderStopError(
          `stop_reason tool_use with ${calls.length} tool_use blocks; expected exactly one (send disable_parallel_tool_use: true)`,
          raw,
        );
      }
      return toolCallStep(String(call.name), call.input, call.id, raw);
    }
    case 'end_turn':
      return giveUpStep(STOPPED_WITHOUT_FINISH, raw);
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return providerStep('token_limit', `generation cut short at the provider's token limit (${String(raw)})`, raw);
    case 'refusal': {
      const details = message.stop_details;
      if (details?.type !== 'refusal') return giveUpStep('model refused', raw);
      const why = [details.category, details.explanation].filter((part): part is string => typeof part === 'string' && part !== '').join(': ');
      return giveUpStep(why === '' ? 'model refused' : `model refused (${why})`, raw);
    }
    case 'pause_turn':
      return { type: 'resume', raw };
    case 'stop_sequence':
      if (typeof message.stop_sequence === 'string') {
        return giveUpStep(`model stopped at stop sequence ${JSON.stringify(message.stop_sequence)} without finish`, raw);
      }
      throw new ProviderStopError('stop_reason stop_sequence, but no stop sequence was generated', raw);
    default:
      throw new ProviderStopError(`unexpected stop_reason ${JSON.stringify(raw)}`, raw);
  }
}
