import type { ServerResponse } from 'node:http';
import { arrayField, recordOf, writeEvents, writeJson, type ConversationItem, type ModelProtocol, type NewId } from './model-protocol.js';
import { sampleOfSchema } from './schema-sample.js';
import { offersShell, shellCall, type OfferedTool } from './shell-call.js';

const offeredTools = (body: unknown): OfferedTool[] =>
  arrayField(body, 'tools')
    .map(recordOf)
    .filter((tool) => tool.type === 'function' || typeof tool.name === 'string')
    .map((tool) => ({ name: String(tool.name ?? recordOf(tool.function).name), schema: tool.parameters ?? recordOf(tool.function).parameters }));

type OutputItem = Readonly<Record<string, unknown>> & { readonly type: 'message' | 'function_call' };

const message = (newId: NewId, text: string): OutputItem => ({
  type: 'message',
  id: newId('msg_e2e'),
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});

/**
 * The OpenAI Responses API (Codex with a model provider of `wire_api =
 * "responses"`): `POST <base>/responses` answered with the streaming events
 * `response.created` … `response.completed`; `GET <base>/models` gets an
 * empty list. A main request offers Codex's shell tool (`exec_command`).
 */
export const openaiResponses: ModelProtocol = {
  name: 'openai-responses',
  classify(method, path, body) {
    if (method === 'GET' && path.endsWith('/models')) return 'models';
    if (method !== 'POST') return 'other';
    if (path.endsWith('/responses')) return offersShell(offeredTools(body)) ? 'main' : 'side';
    return 'other';
  },
  answerMain(response, _path, body, turn, newId) {
    const items: OutputItem[] = [];
    if ('say' in turn && turn.say !== undefined) items.push(message(newId, turn.say));
    if ('text' in turn) items.push(message(newId, turn.text));
    else {
      const call = 'shell' in turn ? shellCall(offeredTools(body), turn.shell) : { name: turn.tool, input: turn.input };
      items.push({ type: 'function_call', id: newId('fc_e2e'), call_id: newId('call_e2e'), name: call.name, arguments: JSON.stringify(call.input), status: 'completed' });
    }
    reply(response, body, items, newId);
  },
  answerSide(response, _path, body, kind, newId) {
    if (kind === 'models') return writeJson(response, { object: 'list', data: [], models: [] });
    if (kind !== 'side') return writeJson(response, {});
    const schema = recordOf(recordOf(recordOf(body).text).format).schema;
    reply(response, body, [message(newId, schema === undefined ? 'ok' : JSON.stringify(sampleOfSchema(schema)))], newId);
  },
  conversation(body) {
    const items: ConversationItem[] = [];
    for (const item of arrayField(body, 'input').map(recordOf)) {
      if (item.type === 'message' || item.role !== undefined) {
        const parts = typeof item.content === 'string' ? [{ text: item.content }] : arrayField(item, 'content').map(recordOf);
        for (const part of parts) items.push({ role: String(item.role), text: typeof part.text === 'string' ? part.text : `[${String(part.type)}]` });
      } else if (item.type === 'function_call') items.push({ role: 'assistant', text: `[function_call ${String(item.name)}] ${String(item.arguments)}` });
      else if (item.type === 'function_call_output') {
        items.push({ role: 'tool', text: `[function_call_output] ${typeof item.output === 'string' ? item.output : JSON.stringify(item.output)}` });
      } else items.push({ role: String(item.type), text: `[${String(item.type)}]` });
    }
    return items;
  },
};

function reply(response: ServerResponse, body: unknown, items: readonly OutputItem[], newId: NewId): void {
  const id = newId('resp_e2e');
  const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 };
  const model = typeof recordOf(body).model === 'string' ? recordOf(body).model : 'e2e';
  const base = { id, object: 'response', created_at: 1_700_000_000, model, status: 'in_progress', output: [] };
  if (recordOf(body).stream === false) {
    writeJson(response, { ...base, status: 'completed', output: items, usage });
    return;
  }
  const events: Record<string, unknown>[] = [{ type: 'response.created', response: base }];
  items.forEach((item, index) => {
    if (item.type === 'message') {
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress', content: [] } });
      const text = String(recordOf(arrayField(item, 'content')[0]).text);
      events.push({ type: 'response.output_text.delta', item_id: item.id, output_index: index, content_index: 0, delta: text });
    } else {
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress', arguments: '' } });
      events.push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: index, delta: item.arguments });
    }
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  events.push({ type: 'response.completed', response: { ...base, status: 'completed', output: items, usage } });
  writeEvents(response, events, true);
}
