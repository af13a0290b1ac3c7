import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookHost } from '../../src/hosts/hook-host.js';
import { parseToolHookInput } from '../../src/hosts/read-hook-event.js';
import { runToolHook, type ToolHookRun } from '../../src/hosts/run-tool-hook.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(config: Record<string, unknown> = { tests: { command: 'npm test' } }): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-run-tool-hook-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify(config));
  return dir;
}

async function call(host: HookHost, raw: Record<string, unknown>, cwd: string, at: number): Promise<ToolHookRun> {
  const input = parseToolHookInput(host, raw);
  expect(input).toBeDefined();
  return runToolHook(host, input as NonNullable<typeof input>, { cwd, env: {}, now: () => new Date(Date.UTC(2026, 11, 2, 9, 0, at)) });
}

const FAILED = 'not ok 2 - auth > rejects expired token\nExit Code: 1';

describe('runToolHook', () => {
  it('nudges, then refuses the same failing call, in each host format', async () => {
    const sessions = {
      'claude-code': {
        pre: { session_id: 'c', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' } },
        post: { session_id: 'c', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: FAILED, stderr: '', interrupted: false } },
        answer: (run: ToolHookRun) => JSON.parse(run.stdout || 'null')?.hookSpecificOutput,
      },
      gemini: {
        pre: { session_id: 'g', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'npm test' } },
        post: { session_id: 'g', hook_event_name: 'AfterTool', tool_name: 'run_shell_command', tool_input: { command: 'npm test' }, tool_response: { llmContent: `Output: ${FAILED}` } },
        answer: (run: ToolHookRun) => JSON.parse(run.stdout || 'null'),
      },
    } as const;
    for (const [host, session] of Object.entries(sessions) as [HookHost, (typeof sessions)[keyof typeof sessions]][]) {
      const cwd = project();
      const answers: unknown[] = [];
      for (let at = 0; at < 12; at += 2) {
        const before = await call(host, { ...session.pre, cwd }, cwd, at);
        expect(before.exitCode).toBe(0);
        answers.push(session.answer(before));
        await call(host, { ...session.post, cwd }, cwd, at + 1);
      }
      const first = answers.findIndex((answer) => answer !== null && answer !== undefined);
      expect(first, `${host}: the guard spoke up`).toBeGreaterThan(0);
      expect(answers.slice(0, first).every((answer) => answer === null || answer === undefined), `${host}: nothing before the first finding`).toBe(true);
      const refusal = answers.find((answer) => JSON.stringify(answer ?? null).includes('deny'));
      expect(refusal, `${host}: a refusal follows the nudge`).toBeDefined();
      expect(answers.indexOf(refusal)).toBeGreaterThan(first);
    }
  });

  it('answers nothing, with a line saying why, when there is no configuration or the state cannot be kept', async () => {
    const none = mkdtempSync(join(tmpdir(), 'stopwise-run-tool-hook-none-'));
    dirs.push(none);
    const pre = { session_id: 's', cwd: none, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
    const missing = await call('claude-code', pre, none, 0);
    expect(missing).toMatchObject({ exitCode: 0, stdout: '' });
    expect(missing.stderr).toContain('stopwise.config.json');

    // the state folder is a file: the state cannot be written, and the call goes on unguarded
    const broken = project({ tests: { command: 'npm test' }, stateDir: 'state-is-a-file' });
    writeFileSync(join(broken, 'state-is-a-file'), 'not a folder');
    const run = await call('copilot', { sessionId: 's', cwd: broken, toolName: 'bash', toolArgs: '{"command":"ls"}' }, broken, 0);
    expect(run).toMatchObject({ exitCode: 0, stdout: '' });
    expect(run.stderr).toMatch(/not guarded|goes ahead unchecked/);
    expect(readFileSync(join(broken, 'state-is-a-file'), 'utf8')).toBe('not a folder');
  });
});
