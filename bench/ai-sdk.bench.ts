// What the AI SDK integration adds to a real generateText loop driven by
// MockLanguageModelV3 (no network, so the figures are the loop's own cost).
import { generateText, stepCountIs, tool, type ModelMessage, type StopCondition } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import type { DecisionModelClient, TestEvidence } from '../src/index.js';
import {
  completionStopWhen,
  hardCapStopWhen,
  policyStopWhen,
  runGenerateTextCompletionLoop,
} from '../src/integrations/ai-sdk/index.js';
import { collect, formatBytes, measure, printTable } from './harness.js';

const STEPS = 20;
const TASK = 'Fix paginate() so that the last partial page is returned.';
const ACCEPTANCE = ['the last partial page is returned'];
const FAILING: TestEvidence = { passed: false, failed: ['paginate > last page'], ran: 31 };
const usage = {
  inputTokens: { total: 40, noCache: 40, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 12, text: 12, reasoning: undefined },
};

/** A model that calls `edit` on every step with a new input, so no stall ends the loop early. */
function editingModel(): MockLanguageModelV3 {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doGenerate: async () => {
      const step = model.doGenerateCalls.length;
      return {
        content: [
          { type: 'text', text: `Attempt ${step}: adjusting the loop bound.` },
          { type: 'tool-call', toolCallId: `call-${step}`, toolName: 'edit', input: JSON.stringify({ step }) },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage,
        warnings: [],
      };
    },
  });
  return model;
}

const tools = {
  edit: tool({ description: 'Edit', inputSchema: z.object({ step: z.number() }), execute: async ({ step }) => `edited ${step}` }),
};

/** A decision model that answers at once: the cost measured is stopwise's, not a network's. */
const instantClient: DecisionModelClient = {
  evaluate: async () => ({ model: 'instant', answers: { acceptanceCovered: { probability: 0.3 }, noOpenQuestions: { probability: 0.9 } } }),
};

async function toolLoop(stopWhen: StopCondition<typeof tools> | Array<StopCondition<typeof tools>>): Promise<number> {
  const result = await generateText({ model: editingModel(), tools, prompt: TASK, stopWhen });
  if (result.steps.length !== STEPS) throw new Error(`expected ${STEPS} steps, got ${result.steps.length}`);
  return result.steps.length;
}

