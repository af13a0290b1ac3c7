// completionGate inside AI SDK 7's own loop (generateText, streamText, ToolLoopAgent), with a scripted V4 model:
// a "done" on red is refused by steering the failures in, the fix then ends the run in success; a model that
// never fixes is handed off; tool steps are not disturbed; an error rejects the run.
import { generateText, streamText, ToolLoopAgent } from 'ai-v7';
import { Experimental_DecisionMockModelV4 } from 'ai-v7/test';
import { describe, expect, it } from 'vitest';
import { completionGate, decisionModelClient } from '../../../../src/integrations/ai-sdk/index.js';
import { DecisionModelError, type StopDecision } from '../../../../src/index.js';
import { createScriptedClient } from '../../../../src/testing/index.js';
import { asAiV7Settings, project, promptTexts, scriptedModel } from './model-script.js';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const SKIP = NODE_MAJOR < 22;
if (SKIP) console.warn(`skipped: AI SDK 7 needs Node 22 or later; this is Node ${process.versions.node}`);

const task = 'Make add(2, 3) return 5';
const acceptance = ['add returns the sum of its arguments'];

/** A decision model that is convinced exactly when the state it reads says the tests passed. */
function judge() {
  const states: unknown[] = [];
  const model = new Experimental_DecisionMockModelV4({
    provider: 'test',
    modelId: 'judge-1',
    doDecide: async ({ state, questions }) => {
      states.push(state);
      const passed = JSON.stringify(state).includes('"passed":true');
      const answers = Object.fromEntries(Object.keys(questions).map((id) => [id, { type: 'boolean' as const, probability: passed ? 0.92 : 0.3 }]));
      return { answers, usage: { inputTokens: 40, outputTokens: 2 }, warnings: [] };
    },
  });
  return { client: decisionModelClient(model), states };
}

