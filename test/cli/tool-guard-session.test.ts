import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookHost } from '../../src/hosts/hook-host.js';
import { hostOutputProblems } from '../hosts/host-output-schemas.js';
import { codexToolInputProblems, toolHookOutputProblems } from '../hosts/tool-hook-schemas.js';
import { HOOK_FREE_ENV, runCli, type CliRun } from './run-cli.js';

const GREEN = "printf 'TAP version 13\\n1..1\\nok 1 - works\\n'";
const FAILURE = 'Error: Cannot find module ./token-check\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)\nnpm ERR! Test failed.';

function project(config: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-tools-'));
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'sh run-tests.sh' }, ...config }));
  writeFileSync(join(dir, 'run-tests.sh'), `${GREEN}\n`);
  return dir;
}

function hook(host: HookHost, dir: string, input: unknown): Promise<CliRun> {
  return runCli(['hook', host], { cwd: dir, input: typeof input === 'string' ? input : JSON.stringify(input), env: HOOK_FREE_ENV, timeoutMs: 60_000 });
}

function toolStates(dir: string): string[] {
  const stateDir = join(dir, '.stopwise/state');
  return existsSync(stateDir) ? readdirSync(stateDir).filter((name) => name.endsWith('.tools.json')) : [];
}

function toolState(dir: string): Record<string, unknown> {
  const [file] = toolStates(dir);
  expect(file).toBeDefined();
  return JSON.parse(readFileSync(join(dir, '.stopwise/state', file as string), 'utf8')) as Record<string, unknown>;
}

/** What a host sends, and how its answers read, for one session. */
interface Host {
  readonly host: HookHost;
  readonly preEvent: string;
  pre(dir: string, command: string, extra?: Record<string, unknown>): Record<string, unknown>;
  post(dir: string, command: string, output: string, failed: boolean, extra?: Record<string, unknown>): Record<string, unknown>;
  stop(dir: string): Record<string, unknown>;
  /** The refusal's reason, or `undefined` when the call may run. */
  refusal(output: Record<string, unknown> | undefined): string | undefined;
  /** The context the agent gets without a refusal (on Cursor, the line on stderr). */
  context(output: Record<string, unknown> | undefined, run: CliRun): string | undefined;
  /** The hand-off a stop shows the person. */
  handOff(output: Record<string, unknown> | undefined, run: CliRun): string | undefined;
}

const claudeStyle = (host: 'claude-code' | 'codex'): Host => ({
  host,
  preEvent: 'PreToolUse',
  pre: (dir, command, extra = {}) => ({
    session_id: 'session-1',
    transcript_path: null,
    cwd: dir,
    model: 'model-1',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: `call-${Math.random().toString(36).slice(2)}`,
    ...extra,
  }),
  post: (dir, command, output, failed, extra = {}) => {
    const common = { session_id: 'session-1', transcript_path: null, cwd: dir, model: 'model-1', permission_mode: 'default', tool_name: 'Bash', tool_use_id: 'call-x' };
    if (host === 'codex') {
      // Codex sends PostToolUse for a failed command too; the text says it failed.
      return { ...common, turn_id: 'turn-1', hook_event_name: 'PostToolUse', tool_input: { command }, tool_response: failed ? `${output}\nExit code: 1` : output, ...extra };
    }
    return failed
      ? { ...common, hook_event_name: 'PostToolUseFailure', tool_input: { command, description: 'run it' }, error: `Exit code 1\n${output}`, ...extra }
      : { ...common, hook_event_name: 'PostToolUse', tool_input: { command, description: 'run it' }, tool_response: { stdout: output, stderr: '', interrupted: false }, ...extra };
  },
  stop: (dir) => ({ session_id: 'session-1', transcript_path: null, cwd: dir, model: 'model-1', permission_mode: 'default', hook_event_name: 'Stop', stop_hook_active: false, turn_id: 'turn-1', last_assistant_message: 'Still failing.' }),
  refusal: (output) => {
    const specific = output?.hookSpecificOutput as Record<string, unknown> | undefined;
    return specific?.permissionDecision === 'deny' ? (specific.permissionDecisionReason as string) : undefined;
  },
  context: (output) => (output?.hookSpecificOutput as Record<string, unknown> | undefined)?.additionalContext as string | undefined,
  handOff: (output) => output?.systemMessage as string | undefined,
});

