import type { StallStep } from '../../core/stall-detection/stall-step.js';

/** The part of a Vercel AI SDK step result the adapter reads (`StepResult` fits). */
export interface AiSdkStallStepLike {
  readonly text?: string | undefined;
  readonly content?: readonly AiSdkPartLike[] | undefined;
  readonly toolCalls?: readonly AiSdkPartLike[] | undefined;
  readonly toolResults?: readonly AiSdkPartLike[] | undefined;
}

/** A content part of an AI SDK step: `tool-call`, `tool-result`, `tool-error` or text. */
export interface AiSdkPartLike {
  readonly type?: string | undefined;
  readonly toolCallId?: string | undefined;
  readonly toolName?: string | undefined;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly error?: unknown;
}

/**
 * The stall steps of one AI SDK step: one per tool call, with its result or
 * its error (failed calls are `tool-error` parts, absent from `toolResults`),
 * or a message step with the step's text when it called no tool.
 *
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/generate-text#steps
 */
export function stallStepsFromAiSdkStep(step: AiSdkStallStepLike): StallStep[] {
  const parts = step.content ?? [...(step.toolCalls ?? []).map((p) => ({ ...p, type: 'tool-call' })), ...(step.toolResults ?? []).map((p) => ({ ...p, type: 'tool-result' }))];
  const calls = parts.filter((part) => part.type === 'tool-call');
  if (calls.length === 0) return [{ text: step.text ?? '' }];
  const outcomes = new Map<string, AiSdkPartLike>();
  for (const part of parts) if ((part.type === 'tool-result' || part.type === 'tool-error') && part.toolCallId !== undefined) outcomes.set(part.toolCallId, part);
  return calls.map((call) => {
    const base: StallStep = { tool: call.toolName ?? '', input: call.input };
    const outcome = call.toolCallId === undefined ? undefined : outcomes.get(call.toolCallId);
    if (outcome === undefined) return base;
    if (outcome.type === 'tool-error') return { ...base, output: valueText(outcome.error), error: true };
    return { ...base, output: valueText(outcome.output), error: false };
  });
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
