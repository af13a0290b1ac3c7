import type { StallStep } from '../core/stall-detection/stall-step.js';
import { contentText, type ContentLike } from './content-text.js';

/** The part of an Anthropic assistant message (and of the user message answering it) the adapter reads. */
export interface AnthropicTurnLike {
  readonly content: ContentLike | readonly AnthropicBlockLike[];
}

/** An Anthropic content block: text, a tool call or a tool result. */
export interface AnthropicBlockLike {
  readonly type: string;
  readonly text?: string | undefined;
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  readonly input?: unknown;
  readonly tool_use_id?: string | undefined;
  readonly content?: ContentLike;
  readonly is_error?: boolean | undefined;
}

/**
 * The stall steps of one Anthropic exchange: one per `tool_use` block of the
 * assistant message, with the `tool_result` of the user message that answers
 * it, or a message step (`text`) when the assistant called no tool.
 *
 * @see https://docs.anthropic.com/en/docs/build-with-claude/tool-use
 */
export function stallStepsFromAnthropic(assistant: AnthropicTurnLike, reply?: AnthropicTurnLike): StallStep[] {
  const blocks = (Array.isArray(assistant.content) ? assistant.content : []) as readonly AnthropicBlockLike[];
  const results = new Map<string, AnthropicBlockLike>();
  const replyBlocks = (reply !== undefined && Array.isArray(reply.content) ? reply.content : []) as readonly AnthropicBlockLike[];
  for (const block of replyBlocks) if (block.type === 'tool_result' && block.tool_use_id !== undefined) results.set(block.tool_use_id, block);
  const calls = blocks.filter((block) => block.type === 'tool_use');
  if (calls.length === 0) {
    const text = typeof assistant.content === 'string' ? assistant.content : contentText(blocks as ContentLike);
    const answer = reply === undefined ? '' : typeof reply.content === 'string' ? reply.content : contentText(replyBlocks as ContentLike);
    return [answer === '' ? { text } : { text, output: answer }];
  }
  return calls.map((call) => {
    const result = call.id === undefined ? undefined : results.get(call.id);
    const step: StallStep = { tool: call.name ?? '', input: call.input };
    if (result === undefined) return step;
    return { ...step, output: contentText(result.content), error: result.is_error === true };
  });
}
