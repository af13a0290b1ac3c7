import type { GenerationStep } from './provider-step.js';
import { STOPPED_WITHOUT_FINISH, giveUpStep, providerStep, toolCallStep } from './provider-step.js';

/** The part of a Gemini candidate the mapper reads; the `@google/genai` `Candidate` fits. */
export interface GeminiCandidateLike {
  readonly finishReason?: string | null | undefined;
  readonly content?:
    | {
        readonly parts?:
          | readonly {
              readonly text?: string | undefined;
              readonly functionCall?:
                | { readonly id?: string | undefined; readonly name?: string | undefined; readonly args?: unknown }
                | undefined;
            }[]
          | undefined;
      }
    | null
    | undefined;
}

/**
 * Maps a Gemini candidate to the loop's next step (a tool call, or the step's end for the stop engine), on `finishReason` first and
 * the `functionCall` parts second (Gemini ends a tool call with `STOP`).
 * `MAX_TOKENS` ends the step at the provider's token limit, `TOO_MANY_TOOL_CALLS` the
 * provider's step limit, the safety and policy reasons a `give_up`, `CONTINUATION`
 * resumes; every other, null or unknown reason ends as a generation that could not be read (`failed`).
 *
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export function mapGeminiFinishReason(candidate: GeminiCandidateLike): GenerationStep<string | null> {
  const raw = candidate.finishReason ?? null;
  switch (raw) {
    case 'STOP':
      return stopStep(candidate, raw);
    case 'MAX_TOKENS':
      return providerStep('token_limit', `generation cut short at the provider's token limit (${String(raw)})`, raw);
    case 'TOO_MANY_TOOL_CALLS':
      return providerStep('step_limit', `the provider's limit of tool calls or messages was reached (${String(raw)})`, raw);
    case 'CONTINUATION':
      return { type: 'resume', raw };
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
    case 'MODEL_ARMOR':
      return giveUpStep(`content blocked (${raw})`, raw);
    case 'LANGUAGE':
      return giveUpStep('unsupported language (LANGUAGE)', raw);
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
    case 'MISSING_THOUGHT_SIGNATURE':
    case 'MALFORMED_RESPONSE':
    case 'NO_IMAGE':
    case 'IMAGE_OTHER':
    case 'ESCALATION':
    case 'PUP_LIMITED_DISABLED':
    case 'OTHER':
    case 'FINISH_REASON_UNSPECIFIED':
      return providerStep('failed', `generation ended with finishReason ${raw}`, raw);
    default:
      return providerStep('failed', `unexpected finishReason ${JSON.stringify(raw)}`, raw);
  }
}

function stopStep(candidate: GeminiCandidateLike, raw: string): GenerationStep<string | null> {
  const calls = (candidate.content?.parts ?? []).flatMap((part) => (part.functionCall === undefined ? [] : [part.functionCall]));
  const [call] = calls;
  if (calls.length === 0) return giveUpStep(STOPPED_WITHOUT_FINISH, raw);
  if (calls.length > 1 || call === undefined) {
    return providerStep('failed', `STOP with ${calls.length} function calls; expected exactly one (one tool call per turn)`, raw);
  }
  if (typeof call.name !== 'string') return providerStep('failed', 'function call without a name', raw);
  return toolCallStep(call.name, call.name === 'finish' ? call.args : (call.args ?? {}), call.id, raw);
}
