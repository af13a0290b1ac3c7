import { MockLanguageModelV3 } from 'ai/test';

/** One result of the mock model's `doGenerate`, as `ai/test` types it. */
export type MockResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
/** One recorded call of the mock model. */
export type MockCall = MockLanguageModelV3['doGenerateCalls'][number];

const usage: MockResult['usage'] = {
  inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 6, text: 6, reasoning: undefined },
};

/** A model step that answers with text and ends its turn. */
export function textResult(text: string): MockResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage, warnings: [] };
}

/** A model step that calls one tool (and may say something first). */
export function toolCallResult(toolName: string, input: unknown, toolCallId: string, text?: string): MockResult {
  return {
    content: [
      ...(text === undefined ? [] : [{ type: 'text' as const, text }]),
      { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage,
    warnings: [],
  };
}

/** A mock model that calls `toolName` on every step, with a fresh call id and the step number as input. */
export function toolLoopModel(toolName: string): MockLanguageModelV3 {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doGenerate: async () => {
      const step = model.doGenerateCalls.length;
      return toolCallResult(toolName, { step }, `call-${step}`, `working on step ${step}`);
    },
  });
  return model;
}

/** Every text the model was sent in one call, in order (user, assistant, tool and system parts). */
export function promptText(call: MockCall): string {
  const parts: string[] = [];
  for (const message of call.prompt) {
    if (typeof message.content === 'string') {
      parts.push(`${message.role}: ${message.content}`);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text') parts.push(`${message.role}: ${part.text}`);
      else if (part.type === 'tool-call') parts.push(`${message.role}: call ${part.toolName} ${JSON.stringify(part.input)}`);
      else if (part.type === 'tool-result') parts.push(`${message.role}: result ${part.toolName} ${JSON.stringify(part.output)}`);
    }
  }
  return parts.join('\n');
}
