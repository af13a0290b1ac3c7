import { describe, expect, it } from 'vitest';
import { readGeminiHookEvent } from '../../src/hosts/gemini-hook-event.js';
import { hostSignalsReentry, parseStopHookInput } from '../../src/hosts/stop-hook-input.js';
import { payload } from './fixture-payloads.js';

describe('readGeminiHookEvent', () => {
  it('reads AfterAgent as a stop, with prompt_response as the last message', () => {
    expect(readGeminiHookEvent(payload('gemini', 'after-agent'))).toEqual({ kind: 'stop' });
    expect(parseStopHookInput(payload('gemini', 'after-agent'))).toEqual({
      hook_event_name: 'AfterAgent',
      session_id: '8f0e-gemini',
      transcript_path: '/home/dev/.gemini/tmp/abc/chats/session-8f0e.json',
      cwd: '/work/project',
      last_assistant_message: 'I fixed the token check and the tests pass.',
      stop_hook_active: false,
    });
  });

  it('tolerates the fields of a newer version and reads stop_hook_active', () => {
    const newer = payload('gemini', 'after-agent.newer');
    expect(readGeminiHookEvent(newer)).toEqual({ kind: 'stop' });
    expect(hostSignalsReentry(parseStopHookInput(newer))).toBe(true);
  });

  it('reads BeforeTool and AfterTool, with the shell exit code from the result text', () => {
    expect(readGeminiHookEvent(payload('gemini', 'before-tool'))).toEqual({
      kind: 'tool',
      name: 'BeforeTool',
      event: { phase: 'pre', tool: 'run_shell_command', input: { command: 'npm test', description: 'Run the tests' } },
    });
    expect(readGeminiHookEvent(payload('gemini', 'after-tool.shell-failed'))).toEqual({
      kind: 'tool',
      name: 'AfterTool',
      event: {
        phase: 'post',
        tool: 'run_shell_command',
        input: { command: 'npm test' },
        output: 'Output: not ok 2 - auth > rejects expired token\nExit Code: 1',
        error: true,
        exitCode: 1,
      },
    });
    expect(readGeminiHookEvent(payload('gemini', 'after-tool.edit'))).toMatchObject({
      event: { phase: 'post', tool: 'replace', output: 'Successfully modified file: /work/project/src/auth.js (1 replacements).', error: false },
    });
  });

  it('reads an error in the response, and takes no exit code from a tool that is not the shell', () => {
    const failed = { hook_event_name: 'AfterTool', tool_name: 'write_file', tool_response: { llmContent: 'Exit Code: 3', error: { message: 'denied', type: 'x' } } };
    expect(readGeminiHookEvent(failed)).toMatchObject({ event: { output: 'Exit Code: 3', error: true } });
    expect(readGeminiHookEvent(failed)).not.toHaveProperty('event.exitCode');
  });

  it('answers nothing to other events, and refuses what it cannot read', () => {
    expect(readGeminiHookEvent({ hook_event_name: 'BeforeAgent', prompt: 'x' })).toEqual({ kind: 'other', name: 'BeforeAgent' });
    expect(readGeminiHookEvent({ session_id: 's' })).toEqual({ kind: 'stop' });
    expect(() => readGeminiHookEvent('text')).toThrow(new TypeError('gemini hook input must be a JSON object, got "text"'));
    expect(() => readGeminiHookEvent({ hook_event_name: 'BeforeTool' })).toThrow('BeforeTool input needs the tool\'s name in "tool_name" (a non-empty string), got undefined');
  });
});
