import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import type { HookHost } from '../../src/hosts/hook-host.js';
import { hostOutputProblems } from '../hosts/host-output-schemas.js';
import { startLoopbackDecisionModel, systemOneAnswer, type LoopbackReply } from '../hosts/loopback-decision-model.js';
import { HOOK_FREE_ENV, runCli, type CliRun } from './run-cli.js';

const RED = "printf 'TAP version 13\\n1..3\\nok 1 - login works\\nnot ok 2 - auth > rejects expired token\\nnot ok 3 - auth > refreshes\\n'; exit 1";
const GREEN = "printf 'TAP version 13\\n1..2\\nok 1 - login works\\nok 2 - auth > rejects expired token\\n'";
const NONE = 'echo nothing to see';

/** A custom policy: failing tests retry with the engine's feedback, passing tests stop, anything else goes to a person. */
const CUSTOM = {
  version: 1,
  name: 'custom',
  rules: [
    { id: 'red', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'fix_the_tests' } },
    { id: 'green', when: { tests: 'passed' }, then: { kind: 'stop', exit: 'success', reason: 'green' } },
    { id: 'rest', when: { always: true }, then: { kind: 'stop', exit: 'need_help', reason: 'no_evidence' } },
  ],
};

function project(config: Record<string, unknown>, tests: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-hook-policy-'));
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'sh run-tests.sh' }, ...config }));
  writeFileSync(join(dir, 'run-tests.sh'), `${tests}\n`);
  return dir;
}

function stop(dir: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ session_id: 'session-1', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done', ...extra });
}

async function hook(host: HookHost, dir: string, input: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCli(['hook', host], { cwd: dir, input, env: { ...HOOK_FREE_ENV, ...env }, timeoutMs: 60_000 });
}

function answer(host: HookHost, run: CliRun): Record<string, unknown> | undefined {
  expect(run.code, run.stderr).toBe(0);
  if (run.stdout === '') return undefined;
  const output = JSON.parse(run.stdout) as Record<string, unknown>;
  expect(hostOutputProblems(host, output)).toEqual([]);
  return output;
}

function sessionState(dir: string): Record<string, unknown> {
  const stateDir = join(dir, '.stopwise/state');
  const file = readdirSync(stateDir).find((name) => name.endsWith('.json'));
  return JSON.parse(readFileSync(join(stateDir, file as string), 'utf8')) as Record<string, unknown>;
}

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

