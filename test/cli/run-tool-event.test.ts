import { describe, expect, it, vi } from 'vitest';
import { payload } from '../hosts/fixture-payloads.js';

const guard = vi.hoisted(() => ({ answer: vi.fn() }));
vi.mock('../../src/hosts/answer-tool-event.js', () => ({ answerToolEvent: async (...args: unknown[]) => ({ answer: await guard.answer(...args), warnings: [] }) }));

const { runToolEvent } = await import('../../src/cli/run-tool-event.js');
const { unreadableInputExitCode } = await import('../../src/hosts/hook-host.js');

describe('runToolEvent', () => {
  it('gives the tool guard the event read from the payload, and prints its answer in the host format', async () => {
    guard.answer.mockResolvedValueOnce({ kind: 'deny', reason: 'npm test failed 5 times in a row' });
    const run = await runToolEvent('copilot', JSON.stringify(payload('copilot', 'pre-tool-use')), '/work/project');
    expect(guard.answer).toHaveBeenLastCalledWith('copilot', expect.objectContaining({ phase: 'pre', tool: 'bash' }), { cwd: '/work/project', env: process.env, sessionId: expect.any(String) });
    expect(run).toEqual({ exitCode: 0, stdout: '{"permissionDecision":"deny","permissionDecisionReason":"npm test failed 5 times in a row"}\n', stderr: '' });

    guard.answer.mockResolvedValueOnce({ kind: 'context', message: 'the same failure again' });
    const after = await runToolEvent('gemini', JSON.stringify(payload('gemini', 'after-tool.shell-failed')), '/p');
    expect(after?.stdout).toBe('{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"the same failure again"}}\n');

    guard.answer.mockResolvedValueOnce({ kind: 'context', message: 'read the failure first' });
    expect(await runToolEvent('copilot', JSON.stringify(payload('copilot', 'post-tool-use-failure')), '/p')).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'read the failure first\n',
    });
  });

  it('lets the call go ahead when the tool guard fails', async () => {
    guard.answer.mockRejectedValueOnce(new Error('state file locked'));
    const run = await runToolEvent('copilot', JSON.stringify(payload('copilot', 'pre-tool-use')), '/p');
    expect(run).toEqual({ exitCode: 0, stdout: '', stderr: 'stopwise hook copilot: the tool guard failed (state file locked); the tool call goes ahead unchecked.\n' });
  });

  it('answers nothing to other events, and never blocks on unreadable input', async () => {
    guard.answer.mockClear();
    expect(await runToolEvent('gemini', JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup' }), '/p')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await runToolEvent('copilot', '{', '/p')).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await runToolEvent('gemini', '{', '/p')).toMatchObject({ exitCode: 1, stdout: '' });
    expect(guard.answer).not.toHaveBeenCalled();
    expect(['claude-code', 'codex', 'cursor', 'copilot', 'gemini'].map((host) => unreadableInputExitCode(host as never))).toEqual([1, 1, 1, 0, 1]);
  });

  it('reads the tool events of Claude Code, Codex and Cursor the same way, and leaves every other input to the stop hook', async () => {
    guard.answer.mockResolvedValueOnce({ kind: 'deny', reason: 'npm test failed 3 times the same way' });
    const pre = { session_id: 's', cwd: '/work/project', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' } };
    expect(await runToolEvent('claude-code', JSON.stringify(pre), '/elsewhere')).toEqual({
      exitCode: 0,
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"npm test failed 3 times the same way"}}\n',
      stderr: '',
    });
    expect(guard.answer).toHaveBeenLastCalledWith('claude-code', expect.objectContaining({ phase: 'pre', tool: 'Bash' }), { cwd: '/work/project', env: process.env, sessionId: 's' });

    guard.answer.mockResolvedValueOnce({ kind: 'context', message: 'the same output again' });
    const shell = { conversation_id: 'c', hook_event_name: 'beforeShellExecution', command: 'npm test', workspace_roots: ['/w'] };
    expect(await runToolEvent('cursor', JSON.stringify(shell), '/p')).toEqual({ exitCode: 0, stdout: '', stderr: 'the same output again\n' });

    guard.answer.mockClear();
    const stop = { session_id: 's', hook_event_name: 'Stop', stop_hook_active: false };
    for (const host of ['claude-code', 'codex', 'cursor'] as const) {
      expect(await runToolEvent(host, JSON.stringify(stop), '/p')).toBeUndefined();
      expect(await runToolEvent(host, '{', '/p')).toBeUndefined();
      expect(await runToolEvent(host, JSON.stringify({ ...pre, tool_name: '' }), '/p')).toBeUndefined();
    }
    expect(await runToolEvent('gemini', JSON.stringify({ session_id: 's', hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'r', stop_hook_active: false }), '/p')).toBeUndefined();
    expect(guard.answer).not.toHaveBeenCalled();
  });
});
