import { tool, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DecisionModelClient } from '../../../src/decision-model/decision-model-client.js';
import { DecisionModelError } from '../../../src/decision-model/decision-model-error.js';
import type { CompletionDecision } from '../../../src/loop/completion-loop.js';
import { runGenerateTextCompletionLoop } from '../../../src/integrations/ai-sdk/generate-text-completion-loop.js';
import { createScriptedClient } from '../../../src/testing/scripted-client.js';
import { ACCEPTANCE, DONE, FAIL, NONE, NOT_DONE, PASS, TASK, UNSURE } from './fixtures.js';
import { textResult, toolCallResult } from './mock-model.js';

function readFileTool(reads: string[]) {
  return tool({
    description: 'Read a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      reads.push(path);
      return `export function paginate() { /* ${path} */ }`;
    },
  });
}

/** The engine's feedback on the failing test, with the runner's message for it. */
const FAILED_FEEDBACK = '1 test failed: paginate > last page. Fix it and run the tests again before you finish.\n- paginate > last page: expected [7] to equal []';

describe('runGenerateTextCompletionLoop', () => {
  it('carries the conversation forward and tells the model why on retry; step 3 sees steps 1 and 2', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallResult('readFile', { path: 'src/paginate.ts' }, 'call-1', 'Let me look at the code.'),
        textResult('Changed the loop bound to i <= pages.'),
        textResult('Ran the suite; the last page is returned and an empty list gives no pages.'),
      ],
    });
    const reads: string[] = [];
    const evidence = [FAIL, NONE, PASS];
    const client = createScriptedClient([NOT_DONE, DONE]);
    const decisions: CompletionDecision[] = [];
    const result = await runGenerateTextCompletionLoop({
      model,
      system: 'You are a careful engineer.',
      prompt: TASK,
      tools: { readFile: readFileTool(reads) },
      client,
      task: TASK,
      acceptance: ACCEPTANCE,
      readTests: ({ step }) => evidence[step - 1] ?? PASS,
      onDecision: (decision) => void decisions.push(decision),
    });

    expect(result).toMatchObject({ action: 'stop_done', reason: 'tests_and_criteria_passed', step: 3 });
    expect(result.text).toBe('Ran the suite; the last page is returned and an empty list gives no pages.');
    expect(reads).toEqual(['src/paginate.ts']);
    expect(decisions.map((d) => [d.reason, d.evaluated])).toEqual([
      ['tests_failed', true],
      ['no_tests_ran', false],
      ['tests_and_criteria_passed', true],
    ]);
    // Each decision is the projection of the engine's decision, which it carries.
    expect(decisions.map((d) => [d.decision?.kind, d.decision?.rule])).toEqual([
      ['retry', 'tests_failed'],
      ['retry', 'no_tests_ran'],
      ['stop', 'tests_and_criteria_passed'],
    ]);

    expect(model.doGenerateCalls).toHaveLength(3);
    const third = model.doGenerateCalls[2]!.prompt;
    expect(third.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'assistant', 'user']);
    expect(third[0]).toEqual({ role: 'system', content: 'You are a careful engineer.' });
    expect(third[1]?.content).toEqual([{ type: 'text', text: TASK }]);
    expect(third[2]?.content).toEqual([
      { type: 'text', text: 'Let me look at the code.' },
      expect.objectContaining({ type: 'tool-call', toolCallId: 'call-1', toolName: 'readFile', input: { path: 'src/paginate.ts' } }),
    ]);
    expect(third[3]?.content).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolCallId: 'call-1',
        output: { type: 'text', value: 'export function paginate() { /* src/paginate.ts */ }' },
      }),
    ]);
    expect(third[4]?.content).toEqual([
      { type: 'text', text: FAILED_FEEDBACK },
    ]);
    expect(third[5]?.content).toEqual([{ type: 'text', text: 'Changed the loop bound to i <= pages.' }]);
    expect(third[6]?.content).toEqual([
      { type: 'text', text: 'No tests ran: there is no test result for this step. Run the test suite and make it pass before you finish.' },
    ]);
    expect(model.doGenerateCalls[1]!.prompt).toEqual(third.slice(0, 5));

    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant', 'user', 'assistant']);
    expect(result.messages[3]).toEqual({
      role: 'user',
      content: FAILED_FEEDBACK,
    });

    expect(client.calls).toHaveLength(2);
    expect(client.calls[0]?.state).toEqual({
      task: TASK,
      output: 'Let me look at the code.',
      acceptance: ACCEPTANCE,
      tests: { passed: false, ran: 31, failed: ['paginate > last page'] },
    });
    expect(Object.keys(client.calls[0]!.questions)).toEqual(['acceptanceCovered', 'noOpenQuestions']);
  });

  it('names the criteria below the threshold and repeats the acceptance list on a mid-band retry', async () => {
    const model = new MockLanguageModelV3({ doGenerate: [textResult('Changed the bound.'), textResult('Changed the bound and covered the empty list.')] });
    const result = await runGenerateTextCompletionLoop({
      model,
      prompt: TASK,
      client: createScriptedClient([UNSURE, DONE]),
      task: TASK,
      acceptance: ACCEPTANCE,
      readTests: () => PASS,
    });
    expect(result).toMatchObject({ action: 'stop_done', step: 2 });
    const reason = model.doGenerateCalls[1]!.prompt.at(-1);
    expect(reason?.role).toBe('user');
    // The criteria below the threshold, then the task and its acceptance list to check the work against.
    expect(reason?.content).toEqual([
      {
        type: 'text',
        text: [
          'The decision model is not convinced the task is done: acceptanceCovered = 0.55 (each must reach 0.7). Check your work against every acceptance criterion, finish what is missing or say what blocks you.',
          '',
          `Task: ${TASK}`,
          'Acceptance criteria:',
          '- the last partial page is returned',
          '- an empty list gives no pages',
        ].join('\n'),
      },
    ]);
  });

  it('hands off with evidence_contradicts_model when the tests fail while the decision model says done', async () => {
    const model = new MockLanguageModelV3({ doGenerate: [textResult('Everything works now.')] });
    const result = await runGenerateTextCompletionLoop({
      model,
      prompt: TASK,
      client: createScriptedClient([DONE]),
      task: TASK,
      acceptance: ACCEPTANCE,
      readTests: () => FAIL,
    });
    expect(result).toMatchObject({ action: 'handoff_human', reason: 'evidence_contradicts_model', step: 1, text: 'Everything works now.' });
    expect(result.decision).toMatchObject({ rule: 4, evaluated: true, model: 'scripted', probabilities: DONE });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('hands off as stalled when the model repeats itself on the same failing tests', async () => {
    const same = 'I changed the loop bound.';
    const model = new MockLanguageModelV3({ doGenerate: [textResult(same), textResult(same), textResult(same), textResult(same)] });
    const client = createScriptedClient([NOT_DONE, NOT_DONE, NOT_DONE]);
    const result = await runGenerateTextCompletionLoop({ model, prompt: TASK, client, task: TASK, acceptance: ACCEPTANCE, readTests: () => FAIL });
    expect(result).toMatchObject({ action: 'handoff_human', reason: 'stalled', step: 3 });
    expect(result.decision.evaluated).toBe(false);
    expect(client.calls).toHaveLength(2);
  });

  it('hands off with hard_cap at the cap, without asking the decision model on the last step', async () => {
    const model = new MockLanguageModelV3({ doGenerate: [textResult('one'), textResult('two'), textResult('three'), textResult('four')] });
    const client = createScriptedClient([UNSURE, UNSURE, UNSURE]);
    const result = await runGenerateTextCompletionLoop({
      model,
      prompt: TASK,
      client,
      task: TASK,
      acceptance: ACCEPTANCE,
      readTests: () => PASS,
      maxSteps: 3,
    });
    expect(result).toMatchObject({ action: 'handoff_human', reason: 'hard_cap', step: 3, text: 'three' });
    expect(client.calls).toHaveLength(2);
    expect(model.doGenerateCalls).toHaveLength(3);
  });

  it('starts from a given conversation', async () => {
    const model = new MockLanguageModelV3({ doGenerate: [textResult('Done: both criteria hold.')] });
    const prompt: ModelMessage[] = [
      { role: 'user', content: 'Earlier question' },
      { role: 'assistant', content: 'Earlier answer' },
      { role: 'user', content: TASK },
    ];
    const result = await runGenerateTextCompletionLoop({ model, prompt, client: createScriptedClient([DONE]), task: TASK, acceptance: ACCEPTANCE, readTests: () => PASS });
    expect(result.action).toBe('stop_done');
    expect(model.doGenerateCalls[0]!.prompt.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(result.messages).toHaveLength(4);
    expect(prompt).toHaveLength(3);
  });

  it('rejects, and never decides, when the decision model fails or answers badly', async () => {
    const run = (client: DecisionModelClient) =>
      runGenerateTextCompletionLoop({
        model: new MockLanguageModelV3({ doGenerate: [textResult('x')] }),
        prompt: TASK,
        client,
        task: TASK,
        acceptance: ACCEPTANCE,
        readTests: () => PASS,
      });
    const down = new DecisionModelError('server', 'the decision model answered 503', { status: 503 });
    await expect(run(createScriptedClient([down]))).rejects.toBe(down);
    const invalid = (error: unknown) => DecisionModelError.isInstance(error) && error.kind === 'invalid_response';
    await expect(run(createScriptedClient([{ acceptanceCovered: 1.5, noOpenQuestions: 0.9 }]))).rejects.toSatisfy(invalid);
    await expect(run(createScriptedClient([{ acceptanceCovered: 0.9 }]))).rejects.toThrow(/did not answer the question "noOpenQuestions"/);
    const handWritten: DecisionModelClient = {
      evaluate: async () => ({ model: 'loose', answers: { acceptanceCovered: { probability: 1.5 }, noOpenQuestions: { probability: 1 } } }),
    };
    await expect(run(handWritten)).rejects.toSatisfy(invalid);
    await expect(run({} as DecisionModelClient)).rejects.toThrow(/client must be an? DecisionModelClient/);
  });

});
