import { generateText, ToolLoopAgent } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { completionStopWhen, createCompletionStopWhen } from '../../../src/integrations/ai-sdk/completion-stop-when.js';
import { editWorkspace as workspace } from './fixtures.js';
import { textResult, toolLoopModel } from './mock-model.js';

describe('createCompletionStopWhen', () => {
  it('stops a real generateText loop as soon as the async check says done', async () => {
    const model = toolLoopModel('edit');
    const ws = workspace(3);
    const seen: number[] = [];
    const result = await generateText({
      model,
      tools: ws.tools,
      prompt: 'Fix paginate',
      stopWhen: createCompletionStopWhen(async (steps) => {
        seen.push(steps.length);
        return ws.readTests().passed;
      }),
    });
    expect(result.steps).toHaveLength(3);
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('accepts a synchronous check that reads the steps', async () => {
    const model = toolLoopModel('edit');
    const result = await generateText({
      model,
      tools: workspace(99).tools,
      prompt: 'Fix paginate',
      stopWhen: createCompletionStopWhen((steps) => steps.at(-1)?.text === 'working on step 2'),
    });
    expect(result.steps).toHaveLength(2);
  });

  it('rejects the loop when the check answers something other than a boolean', async () => {
    const check = (() => Promise.resolve({ action: 'stop_done' })) as unknown as () => boolean;
    await expect(
      generateText({ model: toolLoopModel('edit'), tools: workspace(1).tools, prompt: 'x', stopWhen: createCompletionStopWhen(check) }),
    ).rejects.toThrow(/must return a boolean, got an object/);
  });

  it('lets an error of the check reject the loop instead of stopping it quietly', async () => {
    const failure = new Error('test runner crashed');
    await expect(
      generateText({
        model: toolLoopModel('edit'),
        tools: workspace(1).tools,
        prompt: 'x',
        stopWhen: createCompletionStopWhen(async () => {
          throw failure;
        }),
      }),
    ).rejects.toBe(failure);
  });

  it('needs a function', () => {
    expect(() => createCompletionStopWhen('done' as never)).toThrow(/needs a function, got "done"/);
  });

  it('can only stop early: a "not done" does not make the model take another step after it ends its turn', async () => {
    const model = new MockLanguageModelV3({ doGenerate: [textResult('All fixed, I am done.')] });
    let checks = 0;
    const result = await generateText({
      model,
      tools: workspace(99).tools,
      prompt: 'Fix paginate',
      stopWhen: createCompletionStopWhen(() => {
        checks += 1;
        return false;
      }),
    });
    expect(result.steps).toHaveLength(1);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(checks).toBe(0);
    expect(result.text).toBe('All fixed, I am done.');
  });
});

describe('completionStopWhen', () => {
  it('returns the hard cap and the completion check, in that order', async () => {
    const [cap, check] = completionStopWhen(() => false, 2);
    const twoSteps = { steps: [{}, {}] as never[] };
    expect(await cap(twoSteps)).toBe(true);
    expect(await check(twoSteps)).toBe(false);
  });

  it('stops a real ToolLoopAgent at the cap when the check never says done', async () => {
    const model = toolLoopModel('edit');
    const ws = workspace(99);
    const agent = new ToolLoopAgent({
      model,
      tools: ws.tools,
      stopWhen: completionStopWhen(async () => ws.readTests().passed, 5),
    });
    const result = await agent.generate({ prompt: 'Fix paginate' });
    expect(result.steps).toHaveLength(5);
    expect(ws.edits()).toBe(5);
  });

  it('stops a real ToolLoopAgent before the cap when the check says done', async () => {
    const model = toolLoopModel('edit');
    const ws = workspace(2);
    const agent = new ToolLoopAgent({
      model,
      tools: ws.tools,
      stopWhen: completionStopWhen(async () => ws.readTests().passed, 5),
    });
    const result = await agent.generate({ prompt: 'Fix paginate' });
    expect(result.steps).toHaveLength(2);
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('rejects a bad cap at once', () => {
    expect(() => completionStopWhen(() => true, 0)).toThrow(/maxSteps must be a positive integer, got 0/);
  });
});
