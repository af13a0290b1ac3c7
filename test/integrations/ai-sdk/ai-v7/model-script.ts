// A scripted AI SDK 7 language model and a tiny project whose one test fails until the model fixes it: the
// model's turns are V4 `doGenerate` / `doStream` results, consumed one per call.
import { tool } from 'ai-v7';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai-v7/test';
import { z } from 'zod';
import type { TestEvidence } from '../../../../src/index.js';

// The V4 provider types, read off the mock (the top-level @ai-sdk/provider is AI SDK 6's).
type LanguageModelV4GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type LanguageModelV4StreamPart = Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;
type LanguageModelV4Usage = LanguageModelV4GenerateResult['usage'];

/** One model turn: call a tool with an input, or answer with text and end the turn. */
export type Turn = { readonly tool: string; readonly input: unknown } | { readonly text: string };

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function generateResult(turn: Turn, index: number): LanguageModelV4GenerateResult {
  if ('text' in turn) return { content: [{ type: 'text', text: turn.text }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage, warnings: [] };
  return {
    content: [{ type: 'tool-call', toolCallId: `call-${index}`, toolName: turn.tool, input: JSON.stringify(turn.input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage,
    warnings: [],
  };
}

function streamResult(turn: Turn, index: number): { stream: ReadableStream<LanguageModelV4StreamPart> } {
  const parts: LanguageModelV4StreamPart[] =
    'text' in turn
      ? [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: turn.text },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
        ]
      : [
          { type: 'stream-start', warnings: [] },
          { type: 'tool-call', toolCallId: `call-${index}`, toolName: turn.tool, input: JSON.stringify(turn.input) },
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
        ];
  return { stream: convertArrayToReadableStream(parts) };
}

/** A model that plays `turns` in order; after the last it keeps repeating it (a model that never stops saying the same). */
export function scriptedModel(turns: readonly Turn[]): MockLanguageModelV4 {
  const at = (index: number): Turn => turns[Math.min(index, turns.length - 1)] as Turn;
  let generated = 0;
  let streamed = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => generateResult(at(generated), generated++),
    doStream: async () => streamResult(at(streamed), streamed++),
  });
}

/** The user-visible text of every message of a prompt, in order: what the model read. */
export function promptTexts(prompt: ReadonlyArray<{ readonly role: string; readonly content: unknown }>): string[] {
  return prompt.map((message) => {
    if (typeof message.content === 'string') return `${message.role}: ${message.content}`;
    const parts = message.content as ReadonlyArray<{ readonly type: string; readonly text?: string; readonly toolName?: string }>;
    return `${message.role}: ${parts.map((part) => (part.type === 'text' ? part.text : `[${part.type}${part.toolName === undefined ? '' : ` ${part.toolName}`}]`)).join(' ')}`;
  });
}

/** A project with one test, `math > adds`, that fails until the `edit` tool is called with `{ fix: true }`. */
export function project() {
  const edits: boolean[] = [];
  return {
    edits,
    tools: {
      edit: tool({
        description: 'Edit the source',
        inputSchema: z.object({ fix: z.boolean() }),
        execute: async ({ fix }: { fix: boolean }) => {
          edits.push(fix);
          return { edited: true };
        },
      }),
    },
    readTests: (): TestEvidence =>
      edits.includes(true)
        ? { passed: true, failed: [], ran: 1 }
        : { passed: false, failed: ['math > adds'], ran: 1, failures: [{ name: 'math > adds', message: 'expected 5, got -1' }] },
  };
}

/**
 * The gate as AI SDK 7's call options: stopwise's declarations name the installed `ai`'s types, which in this
 * repository are AI SDK 6's; in a project on AI SDK 7 they are that version's and no cast is needed.
 */
export function asAiV7Settings(gate: object): any {
  return gate;
}
