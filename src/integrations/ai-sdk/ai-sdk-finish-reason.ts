import type { GenerationStep } from '../../providers/provider-step.js';
import { STOPPED_WITHOUT_FINISH, giveUpStep, providerStep, toolCallStep } from '../../providers/provider-step.js';

/** The raw values of an AI SDK step: the unified `finishReason` and the provider's `rawFinishReason`. */
export interface AiSdkFinishRaw {
  readonly finishReason: string | null;
  readonly rawFinishReason: string | null;
}

/** The part of an AI SDK step result the mapper reads; `StepResult` and `generateText`'s result fit. */
export interface AiSdkStepLike {
  readonly finishReason?: string | null | undefined;
  readonly rawFinishReason?: string | null | undefined;
  readonly toolCalls?:
    | readonly {
        readonly toolName: string;
        readonly input: unknown;
        readonly toolCallId?: string | undefined;
        readonly invalid?: boolean | undefined;
        readonly error?: unknown;
      }[]
    | undefined;
}

/**
 * Maps a Vercel AI SDK step to the loop's next step (a tool call, or the step's end for the stop engine), on `finishReason` first
 * and `toolCalls` second. `length` ends the step at the provider's token limit,
 * `content-filter` a `give_up`; `error`, `other`, `interrupted`, null and unknown
 * reasons end as a generation that could not be read.
 *
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/generate-text#finishreason
 */
export function mapAiSdkFinishReason(step: AiSdkStepLike): GenerationStep<AiSdkFinishRaw> {
  const raw: AiSdkFinishRaw = { finishReason: step.finishReason ?? null, rawFinishReason: step.rawFinishReason ?? null };
  switch (raw.finishReason) {
    case 'tool-calls': {
      const calls = step.toolCalls ?? [];
      const [call] = calls;
      if (calls.length !== 1 || call === undefined) {
        return providerStep('failed', `tool-calls with ${calls.length} tool calls; expected exactly one (one tool call per step)`, raw);
      }
      if (call.invalid === true) return providerStep('failed', `invalid tool call ${call.toolName}: ${describe(call.error)}`, raw);
      return toolCallStep(call.toolName, call.input, call.toolCallId, raw);
    }
    case 'stop':
      return giveUpStep(STOPPED_WITHOUT_FINISH, raw);
    case 'length':
      return providerStep('token_limit', `generation cut short at the provider's token limit (raw ${JSON.stringify(raw.rawFinishReason)})`, raw);
    case 'content-filter':
      return giveUpStep('content filtered', raw);
    case 'error':
    case 'other':
    case 'interrupted':
      return providerStep('failed', `generation ended with finishReason ${raw.finishReason} (raw ${JSON.stringify(raw.rawFinishReason)})`, raw);
    default:
      return providerStep('failed', `unexpected finishReason ${JSON.stringify(raw.finishReason)}`, raw);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : error === undefined ? 'no detail' : String(error);
}
