// The AI SDK integration, offline: MockLanguageModelV3 plays the agent, a
// scripted decision model checks its work. Run: npx tsx examples/ai-sdk.ts
import { generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { describeDecision, type TestEvidence } from 'stopwise';
import { hardCapStopWhen, policyStopWhen, runGenerateTextCompletionLoop } from 'stopwise/ai-sdk';
import { createScriptedClient } from 'stopwise/testing';

const task = 'Fix paginate() so that the last partial page is returned.';
const acceptance = ['the last partial page is returned', 'an empty list gives no pages'];

// A one-line workspace: the suite passes once the loop bound is right.
let bound = 'i < pages - 1';
const tools = {
  setBound: tool({
    description: 'Replace the loop bound in paginate()',
    inputSchema: z.object({ bound: z.string() }),
    execute: async (input) => {
      bound = input.bound;
      return `the bound is now ${bound}`;
    },
  }),
};
const runTests = (): TestEvidence =>
  bound === 'i < pages'
    ? { passed: true, failed: [], ran: 31 }
    : { passed: false, failed: ['paginate > last page'], ran: 31, failures: [{ name: 'paginate > last page', message: 'expected [] to equal [7]' }] };

// What the mock model answers, step by step.
const usage = {
  inputTokens: { total: 40, noCache: 40, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 12, text: 12, reasoning: undefined },
};
const callTool = (id: string, input: { bound: string }, text: string) => ({
  content: [
    { type: 'text' as const, text },
    { type: 'tool-call' as const, toolCallId: id, toolName: 'setBound', input: JSON.stringify(input) },
  ],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' },
  usage,
  warnings: [],
});
const say = (text: string) => ({ content: [{ type: 'text' as const, text }], finishReason: { unified: 'stop' as const, raw: 'end_turn' }, usage, warnings: [] });

console.log('1. policyStopWhen ends a generateText tool loop once the tests pass and the decision model agrees');
const decisionModel = createScriptedClient([
  { acceptanceCovered: 0.35, noOpenQuestions: 0.9 },
  { acceptanceCovered: 0.91, noOpenQuestions: 0.88 },
]);
const agent = new MockLanguageModelV3({
  doGenerate: [
    callTool('call-1', { bound: 'i <= pages' }, 'Widening the bound.'),
    callTool('call-2', { bound: 'i < pages' }, 'That overshoots; using i < pages.'),
    callTool('call-3', { bound: 'i < pages' }, 'Checking once more.'),
  ],
});
const result = await generateText({
  model: agent,
  tools,
  prompt: task,
  stopWhen: [
    hardCapStopWhen(10),
    policyStopWhen({
      client: decisionModel,
      task,
      acceptance,
      readTests: runTests,
      onDecision: (decision) => console.log(`   ${describeDecision(decision)}`),
    }),
  ],
});
console.log(`   the loop ran ${result.steps.length} steps; the decision model was asked ${decisionModel.calls.length} times`);

console.log('2. runGenerateTextCompletionLoop refuses an early stop and tells the model why');
bound = 'i < pages - 1';
const decisionModel2 = createScriptedClient([
  { acceptanceCovered: 0.3, noOpenQuestions: 0.9 },
  { acceptanceCovered: 0.55, noOpenQuestions: 0.9 },
  { acceptanceCovered: 0.93, noOpenQuestions: 0.9 },
]);
const agent2 = new MockLanguageModelV3({
  doGenerate: [
    say('Done: paginate() is fixed.'),
    callTool('call-1', { bound: 'i < pages' }, 'Fixing the bound for real.'),
    say('The last partial page is returned, and an empty list gives no pages (covered by paginate > empty).'),
  ],
});
const loop = await runGenerateTextCompletionLoop({
  model: agent2,
  tools,
  prompt: task,
  client: decisionModel2,
  task,
  acceptance,
  readTests: runTests,
  maxSteps: 6,
  onDecision: (decision) => console.log(`   step ${decision.values.step}: ${decision.action} (${decision.reason})`),
});
for (const [index, call] of agent2.doGenerateCalls.entries()) {
  const last = call.prompt.at(-1);
  if (index > 0 && last?.role === 'user') {
    const text = last.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    console.log(`   the model was told before step ${index + 1}: ${text.split('\n')[0]}`);
  }
}
console.log(`   ended: ${loop.action} (${loop.reason}) at step ${loop.step}, ${loop.messages.length} messages in the conversation`);
