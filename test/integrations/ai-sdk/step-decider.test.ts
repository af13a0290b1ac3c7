import { generateText, tool, type StepResult } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import type { StopDecision } from '../../../src/core/policy/stop-decision.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import { STOP_POLICY_VERSION } from '../../../src/core/policy/stop-policy-document.js';
import { setStopObserver, type StopRunEnd } from '../../../src/core/stop-observer.js';
import { hardCapStopWhen } from '../../../src/integrations/ai-sdk/hard-cap-stop-when.js';
import { stepDecider } from '../../../src/integrations/ai-sdk/step-decider.js';
import { createScriptedClient } from '../../../src/testing/scripted-client.js';
import { ACCEPTANCE, DONE, FAIL, NONE, NOT_DONE, PASS, TASK } from './fixtures.js';
import { toolCallResult } from './mock-model.js';

afterEach(() => {
  setStopObserver(undefined);
});

const tools = {
  lookup: tool({
    inputSchema: z.object({ path: z.string() }),
    execute: async (): Promise<string> => {
      throw new Error('ENOENT: no such file');
    },
  }),
  edit: tool({ inputSchema: z.object({ line: z.number() }), execute: async () => 'edited line 3' }),
  finish: tool({ inputSchema: z.unknown(), execute: async () => 'noted' }),
};
type Tools = typeof tools;

/** The steps of a real generateText run: a failing `lookup`, an `edit`, a malformed `finish`, then a `finish` done. */
async function recordedSteps(): Promise<ReadonlyArray<StepResult<Tools>>> {
  const model = new MockLanguageModelV3({
    doGenerate: [
      toolCallResult('lookup', { path: 'src/paginate.ts' }, 'c1', 'Looking.'),
      toolCallResult('edit', { line: 3 }, 'c2', 'Editing.'),
      toolCallResult('finish', { kind: 'give_up', note: '' }, 'c3'),
      toolCallResult('finish', { kind: 'done', note: 'Fixed the bound.' }, 'c4', 'Done.'),
    ],
  });
  const result = await generateText({
    model,
    prompt: TASK,
    tools,
    stopWhen: hardCapStopWhen(4),
  });
  expect(result.steps).toHaveLength(4);
  return result.steps;
}

/** A document with no criteria: it decides on the evidence alone. */
const evidencePolicy = parseStopPolicy({
  version: STOP_POLICY_VERSION,
  name: 'evidence',
  rules: [
    { id: 'done', when: { all: [{ signal: 'done' }, { tests: 'passed' }] }, then: { kind: 'stop', exit: 'success', reason: 'done' } },
    { id: 'tool_errors', when: { limit: { of: 'toolErrors', max: 3 } }, then: { kind: 'stop', exit: 'failed', reason: 'tool_errors' } },
  ],
});

