import type { ServerResponse } from 'node:http';
import { arrayField, recordOf, writeEvents, writeJson, type ConversationItem, type ModelProtocol, type NewId } from './model-protocol.js';
import { offersShell, shellCall, type OfferedTool } from './shell-call.js';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Readonly<Record<string, unknown>> };

const offeredTools = (body: unknown): OfferedTool[] => arrayField(body, 'tools').map((tool) => ({ name: String(recordOf(tool).name), schema: recordOf(tool).input_schema }));

/**
 * The Anthropic Messages API (Claude Code; Copilot CLI with
 * `COPILOT_PROVIDER_TYPE=anthropic`): `POST /v1/messages` answered with the
 * streaming events `message_start` … `message_stop` (text deltas,
 * `tool_use` blocks with `input_json_delta`), or one message when the
 * request is not streamed; `count_tokens` gets a number.
 */
export const anthropicMessages: ModelProtocol = {
  name: 'anthropic-messages',
  classify(method, path, body) {
    if (method !== 'POST') return 'other';
    if (path.endsWith('/count_tokens')) return 'count';
    if (path.endsWith('/messages')) return offersShell(offeredTools(body)) ? 'main' : 'side';
    return 'other';
  },
  answerMain(response, _path, body, turn, newId) {
    const blocks: Block[] = [];
    if ('say' in turn && turn.say !== undefined) blocks.push({ type: 'text', text: turn.say });
    if ('text' in turn) blocks.push({ type: 'text', text: turn.text });
    else {
      const call = 'shell' in turn ? shellCall(offeredTools(body), turn.shell) : { name: turn.tool, input: turn.input };
      blocks.push({ type: 'tool_use', id: newId('toolu_e2e'), name: call.name, input: call.input });
    }
    reply(response, body, blocks, 'text' in turn ? 'end_turn' : 'tool_use', newId);
  },
  answerSide(response, _path, body, kind, newId) {
    if (kind === 'count') writeJson(response, { input_tokens: 100 });
    else if (kind === 'side') reply(response, body, [{ type: 'text', text: 'ok' }], 'end_turn', newId);
    else writeJson(response, {});
  },
  conversation(body) {
    const items: ConversationItem[] = [];
    for (const message of arrayField(body, 'messages').map(recordOf)) {
      const role = String(message.role);
      const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : arrayField(message, 'content').map(recordOf);
      for (const block of blocks) {
        if (block.type === 'text') items.push({ role, text: String(block.text) });
        else if (block.type === 'tool_use') items.push({ role, text: `[tool_use ${String(block.name)}] ${JSON.stringify(block.input)}` });
        else if (block.type === 'tool_result') {
          const content = typeof block.content === 'string' ? block.content : arrayField(block, 'content').map((part) => String(recordOf(part).text ?? '')).join('\n');
          items.push({ role, text: `[tool_result${block.is_error === true ? ' error' : ''}] ${content}` });
        } else items.push({ role, text: `[${String(block.type)}]` });
      }
    }
    return items;
  },
};

function reply(response: ServerResponse, body: unknown, content: readonly Block[], stopReason: 'end_turn' | 'tool_use', newId: NewId): void {
  const id = newId('msg_e2e');
  const model = typeof recordOf(body).model === 'string' ? recordOf(body).model : 'claude-e2e';
  const usage = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (recordOf(body).stream !== true) {
    writeJson(response, { id, type: 'message', role: 'assistant', model, content, stop_reason: stopReason, stop_sequence: null, usage });
    return;
  }
  const events: Record<string, unknown>[] = [
    { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } },
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 10 } });
  events.push({ type: 'message_stop' });
  writeEvents(response, events, true);
}
