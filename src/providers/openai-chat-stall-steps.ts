import type { StallStep } from '../core/stall-detection/stall-step.js';
import { contentText, type ContentLike } from './content-text.js';

/** The part of an OpenAI Chat Completions assistant message the adapter reads. */
export interface OpenAIChatAssistantLike {
  readonly content?: ContentLike;
  readonly tool_calls?:
    | readonly { readonly id: string; readonly function: { readonly name: string; readonly arguments: string } }[]
    | null
    | undefined;
}

/** An OpenAI Chat Completions `tool` message answering a call. */
export interface OpenAIChatToolMessageLike {
  readonly tool_call_id: string;
  readonly content: ContentLike;
}

/**
 * The stall steps of one OpenAI Chat Completions exchange: one per tool call
 * of the assistant message (its JSON arguments parsed when they parse), with
 * the `tool` message that answers it, or a message step when it called no tool.
 *
 * @see https://platform.openai.com/docs/guides/function-calling
 */
export function stallStepsFromOpenAIChat(
  assistant: OpenAIChatAssistantLike,
  toolMessages: readonly OpenAIChatToolMessageLike[] = [],
): StallStep[] {
  const calls = assistant.tool_calls ?? [];
  if (calls.length === 0) return [{ text: contentText(assistant.content) }];
  const answers = new Map(toolMessages.map((message) => [message.tool_call_id, message]));
  return calls.map((call) => {
    const step: StallStep = { tool: call.function.name, input: parseArguments(call.function.arguments) };
    const answer = answers.get(call.id);
    return answer === undefined ? step : { ...step, output: contentText(answer.content) };
  });
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
