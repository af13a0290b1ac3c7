import type { ServerResponse } from 'node:http';
import { arrayField, recordOf, writeEvents, writeJson, type ConversationItem, type ModelProtocol } from './model-protocol.js';
import { sampleOfSchema } from './schema-sample.js';
import { offersShell, shellCall, type OfferedTool } from './shell-call.js';

const declarations = (body: unknown): Record<string, unknown>[] =>
  arrayField(body, 'tools').flatMap((tool) => [...arrayField(tool, 'functionDeclarations'), ...arrayField(tool, 'function_declarations')].map(recordOf));

const offeredTools = (body: unknown): OfferedTool[] => declarations(body).map((declaration) => ({ name: String(declaration.name), schema: declaration.parametersJsonSchema ?? declaration.parameters }));

/**
 * What Gemini CLI's utility calls get: the model router a low complexity, the
 * next-speaker check `user`, the loop check a confidence of 0 (no loop).
 */
const SIDE_ANSWERS = { next_speaker: 'user', complexity_score: 1, unproductive_state_confidence: 0, reasoning: 'scripted answer' };

/**
 * The Gemini API (Gemini CLI with `GEMINI_API_KEY` and
 * `GOOGLE_GEMINI_BASE_URL`): `POST /v1beta/models/<model>:streamGenerateContent`
 * answered with one `data:` chunk, `:generateContent` with JSON, and
 * `:countTokens` with a number. A main request declares `run_shell_command`;
 * the utility calls get JSON built from the schema they send.
 */
export const geminiApi: ModelProtocol = {
  name: 'gemini-api',
  classify(method, path, body) {
    if (method !== 'POST') return 'other';
    if (path.endsWith(':countTokens')) return 'count';
    if (/:(stream)?[gG]enerateContent$/.test(path)) return offersShell(offeredTools(body)) ? 'main' : 'side';
    return 'other';
  },
  answerMain(response, path, body, turn) {
    const parts: Record<string, unknown>[] = [];
    if ('say' in turn && turn.say !== undefined) parts.push({ text: turn.say });
    if ('text' in turn) parts.push({ text: turn.text });
    else {
      const call = 'shell' in turn ? shellCall(offeredTools(body), turn.shell) : { name: turn.tool, input: turn.input };
      parts.push({ functionCall: { name: call.name, args: call.input } });
    }
    reply(response, path, parts);
  },
  answerSide(response, path, body, kind) {
    if (kind === 'count') return writeJson(response, { totalTokens: 100 });
    if (kind !== 'side') return writeJson(response, {});
    const config = recordOf(recordOf(body).generationConfig);
    const schema = config.responseJsonSchema ?? config.responseSchema;
    reply(response, path, [{ text: schema === undefined ? 'ok' : JSON.stringify(sampleOfSchema(schema, SIDE_ANSWERS)) }]);
  },
  conversation(body) {
    const items: ConversationItem[] = [];
    for (const content of arrayField(body, 'contents').map(recordOf)) {
      const role = String(content.role);
      for (const part of arrayField(content, 'parts').map(recordOf)) {
        if (typeof part.text === 'string') items.push({ role, text: part.text });
        else if (part.functionCall !== undefined) items.push({ role, text: `[functionCall ${String(recordOf(part.functionCall).name)}] ${JSON.stringify(recordOf(part.functionCall).args)}` });
        else if (part.functionResponse !== undefined) {
          items.push({ role, text: `[functionResponse ${String(recordOf(part.functionResponse).name)}] ${JSON.stringify(recordOf(part.functionResponse).response)}` });
        } else items.push({ role, text: `[${Object.keys(part).join(',')}]` });
      }
    }
    return items;
  },
};

function reply(response: ServerResponse, path: string, parts: readonly Record<string, unknown>[]): void {
  const answer = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion: 'gemini-e2e',
  };
  if (path.includes(':streamGenerateContent')) writeEvents(response, [answer], false);
  else writeJson(response, answer);
}
