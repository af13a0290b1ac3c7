import { describe, expect, it } from 'vitest';
import { readCopilotHookEvent } from '../../src/hosts/copilot-hook-event.js';
import { parseStopHookInput } from '../../src/hosts/stop-hook-input.js';
import { payload } from './fixture-payloads.js';

describe('readCopilotHookEvent', () => {
  it('reads agentStop in both forms as a stop, and its fields through the stop input', () => {
    expect(readCopilotHookEvent(payload('copilot', 'agent-stop'))).toEqual({ kind: 'stop' });
    expect(readCopilotHookEvent(payload('copilot', 'agent-stop.vscode'))).toEqual({ kind: 'stop' });
    expect(parseStopHookInput(payload('copilot', 'agent-stop'))).toEqual({
      session_id: '5b1c2d3e-copilot',
      transcript_path: '/home/dev/.copilot/session-state/5b1c2d3e/events.jsonl',
      cwd: '/work/project',
    });
    expect(parseStopHookInput(payload('copilot', 'agent-stop.vscode'))).toMatchObject({ hook_event_name: 'Stop', session_id: '5b1c2d3e-copilot' });
  });

  it('tolerates the fields of a newer version and reads stop_hook_active', () => {
    expect(readCopilotHookEvent(payload('copilot', 'agent-stop.newer'))).toEqual({ kind: 'stop' });
    expect(parseStopHookInput(payload('copilot', 'agent-stop.newer'))).toMatchObject({ stop_hook_active: true, session_id: '5b1c2d3e-copilot' });
    expect(parseStopHookInput({ sessionId: 's', stopHookActive: true })).toEqual({ session_id: 's', stop_hook_active: true });
  });

  it('reads preToolUse, postToolUse and postToolUseFailure in the camelCase form', () => {
    expect(readCopilotHookEvent(payload('copilot', 'pre-tool-use'))).toEqual({
      kind: 'tool',
      name: 'preToolUse',
      event: { phase: 'pre', tool: 'bash', input: { command: 'npm test', description: 'Run the tests', mode: 'sync', initial_wait: 30 } },
    });
    expect(readCopilotHookEvent(payload('copilot', 'post-tool-use'))).toEqual({
      kind: 'tool',
      name: 'postToolUse',
      event: { phase: 'post', tool: 'bash', input: { command: 'npm test' }, output: '# tests 2\n# pass 2', error: false },
    });
    expect(readCopilotHookEvent(payload('copilot', 'post-tool-use-failure'))).toEqual({
      kind: 'tool',
      name: 'postToolUseFailure',
      event: { phase: 'post', tool: 'bash', input: { command: 'npm test' }, output: 'not ok 2 - auth > rejects expired token', error: true },
    });
  });

  it('reads the VS Code form by its event name, and a failed result as an error', () => {
    expect(readCopilotHookEvent(payload('copilot', 'pre-tool-use.vscode'))).toEqual({
      kind: 'tool',
      name: 'preToolUse',
      event: { phase: 'pre', tool: 'bash', input: { command: 'npm test' } },
    });
    const failed = { hook_event_name: 'PostToolUse', tool_name: 'edit', tool_input: {}, tool_result: { result_type: 'failure', text_result_for_llm: 'no match' }, tool_use_id: 't1' };
    expect(readCopilotHookEvent(failed)).toEqual({ kind: 'tool', name: 'postToolUse', event: { phase: 'post', tool: 'edit', input: {}, output: 'no match', error: true, callId: 't1' } });
    expect(readCopilotHookEvent({ hook_event_name: 'PostToolUseFailure', tool_name: 'bash', error: { message: 'boom' } })).toMatchObject({
      name: 'postToolUseFailure',
      event: { output: 'boom', error: true },
    });
  });

  it('keeps a toolArgs string that is not JSON as it is', () => {
    expect(readCopilotHookEvent({ toolName: 'bash', toolArgs: 'ls -la' })).toMatchObject({ event: { input: 'ls -la' } });
    expect(readCopilotHookEvent({ toolName: 'bash', toolArgs: '{not json' })).toMatchObject({ event: { input: '{not json' } });
  });

  it('answers nothing to the events stopwise does not register', () => {
    expect(readCopilotHookEvent({ sessionId: 's', timestamp: 1, cwd: '/p', source: 'startup' })).toEqual({ kind: 'other', name: 'sessionStart' });
    expect(readCopilotHookEvent({ sessionId: 's', timestamp: 1, cwd: '/p', prompt: 'hi' })).toEqual({ kind: 'other', name: 'userPromptSubmitted' });
    expect(readCopilotHookEvent({ hook_event_name: 'SessionEnd', reason: 'complete' })).toEqual({ kind: 'other', name: 'SessionEnd' });
    expect(readCopilotHookEvent({ hook_event_name: 'SubagentStop' })).toEqual({ kind: 'stop' });
  });

  it('refuses a payload that is not an object, or a tool event without a tool name, with a clear message', () => {
    expect(() => readCopilotHookEvent([1])).toThrow(new TypeError('copilot hook input must be a JSON object, got an array'));
    expect(() => readCopilotHookEvent(null)).toThrow(TypeError);
    expect(() => readCopilotHookEvent({ toolName: '', toolArgs: {} })).toThrow('preToolUse input needs the tool\'s name in "toolName" (a non-empty string)');
    expect(() => readCopilotHookEvent({ hook_event_name: 'PreToolUse', tool_name: 7 })).toThrow('PreToolUse input needs the tool\'s name in "toolName" (a non-empty string), got 7');
  });
});