describe('stepDecider', () => {
  it('decides each step on its event: number, progress text, tool steps, usage, failed calls, tests and finish signal', async () => {
    const steps = await recordedSteps();
    const tested: number[] = [];
    const seen: [StopDecision, StopEvent][] = [];
    const decideStep = stepDecider<Tools>(
      {
        policy: evidencePolicy,
        readTests: (so) => (tested.push(so.length), so.length < 4 ? FAIL : PASS),
        onDecision: (decision, event) => void seen.push([decision, event]),
      },
      'test',
    );
    for (let n = 1; n <= 4; n++) await decideStep(steps.slice(0, n));
    expect(tested).toEqual([1, 2, 3, 4]);
    const [first, second, third, fourth] = seen.map(([, event]) => event);
    expect(first).toEqual({
      step: 1,
      output: 'Looking.\n[lookup {"path":"src/paginate.ts"}]',
      steps: [{ tool: 'lookup', input: { path: 'src/paginate.ts' }, output: 'Error: ENOENT: no such file', error: true }],
      usage: { inputTokens: 12, outputTokens: 6, toolErrors: 1 },
      tests: FAIL,
    });
    expect(second).toMatchObject({ step: 2, steps: [{ tool: 'edit', output: 'edited line 3', error: false }], usage: { inputTokens: 12, outputTokens: 6 } });
    expect(second?.usage).not.toHaveProperty('toolErrors');
    // A malformed finish call is no signal: the tool's own result tells the model why.
    expect(third).not.toHaveProperty('signal');
    expect(fourth).toMatchObject({ step: 4, signal: { kind: 'done', note: 'Fixed the bound.' }, tests: PASS });
    expect(seen.map(([decision]) => [decision.kind, decision.rule])).toEqual([
      ['continue', null],
      ['continue', null],
      ['continue', null],
      ['stop', 'done'],
    ]);
  });

  it('asks the decision model only when the decision depends on it, and counts each call in the event', async () => {
    const steps = await recordedSteps();
    const client = createScriptedClient([NOT_DONE, DONE]);
    const evidence = [NONE, FAIL, PASS];
    const seen: [StopDecision, StopEvent][] = [];
    const decideStep = stepDecider<Tools>(
      { client, task: TASK, acceptance: ACCEPTANCE, readTests: (so) => evidence[so.length - 1] ?? PASS, onDecision: (d, e) => void seen.push([d, e]) },
      'test',
    );
    expect(await decideStep(steps.slice(0, 1))).toMatchObject({ kind: 'retry', rule: 'no_tests_ran' });
    expect(client.calls).toHaveLength(0);
    expect(seen[0]?.[1]).not.toHaveProperty('probabilities');
    expect(await decideStep(steps.slice(0, 2))).toMatchObject({ kind: 'retry', rule: 'tests_failed' });
    expect(await decideStep(steps.slice(0, 3))).toMatchObject({ kind: 'stop', exit: 'success', rule: 'tests_and_criteria_passed' });
    expect(client.calls.map((call) => call.state)).toEqual([
      { task: TASK, output: 'Looking.\n\nEditing.', acceptance: ACCEPTANCE, tests: { passed: false, failed: ['paginate > last page'], ran: 31 } },
      { task: TASK, output: 'Looking.\n\nEditing.', acceptance: ACCEPTANCE, tests: { passed: true, failed: [], ran: 31 } },
    ]);
    expect(seen[1]?.[1]).toMatchObject({ probabilities: NOT_DONE, usage: { decisionModelCalls: 1 } });
    expect(seen[2]?.[1]).toMatchObject({ probabilities: DONE, usage: { decisionModelCalls: 1 } });
  });

  it('keeps the engine state per run: a run goes on from its own step, another starts afresh', async () => {
    const runA = await recordedSteps();
    const runB = await recordedSteps();
    const seen: StopEvent[] = [];
    const policy = parseStopPolicy({
      version: STOP_POLICY_VERSION,
      rules: [{ id: 'two_errors', when: { limit: { of: 'toolErrors', max: 2 } }, then: { kind: 'stop', exit: 'failed', reason: 'two_errors' } }],
    });
    const decideStep = stepDecider<Tools>({ policy, onDecision: (_, event) => void seen.push(event) }, 'test');
    // Each run has one failed call (its first step): two runs never add up to two in one run.
    expect(await decideStep(runA.slice(0, 1))).toMatchObject({ kind: 'continue' });
    expect(await decideStep(runB.slice(0, 1))).toMatchObject({ kind: 'continue' });
    expect(await decideStep(runA.slice(0, 2))).toMatchObject({ kind: 'continue', values: { step: 2 } });
    expect(seen.map((event) => event.step)).toEqual([1, 1, 2]);
    // The same step of a run again is a replay of the step already decided, not a second step.
    expect(await decideStep(runA.slice(0, 2))).toMatchObject({ kind: 'continue', values: { step: 2 } });
    expect(await decideStep([])).toBeUndefined();
  });

  it('reports the end of a run to the stop observer once, when it stops', async () => {
    const steps = await recordedSteps();
    const ends: StopRunEnd[] = [];
    setStopObserver({ runEnd: (end) => void ends.push(end) });
    const decideStep = stepDecider<Tools>({ policy: evidencePolicy, readTests: () => PASS }, 'test');
    for (let n = 1; n <= 3; n++) await decideStep(steps.slice(0, n));
    expect(ends).toEqual([]);
    await decideStep(steps);
    expect(ends).toMatchObject([{ driver: 'ai-sdk', decision: { kind: 'stop', exit: 'success', rule: 'done' }, totals: { inputTokens: 48, outputTokens: 24, toolErrors: 1 } }]);
  });

  it('rejects with what the test reader or the decision model throws, and decides nothing', async () => {
    const steps = await recordedSteps();
    const broken = new Error('the test runner crashed');
    const seen: StopDecision[] = [];
    const onDecision = (d: StopDecision) => void seen.push(d);
    await expect(stepDecider<Tools>({ policy: evidencePolicy, readTests: () => Promise.reject(broken), onDecision }, 'test')(steps.slice(0, 1))).rejects.toBe(broken);
    await expect(
      stepDecider<Tools>({ client: createScriptedClient([]), task: TASK, acceptance: ACCEPTANCE, readTests: () => PASS, onDecision }, 'test')(steps.slice(0, 1)),
    ).rejects.toThrow(/the script has 0 replies/);
    expect(seen).toEqual([]);
  });

  it('names the caller in the errors of its options', () => {
    expect(() => stepDecider<Tools>(null as never, 'completionGate')).toThrow(/^completionGate needs options, got null$/);
    expect(() => stepDecider<Tools>({ task: TASK, acceptance: ACCEPTANCE, readTests: () => PASS } as never, 'completionGate')).toThrow(/^completionGate: the default policy/);
  });
});
