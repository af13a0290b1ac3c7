import type { ProviderStep } from './provider-step.js';
import { STOPPED_WITHOUT_FINISH, blockedStep, failedStep, toolCallStep } from './provider-step.js';

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
 * Maps a Gemini candidate to the loop's next step, on `finishReason` first and
 * the `functionCall` parts second (Gemini ends a tool call with `STOP`).
 * `MAX_TOKENS` halts out of budget (tokens), `TOO_MANY_TOOL_CALLS` out of
 * budget (steps), the safety and policy reasons blocked, `CONTINUATION`
 * resumes; every other, null or unknown reason halts as failed.
 *
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export function mapGeminiFinishReason(candidate: GeminiCandidateLike): ProviderStep<string | null> {
  const raw = candidate.finishReason ?? null;
  switch (raw) {
    case 'STOP':
      return stopStep(candidate, raw);
    case 'MAX_TOKENS':
      return { type: 'halt', stop: { kind: 'out_of_budget', limit: 'tokens' }, raw };
    case 'TOO_MANY_TOOL_CALLS':
      return { type: 'halt', stop: { kind: 'out_of_budget', limit: 'steps' }, raw };
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
      return blockedStep(`content blocked (${raw})`, raw);
    case 'LANGUAGE':
      return blockedStep('unsupported language (LANGUAGE)', raw);
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
      return failedStep(`generation ended with finishReason ${raw}`, raw);
    default:
      return failedStep(`unexpected finishReason ${JSON.stringify(raw)}`, raw);
  }
}

function stopStep(candidate: GeminiCandidateLike, raw: string): ProviderStep<string | null> {
  const calls = (candidate.content?.parts ?? []).flatMap((part) => (part.functionCall === undefined ? [] : [part.functionCall]));
  const [call] = calls;
  if (calls.length === 0) return blockedStep(STOPPED_WITHOUT_FINISH, raw);
  if (calls.length > 1 || call === undefined) {
    return failedStep(`STOP with ${calls.length} function calls; expected exactly one (one tool call per turn)`, raw);
  }
  if (typeof call.name !== 'string') return failedStep('function call without a name', raw);
  return toolCallStep(call.name, call.name === 'finish' ? call.args : (call.args ?? {}), call.id, raw);
}