describe('stopwise hook with a stop policy document in the configuration', () => {
  it('decides with an inline document: its retry blocks with the feedback, a second block in a row is handed off', async () => {
    const dir = project({ policy: CUSTOM }, RED);
    const first = answer('claude-code', await hook('claude-code', dir, stop(dir)));
    expect(first).toEqual({ decision: 'block', reason: expect.stringMatching(/^Not done yet \(fix_the_tests, rule red\): 2 tests failed: auth > rejects expired token, auth > refreshes\.$/) });
    // The engine's state of the span is saved with the session, beside the span's counters.
    expect(sessionState(dir)).toMatchObject({ step: 1, consecutiveBlocks: 1, stopState: { version: 1, step: 1, retries: 1 } });
    const second = answer('claude-code', await hook('claude-code', dir, stop(dir, { stop_hook_active: true, last_assistant_message: 'again' })));
    expect(Object.keys(second ?? {})).toEqual(['systemMessage']);
    expect(second?.systemMessage).toMatch(/asked to block again \(retry \(fix_the_tests\) at step 2 by rule red.*after 1 block in a row \(maxConsecutiveBlocks\)/);
    expect(sessionState(dir)).toMatchObject({ step: 0, consecutiveBlocks: 0 });
    expect(sessionState(dir).stopState).toBeUndefined();
  });

  it('answers each host from the same decision: allow, hand-off and block', async () => {
    for (const host of ['claude-code', 'codex', 'cursor'] as const) {
      const green = project({ policy: CUSTOM }, GREEN);
      expect(answer(host, await hook(host, green, stop(green, { hook_event_name: host === 'cursor' ? 'stop' : 'Stop' })))).toEqual(host === 'cursor' ? {} : undefined);
      const none = project({ policy: CUSTOM }, NONE);
      const handoff = await hook(host, none, stop(none, { hook_event_name: host === 'cursor' ? 'stop' : 'Stop' }));
      const line = /^stopwise: the stop policy handed this stop to a person \(stop \(need_help: no_evidence\) at step 1 by rule rest\)/;
      if (host === 'cursor') expect(answer(host, handoff)).toEqual({});
      else expect(answer(host, handoff)?.systemMessage).toMatch(line);
      expect(handoff.stderr).toMatch(/stopwise: the stop policy handed this stop to a person/);
      const red = project({ policy: CUSTOM }, RED);
      const block = answer(host, await hook(host, red, stop(red, { hook_event_name: host === 'cursor' ? 'stop' : 'Stop' })));
      if (host === 'cursor') expect(block?.followup_message).toMatch(/^Not done yet \(fix_the_tests, rule red\)/);
      else expect(block).toMatchObject({ decision: 'block', reason: expect.stringMatching(/^Not done yet \(fix_the_tests, rule red\)/) });
    }
  });

  it('reads a document from the file "policy" names, and a bad one lets the stop go ahead with a message naming the JSON path', async () => {
    const dir = project({ policy: 'stop-policy.json' }, RED);
    writeFileSync(join(dir, 'stop-policy.json'), JSON.stringify(CUSTOM));
    expect(answer('codex', await hook('codex', dir, stop(dir)))).toMatchObject({ decision: 'block', reason: expect.stringMatching(/rule red/) });

    const bad = { ...CUSTOM, rules: [CUSTOM.rules[0], { ...CUSTOM.rules[1], when: { all: [{ tests: 'passed' }, { atLeast: { count: 3, of: [{ always: true }] } }] } }] };
    for (const config of [{ policy: 'stop-policy.json' }, { policy: bad }]) {
      const broken = project(config, GREEN);
      writeFileSync(join(broken, 'stop-policy.json'), JSON.stringify(bad));
      const run = await hook('claude-code', broken, stop(broken));
      const output = answer('claude-code', run);
      expect(Object.keys(output ?? {})).toEqual(['systemMessage']);
      const where = typeof config.policy === 'string' ? 'stop-policy\\.json: rules\\[1\\]' : 'policy\\.rules\\[1\\]';
      expect(output?.systemMessage).toMatch(new RegExp(`^stopwise: the configuration is invalid \\(.*${where}\\.when\\.all\\[1\\]\\.atLeast: count must be an integer in \\[1, 1\\], got 3`));
      expect(output?.systemMessage).toMatch(/the stop was allowed unchecked\. Fix the file; a person should look\.$/);
    }
  });

  it('round trip: calibrate --policy-out writes a document that replay --policy and the hook configuration read, per task type', async () => {
    const dir = project({}, GREEN);
    const root = join(import.meta.dirname, '..', '..');
    const calibrated = await runCli(['calibrate', join(root, 'examples/cases/labelled-cases.jsonl'), '--seed', '3', '--alpha', '0.1', '--policy-out', 'policy.json', '--json'], {
      cwd: dir,
      env: HOOK_FREE_ENV,
      timeoutMs: 120_000,
    });
    expect(calibrated.code, calibrated.stderr).toBe(0);
    const byTaskType = (JSON.parse(calibrated.stdout) as { result: { byTaskType: Record<string, { policy: { doneThreshold: number } | null }> } }).result.byTaskType;
    const document = parseStopPolicy(JSON.parse(readFileSync(join(dir, 'policy.json'), 'utf8')));
    const replay = await runCli(['replay', '--policy', 'policy.json', join(root, 'examples/traces')], { cwd: dir, env: HOOK_FREE_ENV, timeoutMs: 60_000 });
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/^policy: calibrated \(\d+ rules: hard_cap, stalled, no_tests_ran, /);

    // The bugfix threshold: just below it the hook blocks, at it the hook lets the agent stop.
    const threshold = byTaskType.bugfix?.policy?.doneThreshold as number;
    expect(document.rules.find((rule) => rule.id === 'bugfix.tests_and_criteria_passed')).toBeDefined();
    const answers: LoopbackReply[] = [
      systemOneAnswer({ acceptanceCovered: Math.max(0, threshold - 0.01), noOpenQuestions: 0.99 }),
      systemOneAnswer({ acceptanceCovered: threshold, noOpenQuestions: 0.99 }),
    ];
    const server = await startLoopbackDecisionModel((_request, index) => answers[index] ?? { status: 500 });
    closeServer = server.close;
    writeFileSync(
      join(dir, 'stopwise.config.json'),
      JSON.stringify({
        task: 'Fix the token check',
        acceptance: ['expired tokens get a 401'],
        tests: { command: 'sh run-tests.sh' },
        judge: { client: 'system-one', baseURL: server.baseURL, model: 'system-one', apiKeyEnv: 'STOPWISE_TEST_KEY', timeoutMs: 120_000 },
        policy: 'policy.json',
        taskType: 'bugfix',
        maxConsecutiveBlocks: 3,
      }),
    );
    const env = { STOPWISE_TEST_KEY: 'test-key-123' };
    const first = answer('claude-code', await hook('claude-code', dir, stop(dir), env));
    expect(first).toMatchObject({ decision: 'block', reason: expect.stringContaining('acceptanceCovered') });
    const second = await hook('claude-code', dir, stop(dir, { stop_hook_active: true, last_assistant_message: 'covered it' }), env);
    expect(answer('claude-code', second)).toBeUndefined();
    expect(server.requests).toHaveLength(2);

    // A task type the document has no rules for is refused, naming the ones it has.
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'sh run-tests.sh' }, policy: 'policy.json', taskType: 'docs' }));
    const refused = answer('claude-code', await hook('claude-code', dir, stop(dir)));
    expect(refused?.systemMessage).toMatch(/policy\.json: no rule reads task type "docs" \(a \{ "taskType": \.\.\. \} condition\); it has bugfix, feature, refactor/);
  }, 240_000);
});