const cursor: Host = {
  host: 'cursor',
  preEvent: 'beforeShellExecution',
  pre: (dir, command, extra = {}) => ({ conversation_id: 'conv-1', generation_id: 'gen-1', workspace_roots: [dir], hook_event_name: 'beforeShellExecution', command, cwd: dir, ...extra }),
  post: (dir, command, output, failed, extra = {}) => ({
    conversation_id: 'conv-1',
    generation_id: 'gen-1',
    workspace_roots: [dir],
    hook_event_name: 'afterShellExecution',
    command,
    cwd: dir,
    output: failed ? `${output}\nexit status 1` : output,
    duration: 120,
    ...extra,
  }),
  stop: (dir) => ({ conversation_id: 'conv-1', generation_id: 'gen-1', workspace_roots: [dir], hook_event_name: 'stop', status: 'completed', loop_count: 0 }),
  refusal: (output) => (output?.permission === 'deny' ? (output.agent_message as string) : undefined),
  context: (_output, run) => (/stopwise: .*If you run it again unchanged it will be refused/.test(run.stderr) ? run.stderr : undefined),
  handOff: (_output, run) => (/the agent needs a person/.test(run.stderr) ? run.stderr : undefined),
};

const HOSTS: readonly Host[] = [claudeStyle('claude-code'), claudeStyle('codex'), cursor];

/** Runs a tool hook and reads its answer, checked against the host's schema; exit 0 always. */
async function toolAnswer(h: Host, dir: string, input: Record<string, unknown>): Promise<{ output: Record<string, unknown> | undefined; run: CliRun }> {
  if (h.host === 'codex') expect(codexToolInputProblems(input.hook_event_name as 'PreToolUse' | 'PostToolUse', stripUnknown(input))).toEqual([]);
  const run = await hook(h.host, dir, input);
  expect(run.code, run.stderr).toBe(0);
  if (run.stdout === '') return { output: undefined, run };
  const output = JSON.parse(run.stdout) as Record<string, unknown>;
  expect(toolHookOutputProblems(h.host, input.hook_event_name as string, output)).toEqual([]);
  return { output, run };
}

/** A payload without the fields a newer host version may add, for the schema of the version the fixtures hold. */
function stripUnknown(input: Record<string, unknown>): Record<string, unknown> {
  const { future_field: _future, ...rest } = input;
  return rest;
}

