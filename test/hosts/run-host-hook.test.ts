import { describe, expect, it, vi } from 'vitest';
import { payload } from './fixture-payloads.js';

const guard = vi.hoisted(() => ({ answer: vi.fn() }));
vi.mock('../../src/hosts/guard-tool-event.js', () => ({ guardToolEvent: guard.answer }));

const { runHostHook, unreadableInputExitCode } = await import('../../src/hosts/run-host-hook.js');

describe('runHostHook', () => {
  it('gives the tool guard the event read from the payload, and prints its answer in the host format', async () => {
    guard.answer.mockResolvedValueOnce({ kind: 'deny', reason: 'npm test failed 5 times in a row' });
    const run = await runHostHook('copilot', JSON.stringify(payload('copilot', 'pre-tool-use')), { cwd: '/work/project', env: {} });
    expect(guard.answer).toHaveBeenLastCalledWith('copilot', expect.objectContaining({ phase: 'pre', tool: 'bash' }), { cwd: '/work/project', env: {} });
    expect(run).toEqual({ exitCode: 0, stdout: '{"permissionDecision":"deny","permissionDecisionReason":"npm test failed 5 times in a row"}\n', stderr: '' });

    guard.answer.mockResolvedValueOnce({ kind: 'context', message: 'the same failure again' });
    const after = await runHostHook('gemini', JSON.stringify(payload('gemini', 'after-tool.shell-failed')), { cwd: '/p', env: {} });
    expect(after.stdout).toBe('{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"the same failure again"}}\n');

    guard.answer.mockResolvedValueOnce({ kind: 'context', message: 'read the failure first' });
    expect(await runHostHook('copilot', JSON.stringify(payload('copilot', 'post-tool-use-failure')), { cwd: '/p', env: {} })).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'read the failure first\n',
    });
  });

  it('lets the call go ahead when the tool guard fails', async () => {
    guard.answer.mockRejectedValueOnce(new Error('state file locked'));
    const run = await runHostHook('copilot', JSON.stringify(payload('copilot', 'pre-tool-use')), { cwd: '/p', env: {} });
    expect(run).toEqual({ exitCode: 0, stdout: '', stderr: 'stopwise hook copilot: the tool guard failed (state file locked); the tool call goes ahead unchecked.\n' });
  });

  it('answers nothing to other events, and never blocks on unreadable input', async () => {
    guard.answer.mockClear();
    expect(await runHostHook('gemini', JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup' }))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await runHostHook('copilot', '{')).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await runHostHook('gemini', '{')).toMatchObject({ exitCode: 1, stdout: '' });
    expect(guard.answer).not.toHaveBeenCalled();
    expect(['claude-code', 'codex', 'cursor', 'copilot', 'gemini'].map((host) => unreadableInputExitCode(host as never))).toEqual([1, 1, 1, 0, 1]);
  });
});