export default async function run(): Promise<void> {
  const recorded = await generateText({ model: editingModel(), tools, prompt: TASK, stopWhen: stepCountIs(STEPS) });
  const prefixes = Array.from({ length: STEPS }, (_, i) => ({ steps: recorded.steps.slice(0, i + 1) }));
  // A policy condition keeps its run's state: a new one for each run of 20 checks, made as a run would make it.
  const conditions: Record<string, () => StopCondition<typeof tools>> = {
    'stepCountIs(20) (the SDK alone)': () => stepCountIs(STEPS),
    'hardCapStopWhen(20)': () => hardCapStopWhen(STEPS),
    'policyStopWhen (tests read, model asked)': () => policyStopWhen({ client: instantClient, task: TASK, acceptance: ACCEPTANCE, readTests: () => FAILING }),
    'policyStopWhen (no tests ran: model not asked)': () =>
      policyStopWhen({
        client: instantClient,
        task: TASK,
        acceptance: ACCEPTANCE,
        readTests: () => ({ passed: false, failed: [], ran: 0 }),
      }),
  };
  const perCall: Record<string, () => unknown> = {};
  for (const [name, make] of Object.entries(conditions)) {
    let i = 0;
    let condition = make();
    perCall[name] = () => {
      if (i % STEPS === 0) condition = make();
      return condition(prefixes[i++ % STEPS]!);
    };
  }
  const [cap, check] = completionStopWhen<typeof tools>(() => false, STEPS);
  let k = 0;
  perCall['completionStopWhen (cap + a sync check)'] = () => {
    const options = prefixes[k++ % STEPS]!;
    return Promise.all([cap(options), check(options)]);
  };
  const calls = await measure(perCall, { timeMs: 1000, warmupMs: 300 });
  printTable(
    'ai-sdk: one stop-condition check after a step (real StepResults of a 20-step run, a new condition every 20 checks; decision model answers at once)',
    ['stopWhen', 'mean', 'p50', 'checks/s'],
    Object.entries(calls).map(([name, r]) => [name, `${r.meanUs.toFixed(2)} us`, `${r.p50Us.toFixed(2)} us`, Math.round(r.opsPerSecond).toLocaleString('en')]),
  );

  const loops = await measure(
    {
      'stepCountIs(20) (the SDK alone)': () => toolLoop(stepCountIs(STEPS)),
      'hardCap + policyStopWhen (judged every step)': () =>
        toolLoop([hardCapStopWhen(STEPS), policyStopWhen({ client: instantClient, task: TASK, acceptance: ACCEPTANCE, readTests: () => FAILING })]),
    },
    { timeMs: 1500, warmupMs: 300 },
  );
  printTable(
    `ai-sdk: one whole ${STEPS}-step generateText tool loop on MockLanguageModelV3, for scale`,
    ['stopWhen', 'per loop', 'per step'],
    Object.entries(loops).map(([name, r]) => [name, `${(r.meanUs / 1000).toFixed(2)} ms`, `${(r.meanUs / STEPS).toFixed(1)} us`]),
  );

  const manual = await measure(
    {
      'naive: re-send the first prompt each round': async () => {
        const model = editingModel();
        for (let step = 1; step <= STEPS; step++) await generateText({ model, tools, prompt: TASK, stopWhen: stepCountIs(1) });
      },
      'by hand, carrying the conversation (no stopwise)': async () => {
        const model = editingModel();
        const messages: ModelMessage[] = [{ role: 'user', content: TASK }];
        for (let step = 1; step <= STEPS; step++) {
          if (step > 1) messages.push({ role: 'user', content: 'Not done yet: 1 test failed. Fix it, then finish.\n- paginate > last page' });
          const result = await generateText({ model, tools, messages: [...messages], stopWhen: stepCountIs(1) });
          messages.push(...result.response.messages);
        }
      },
      'runGenerateTextCompletionLoop (carries the conversation)': async () => {
        const result = await runGenerateTextCompletionLoop({
          model: editingModel(),
          tools,
          prompt: TASK,
          client: instantClient,
          task: TASK,
          acceptance: ACCEPTANCE,
          readTests: () => FAILING,
          maxSteps: STEPS,
        });
        if (result.step !== STEPS) throw new Error(`expected ${STEPS} steps, got ${result.step}`);
      },
    },
    { timeMs: 1500, warmupMs: 300 },
  );
  printTable(
    `ai-sdk: a ${STEPS}-step manual loop, one generateText call per step`,
    ['loop', 'per loop', 'per step'],
    Object.entries(manual).map(([name, r]) => [name, `${(r.meanUs / 1000).toFixed(2)} ms`, `${(r.meanUs / STEPS).toFixed(1)} us`]),
  );

  const runs = 1000;
  const condition = policyStopWhen({ client: instantClient, task: TASK, acceptance: ACCEPTANCE, readTests: () => FAILING });
  collect();
  const before = process.memoryUsage().heapUsed;
  for (let r = 0; r < runs; r++) {
    const steps = recorded.steps.map((step) => Object.create(step) as typeof step);
    for (let n = 1; n <= steps.length; n++) await condition({ steps: steps.slice(0, n) });
  }
  collect();
  const held = process.memoryUsage().heapUsed - before;
  printTable(
    `ai-sdk: heap held by one policyStopWhen condition after ${runs.toLocaleString('en')} runs of ${STEPS} steps (forced GC, condition still alive)`,
    ['condition', 'heap held'],
    [['policyStopWhen', formatBytes(held)]],
  );
}