describe.each(HOSTS)('stopwise hook $host: tool guard sessions through the CLI', { timeout: 120_000 }, (h) => {
  it('answers the same failing command run six times with two silent runs, a nudge, a refusal naming the repeats, and a hand-off at the stop', async () => {
    const dir = project();
    const answers: string[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      const { output, run } = await toolAnswer(h, dir, h.pre(dir, 'npm test'));
      const refused = h.refusal(output);
      if (refused !== undefined) {
        answers.push('deny');
        expect(refused).toMatch(/stopwise refused this call \(`Bash|Shell` `npm test`\): it repeats\./);
        expect(refused).toMatch(/It has repeated \d+ times since step 1 \(\d{4}-\d\d-\d\dT[\d:.]+Z\); refused (once|\d+ times) so far/);
        expect(refused).toMatch(/Cannot find module \.\/token-check/);
        continue;
      }
      answers.push(h.context(output, run) === undefined ? 'none' : 'context');
      if (answers.at(-1) === 'none') expect(run.stdout).toBe('');
      // a call the guard lets run runs, and fails again
      const after = await toolAnswer(h, dir, h.post(dir, 'npm test', FAILURE, true));
      expect(after.run.stdout).toBe('');
    }
    expect(answers).toEqual(['none', 'none', 'context', 'deny', 'deny', 'deny']);
    expect(toolState(dir)).toMatchObject({ totals: { recorded: 3, nudges: 1, refusals: 3, handOffs: 1 } });

    const stop = await hook(h.host, dir, h.stop(dir));
    expect(stop.code, stop.stderr).toBe(0);
    const stopOutput = stop.stdout === '' ? undefined : (JSON.parse(stop.stdout) as Record<string, unknown>);
    expect(hostOutputProblems(h.host, stopOutput ?? {})).toEqual([]);
    if (h.host === 'cursor') expect(stopOutput).toEqual({});
    else expect(Object.keys(stopOutput ?? {})).toEqual(['systemMessage']);
    const handOff = h.handOff(stopOutput, stop);
    expect(handOff).toMatch(/the agent needs a person\. The agent keeps repeating `(Bash|Shell)` `npm test`/);
    expect(handOff).toMatch(/\nTried: It ran it \d+ times since step 1 .*refused the call 3 times\./);
    expect(handOff).toMatch(/\nEvidence: .*Cannot find module \.\/token-check/);
    expect(handOff).toMatch(/\nAfter your answer: .*starts counting afresh/);

    // after the hand-off the guard counts afresh: the same command runs unguarded
    const fresh = await toolAnswer(h, dir, h.pre(dir, 'npm test'));
    expect(fresh.run.stdout).toBe('');
    expect(toolState(dir)).toMatchObject({ calls: [], ladder: null, handOff: null });
  });

  it('never refuses a polling loop whose output changes, failing or not', async () => {
    const dir = project();
    for (const failed of [false, true]) {
      const command = failed ? 'kubectl rollout status deploy/api' : 'curl -s localhost:8080/health';
      for (let poll = 1; poll <= 12; poll++) {
        const { output } = await toolAnswer(h, dir, h.pre(dir, command));
        expect(h.refusal(output)).toBeUndefined();
        const text = failed ? `Waiting for deployment rollout: ${poll} of 12 updated replicas are available...` : `{"ready": ${poll}, "of": 12}`;
        await toolAnswer(h, dir, h.post(dir, command, text, failed));
      }
    }
    expect(toolState(dir)).toMatchObject({ totals: { recorded: 24, refusals: 0, handOffs: 0 }, handOff: null });
    const stop = await hook(h.host, dir, h.stop(dir));
    expect(stop.code).toBe(0);
    expect(stop.stderr).not.toMatch(/needs a person/);
  }, 180_000);

  it('loses no step when 8 tool calls finish at once', async () => {
    const dir = project();
    const runs = await Promise.all(Array.from({ length: 8 }, (_, index) => hook(h.host, dir, h.post(dir, `node task-${index}.js`, `task ${index} done`, false))));
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('');
    }
    const state = toolState(dir);
    expect(state).toMatchObject({ totals: { recorded: 8 }, stall: { steps: 8 } });
    expect((state.calls as unknown[]).length).toBe(8);
    expect(readdirSync(join(dir, '.stopwise/state')).filter((name) => name.endsWith('.lock') || name.endsWith('.tmp'))).toEqual([]);
  }, 120_000);

  it('recovers a corrupt or foreign state file with a warning and goes on guarding', async () => {
    for (const text of ['{"version": 1, "stall": ', JSON.stringify({ version: 1, step: 0, consecutiveBlocks: 0 }), JSON.stringify({ version: 7 }), '[]']) {
      const dir = project();
      await toolAnswer(h, dir, h.post(dir, 'npm test', FAILURE, true));
      const [file] = toolStates(dir);
      writeFileSync(join(dir, '.stopwise/state', file as string), text);
      const { run } = await toolAnswer(h, dir, h.post(dir, 'npm test', FAILURE, true));
      expect(run.stderr).toMatch(/tool guard state .* was not valid state; it was reset/);
      expect(toolState(dir)).toMatchObject({ version: 1, totals: { recorded: 1 } });
      await toolAnswer(h, dir, h.post(dir, 'npm test', FAILURE, true));
      const { output, run: next } = await toolAnswer(h, dir, h.pre(dir, 'npm test'));
      expect(h.context(output, next)).toBeDefined();
    }
  });

  it('reads a payload from a newer host version with unknown fields', async () => {
    const dir = project();
    const extra = { future_field: { nested: [1, 2, 3] } };
    for (let run = 0; run < 2; run++) await toolAnswer(h, dir, h.post(dir, 'npm test', FAILURE, true, extra));
    const { output, run } = await toolAnswer(h, dir, h.pre(dir, 'npm test', extra));
    expect(h.context(output, run)).toMatch(/failed 3 times in a row/);
  });

  it('exits 1 on bad stdin without a stack trace, and never blocks', async () => {
    const dir = project();
    for (const stdin of ['{"hook_event_name": "PreToolUse", "tool_name": ', '[1, 2]', '', 'null']) {
      const run = await hook(h.host, dir, stdin);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    // a tool event without a tool is nothing to guard: no decision (Cursor's empty answer), no state
    const run = await hook(h.host, dir, { hook_event_name: h.preEvent, session_id: 'session-1', cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(h.host === 'cursor' ? '{}\n' : '');
    expect(toolStates(dir)).toEqual([]);
  });
});
