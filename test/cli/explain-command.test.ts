import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const POLICY = {
  version: 2,
  rules: [
    { id: 'limit.steps', when: { limit: { of: 'steps', max: 20 } }, then: { kind: 'stop', exit: 'limit', reason: 'hard_cap' } },
    { id: 'stall', when: { stall: { detector: 'identical_fingerprints', rounds: 3 } }, then: { kind: 'stop', exit: 'need_help', reason: 'stalled' } },
    { id: 'red', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'tests_failed' } },
    { id: 'green', when: { tests: 'passed' }, then: { kind: 'stop', exit: 'success', reason: 'done' } },
  ],
};
const RED = { passed: false, failed: ['a > b'], ran: 3 };

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(policy: unknown, events: readonly unknown[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-explain-'));
  folders.push(dir);
  writeFileSync(join(dir, 'policy.json'), typeof policy === 'string' ? policy : JSON.stringify(policy));
  writeFileSync(join(dir, 'events.jsonl'), events.map((event) => (typeof event === 'string' ? event : JSON.stringify(event))).join('\n'));
  return dir;
}

describe('stopwise explain', () => {
  it('prints, per event, the rule that fired and why each earlier rule did not', async () => {
    const cwd = project(POLICY, [
      { step: 1, tests: RED, output: 'x' },
      { step: 2, tests: RED, output: 'x' },
      { step: 3, tests: RED, output: 'x' },
    ]);
    const run = await runCli(['explain', '--policy', 'policy.json', 'events.jsonl'], { cwd });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('line 2: retry at step 2 by rule red (tests_failed): 1 test failed: a > b\n');
    expect(run.stdout).toContain('  limit.steps: not fired (limit.steps: 2 < 20)\n  stall: not fired (stall.identical: 2 of 3 identical)');
    expect(run.stdout).toContain('line 3: stop (need_help) at step 3 by rule stall (stalled): the last 3 steps made no progress (identical test results and output)\n  limit.steps: not fired (limit.steps: 3 < 20)\n');
  });

  it('prints one JSON object per event with --json', async () => {
    const cwd = project(POLICY, [{ step: 1, tests: { passed: true, failed: [], ran: 2 } }]);
    const run = await runCli(['explain', '--policy', 'policy.json', '--json', 'events.jsonl'], { cwd });
    expect(run.code).toBe(0);
    const [item] = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { line: number; decision: { kind: string; rule: string; trace: unknown[] } });
    expect(item).toMatchObject({ line: 1, step: 1, decision: { kind: 'stop', exit: 'success', rule: 'green' } });
    expect(item?.decision.trace).toHaveLength(3);
  });

  it('refuses a policy with the JSON path of the problem, and decides nothing', async () => {
    const bad = { version: 2, rules: [{ id: 'x', when: { all: [{ tests: 'failed' }, { atLeast: { count: 2, of: [{ always: true }] } }] }, then: { kind: 'stop', exit: 'success', reason: 'x' } }] };
    const cwd = project(bad, [{ step: 1 }]);
    const run = await runCli(['explain', '--policy', 'policy.json', 'events.jsonl'], { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('stopwise explain: policy.json: rules[0].when.all[1].atLeast.count: must not exceed the number of conditions in "of"\n');
    const notJson = await runCli(['explain', '--policy', 'policy.json', 'events.jsonl'], { cwd: project('{ "version": 2,', [{ step: 1 }]) });
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^stopwise explain: policy\.json: not valid JSON/);
    const v1 = await runCli(['explain', '--policy', 'policy.json', 'events.jsonl'], { cwd: project({ ...POLICY, version: 1 }, [{ step: 1 }]) });
    expect(v1.code).toBe(1);
    expect(v1.stderr).toMatch(/^stopwise explain: policy\.json: version: version 1 is the format of stopwise 0\.1; /);
  });

  it('decides with the seed preset when the policy file holds its numbers', async () => {
    const cwd = project({ maxSteps: 2 }, [{ step: 1, tests: RED, probabilities: { a: 0.2 } }, { step: 2, tests: RED, probabilities: { a: 0.2 } }]);
    const run = await runCli(['explain', '--policy', 'policy.json', '--json', 'events.jsonl'], { cwd });
    expect(run.stderr).toBe('');
    const items = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { decision: { kind: string; rule: string } });
    expect(items.map((item) => [item.decision.kind, item.decision.rule])).toEqual([
      ['retry', 'tests_failed'],
      ['stop', 'hard_cap'],
    ]);
  });

  it('names the line of an event it cannot decide, after printing the ones before it', async () => {
    const cwd = project(POLICY, [{ step: 5, tests: RED }, '{"step": 6, "usage": {"costUsd": 1}}', { step: 7 }]);
    const run = await runCli(['explain', '--policy', 'policy.json', 'events.jsonl'], { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^line 1: retry/);
    expect(run.stderr).toBe(
      'stopwise explain: events.jsonl:2: unknown usage counter "costUsd" in event.usage; expected one of inputTokens, outputTokens, cost, toolErrors, decisionModelCalls, decisionModelCost\n',
    );
    const broken = await runCli(['explain', '--policy', 'policy.json', 'events.jsonl'], { cwd: project(POLICY, ['{"step": 1,']) });
    expect(broken.stderr).toMatch(/^stopwise explain: events\.jsonl:1: not valid JSON/);
  });

  it('exits 2 on a usage error', async () => {
    const cwd = project(POLICY, []);
    expect((await runCli(['explain', 'events.jsonl'], { cwd })).code).toBe(2);
    expect((await runCli(['explain', '--policy', 'policy.json'], { cwd })).code).toBe(2);
    const help = await runCli(['explain', '--help'], { cwd });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: stopwise explain --policy/);
  });
});