describe.skipIf(SKIP)('completionGate with AI SDK 7', () => {
  it('refuses a "done" on red inside generateText by steering the failure in; the fix ends the run in success', async () => {
    const work = project();
    const model = scriptedModel([{ tool: 'edit', input: { fix: false } }, { text: 'Done.' }, { tool: 'edit', input: { fix: true } }, { text: 'Fixed: add sums now.' }]);
    const decisions: StopDecision[] = [];
    const gate = completionGate({ client: judge().client, task, acceptance, readTests: work.readTests, onDecision: (decision) => void decisions.push(decision) });
    const result = await generateText({ model, tools: work.tools, prompt: task, ...asAiV7Settings(gate) });

    expect(model.doGenerateCalls).toHaveLength(4);
    // The tool step after the first edit was not disturbed: its next prompt ends with the tool result, no user message.
    expect(promptTexts(model.doGenerateCalls[1]!.prompt).at(-1)).toMatch(/^tool:/);
    // The "done" on red: the next call reads the failed test with its message as a user message.
    const steered = promptTexts(model.doGenerateCalls[2]!.prompt).at(-1);
    expect(steered).toMatch(/^user: 1 test failed: math > adds\. Fix it and run the tests again before you finish\./);
    expect(steered).toContain('math > adds: expected 5, got -1');
    expect(result.text).toBe('Fixed: add sums now.');
    // The fixing edit is already a success: the model still finishes its turn, and its final answer ends the run.
    expect(decisions.map((decision) => decision.kind)).toEqual(['retry', 'retry', 'stop', 'stop']);
    expect(gate.decision).toMatchObject({ kind: 'stop', exit: 'success', rule: 'tests_and_criteria_passed' });
    expect(work.edits).toEqual([false, true]);
  });

  it('hands off a model that says "done" on red and never fixes, within the policy (a stall), and says so', async () => {
    const work = project();
    const model = scriptedModel([{ text: 'Done.' }]);
    const gate = completionGate({ client: createScriptedClient(() => ({ acceptanceCovered: 0.3, noOpenQuestions: 0.3 })), task, acceptance, readTests: work.readTests });
    await generateText({ model, tools: work.tools, prompt: task, ...asAiV7Settings(gate) });

    expect(gate.decision).toMatchObject({ kind: 'stop', exit: 'need_help', rule: 'stalled' });
    expect(model.doGenerateCalls).toHaveLength(3);
  });

  it('lets a run end at once when the first final answer is done on green', async () => {
    const work = project();
    const model = scriptedModel([{ tool: 'edit', input: { fix: true } }, { text: 'Fixed.' }]);
    const gate = completionGate({ client: judge().client, task, acceptance, readTests: work.readTests });
    const result = await generateText({ model, tools: work.tools, prompt: task, ...asAiV7Settings(gate) });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(result.text).toBe('Fixed.');
    expect(gate.decision).toMatchObject({ kind: 'stop', exit: 'success' });
  });

  it('does the same inside streamText', async () => {
    const work = project();
    const model = scriptedModel([{ text: 'Done.' }, { tool: 'edit', input: { fix: true } }, { text: 'Fixed.' }]);
    const gate = completionGate({ client: judge().client, task, acceptance, readTests: work.readTests });
    const result = streamText({ model, tools: work.tools, prompt: task, ...asAiV7Settings(gate) });
    expect(await result.text).toBe('Fixed.');
    expect(model.doStreamCalls).toHaveLength(3);
    expect(promptTexts(model.doStreamCalls[1]!.prompt).at(-1)).toMatch(/^user: 1 test failed: math > adds/);
    expect(gate.decision).toMatchObject({ kind: 'stop', exit: 'success' });
  });

  it('gates a ToolLoopAgent: stopWhen on the agent, the steering and onStepFinish on the call', async () => {
    const work = project();
    const model = scriptedModel([{ text: 'Done.' }, { tool: 'edit', input: { fix: true } }, { text: 'Fixed.' }]);
    const gate = completionGate({ client: judge().client, task, acceptance, readTests: work.readTests });
    const agent = new ToolLoopAgent({ model, tools: work.tools, stopWhen: asAiV7Settings(gate).stopWhen });
    const result = await agent.generate({ prompt: task, onStepFinish: asAiV7Settings(gate).onStepFinish, experimental_steering: asAiV7Settings(gate).experimental_steering });
    expect(result.text).toBe('Fixed.');
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(gate.decision).toMatchObject({ kind: 'stop', exit: 'success' });
  });

  it('sends the task and its acceptance criteria with a retry about the criteria (tests green, the model not convinced)', async () => {
    const model = scriptedModel([{ text: 'Done, I think.' }, { text: 'Done: add returns the sum, checked.' }]);
    const client = createScriptedClient([
      { acceptanceCovered: 0.5, noOpenQuestions: 0.9 },
      { acceptanceCovered: 0.9, noOpenQuestions: 0.9 },
    ]);
    const gate = completionGate({ client, task, acceptance, readTests: () => ({ passed: true, failed: [], ran: 3 }) });
    await generateText({ model, prompt: task, ...asAiV7Settings(gate) });
    const steered = promptTexts(model.doGenerateCalls[1]!.prompt).at(-1) ?? '';
    expect(steered).toContain(`Task: ${task}`);
    expect(steered).toContain(`- ${acceptance[0]}`);
    expect(gate.decision).toMatchObject({ kind: 'stop', exit: 'success' });
  });

  it('rejects the run when the decision model fails, never ending it as done', async () => {
    const work = project();
    const model = scriptedModel([{ tool: 'edit', input: { fix: true } }, { text: 'Fixed.' }, { text: 'extra' }]);
    const client = createScriptedClient([new DecisionModelError('server', 'the decision model is down')]);
    const gate = completionGate({ client, task, acceptance, readTests: work.readTests });
    const failure = await generateText({ model, tools: work.tools, prompt: task, ...asAiV7Settings(gate) }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(DecisionModelError.isInstance(failure)).toBe(true);
    expect(gate.decision).toBeUndefined();
  });

  it('counts the tokens of the decision model and reports the decision model state to it once per judged step', async () => {
    const work = project();
    const { client, states } = judge();
    const model = scriptedModel([{ tool: 'edit', input: { fix: true } }, { text: 'Fixed.' }]);
    const gate = completionGate({ client, task, acceptance, readTests: work.readTests });
    await generateText({ model, tools: work.tools, prompt: task, ...asAiV7Settings(gate) });
    // The tool step on green asks (the seed decides green steps on the criteria), the final answer asks once more.
    expect(states).toHaveLength(2);
    expect(JSON.stringify(states[1])).toContain('Fixed.');
  });
});
