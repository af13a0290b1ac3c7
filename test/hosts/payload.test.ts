import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockOrMessage,
  callId,
  claudeStyleStop,
  claudeStyleTool,
  claudeStyleToolAnswer,
  eventName,
  nestedEntry,
  parsedArguments,
  place,
  resultText,
  text,
  toolName,
  toolResponse,
  versionOneRoot,
} from '../../src/hosts/payload.js';

describe('text', () => {
  it('is the first key holding a non-empty string; a value of another type is dropped, never trusted', () => {
    expect(text({ a: '', b: 'x', c: 'y' }, 'a', 'b', 'c')).toBe('x');
    expect(text({ a: 42, b: ['x'], c: null }, 'a', 'b', 'c')).toBeUndefined();
    expect(text({}, 'a')).toBeUndefined();
  });
});

describe('place', () => {
  it('reads the session, the agent and the folder under the first key that holds each, and a workspace root as the folder', () => {
    const keys = { session: ['session_id', 'conversation_id'], agent: ['agent_id'], cwd: ['cwd'] };
    expect(place('Stop', { session_id: 's', conversation_id: 'c', agent_id: 'a', cwd: '/p' }, keys)).toEqual({ eventName: 'Stop', sessionId: 's', agentId: 'a', cwd: '/p' });
    expect(place('stop', { conversation_id: 'c', workspace_roots: ['/w', '/v'] }, keys)).toEqual({ eventName: 'stop', sessionId: 'c', cwd: '/w' });
    expect(place('stop', { session_id: 7, cwd: ['/x'], workspace_roots: [3] }, keys)).toEqual({ eventName: 'stop' });
    expect(place('stop', { agent_id: 'a' }, { session: ['session_id'], cwd: ['cwd'] })).toEqual({ eventName: 'stop' });
  });
});

describe('toolName and callId', () => {
  it("names the field that should hold the tool's name, and what it held", () => {
    expect(toolName({ tool_name: 'Bash' }, 'PreToolUse', 'tool_name')).toBe('Bash');
    expect(toolName({ tool_name: 'x', toolName: 'y' }, 'preToolUse', 'toolName', 'tool_name')).toBe('y');
    expect(() => toolName({ tool_name: '   ' }, 'PreToolUse', 'tool_name')).toThrow(new TypeError('PreToolUse input needs the tool\'s name in "tool_name" (a non-empty string), got "   "'));
    expect(() => toolName({ tool_name: { name: 'Bash' } }, 'PreToolUse', 'tool_name')).toThrow('got an object');
    expect(() => toolName({}, 'PreToolUse', 'tool_name')).toThrow('got undefined');
  });

  it('keeps a call id only when one of the keys holds a non-empty string', () => {
    expect(callId({ tool_use_id: 'toolu_1' }, 'tool_use_id')).toEqual({ callId: 'toolu_1' });
    expect(callId({ tool_use_id: 1 }, 'tool_use_id')).toEqual({});
  });
});

describe('resultText', () => {
  it('joins the text of a string, a part, or a list of parts, and has none for anything else', () => {
    expect(resultText('out')).toBe('out');
    expect(resultText({ text: 'part' })).toBe('part');
    expect(resultText([{ text: 'a' }, 'b', { image: 'x' }, 3])).toBe('a\nb');
    expect(resultText([{ image: 'x' }])).toBeUndefined();
    expect(resultText({ fileDiff: '...' })).toBeUndefined();
    expect(resultText(42)).toBeUndefined();
  });
});

describe('parsedArguments', () => {
  it('parses a JSON object or array given as a string, and keeps everything else as it is', () => {
    expect(parsedArguments(' {"command":"npm test"} ')).toEqual({ command: 'npm test' });
    expect(parsedArguments('[1,2]')).toEqual([1, 2]);
    expect(parsedArguments('ls -la')).toBe('ls -la');
    expect(parsedArguments('{not json')).toBe('{not json');
    expect(parsedArguments({ command: 'x' })).toEqual({ command: 'x' });
    expect(parsedArguments(undefined)).toBeUndefined();
  });
});

describe('toolResponse', () => {
  it("reads a shell's stdout and stderr, its exit code and an error flag", () => {
    expect(toolResponse({ stdout: '1 failed', stderr: 'boom', exit_code: 1 })).toEqual({ output: '1 failed\nboom', exitCode: 1 });
    expect(toolResponse({ stdout: '', stderr: '', interrupted: false })).toEqual({ output: '' });
    expect(toolResponse({ stdout: 'ok', returncode: 0, is_error: false })).toEqual({ output: 'ok', exitCode: 0, error: false });
  });

  it('reads any other response as JSON, a string as it is, and an error given as text as a failure', () => {
    expect(toolResponse({ success: true })).toEqual({ output: '{"success":true}' });
    expect(toolResponse({ error: 'no such file' })).toEqual({ output: '{"error":"no such file"}', error: true });
    expect(toolResponse({ isError: true, content: 'x' })).toMatchObject({ error: true });
    expect(toolResponse('text')).toEqual({ output: 'text' });
    expect(toolResponse(12)).toEqual({ output: '12' });
    expect(toolResponse(null)).toEqual({});
    expect(toolResponse(undefined)).toEqual({});
  });
});

describe('claudeStyleStop and claudeStyleTool', () => {
  it('reads the last message and the re-entry flag of a stop, only when they have the right types', () => {
    expect(claudeStyleStop('Stop', { session_id: 's', cwd: '/p', stop_hook_active: true, last_assistant_message: 'Done.' }, ['last_assistant_message'])).toEqual({
      kind: 'stop',
      eventName: 'Stop',
      sessionId: 's',
      cwd: '/p',
      lastMessage: 'Done.',
      reentered: true,
    });
    expect(claudeStyleStop('Stop', { stop_hook_active: 'true', last_assistant_message: null }, ['last_assistant_message'])).toEqual({
      kind: 'stop',
      eventName: 'Stop',
      lastMessage: '',
      reentered: false,
    });
  });

  it('reads a call before it runs, after it ran, and after it failed, the error joined to what it printed', () => {
    const call = { session_id: 's', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 't1' };
    expect(claudeStyleTool('PreToolUse', call)).toEqual({ kind: 'tool', eventName: 'PreToolUse', sessionId: 's', tool: { phase: 'pre', tool: 'Bash', input: { command: 'npm test' }, callId: 't1' } });
    expect(claudeStyleTool('PostToolUse', { ...call, tool_response: { stdout: 'ok', stderr: '' } })).toMatchObject({ tool: { phase: 'post', output: 'ok' } });
    expect(claudeStyleTool('PostToolUseFailure', { ...call, tool_response: { stdout: 'partial' }, error: 'Exit code 1' })).toMatchObject({
      tool: { phase: 'post', output: 'partial\nExit code 1', error: true },
    });
    expect(claudeStyleTool('PostToolUseFailure', { ...call, error: 3 })).toMatchObject({ tool: { output: '', error: true } });
  });
});

describe('eventName', () => {
  it('is the name the payload carries, else a TypeError saying what stopwise hook reads', () => {
    expect(eventName({ hook_event_name: 'Stop' }, 'Claude Code', 'hook_event_name')).toBe('Stop');
    expect(() => eventName({ hook_event_name: '' }, 'Claude Code', 'hook_event_name')).toThrow(
      new TypeError('the Claude Code hook payload names no event (no "hook_event_name"): stopwise hook reads the JSON the host sends on stdin'),
    );
  });
});

describe('blockOrMessage', () => {
  it('blocks with decision and reason, hands off with a systemMessage, allows with nothing or the warning', () => {
    expect(blockOrMessage({ kind: 'block', reason: 'r' })).toEqual({ exitCode: 0, stdout: { decision: 'block', reason: 'r' } });
    expect(blockOrMessage({ kind: 'block', reason: 'r', warning: 'w' })).toEqual({ exitCode: 0, stdout: { decision: 'block', reason: 'r', systemMessage: 'w' } });
    expect(blockOrMessage({ kind: 'handoff', message: 'm' })).toEqual({ exitCode: 0, stdout: { systemMessage: 'm' } });
    expect(blockOrMessage({ kind: 'allow' })).toEqual({ exitCode: 0 });
    expect(blockOrMessage({ kind: 'allow', warning: 'w' })).toEqual({ exitCode: 0, stdout: { systemMessage: 'w' } });
  });
});

describe('claudeStyleToolAnswer', () => {
  it('refuses before the call and never allows it, which would skip the permission prompt', () => {
    const answers = [{ kind: 'none' }, { kind: 'context', message: 'm' }, { kind: 'deny', reason: 'r' }] as const;
    const outputs = answers.map((answer) => JSON.stringify(claudeStyleToolAnswer('PreToolUse', answer)));
    for (const printed of outputs) expect(printed).not.toContain('"allow"');
    expect(claudeStyleToolAnswer('PreToolUse', { kind: 'deny', reason: 'r' })).toEqual({
      exitCode: 0,
      stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'r' } },
    });
    expect(claudeStyleToolAnswer('PreToolUse', { kind: 'context', message: 'm' })).toEqual({ exitCode: 0, stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'm' } } });
  });

  it("passes a message after the call as the event's additionalContext, and says nothing for none", () => {
    for (const event of ['PostToolUse', 'PostToolUseFailure']) {
      expect(claudeStyleToolAnswer(event, { kind: 'none' })).toEqual({ exitCode: 0 });
      expect(claudeStyleToolAnswer(event, { kind: 'context', message: 'm' })).toEqual({ exitCode: 0, stdout: { hookSpecificOutput: { hookEventName: event, additionalContext: 'm' } } });
      expect(claudeStyleToolAnswer(event, { kind: 'deny', reason: 'r' })).toEqual({ exitCode: 0, stdout: { hookSpecificOutput: { hookEventName: event, additionalContext: 'r' } } });
    }
  });
});

describe('versionOneRoot and nestedEntry', () => {
  it('adds version 1 when absent, keeps it when 1, and says why another version is refused', () => {
    expect(versionOneRoot({ hooks: {} })).toEqual({ version: 1, hooks: {} });
    expect(versionOneRoot({ version: 1, other: true })).toEqual({ version: 1, other: true });
    expect(versionOneRoot({ version: '1' })).toBe('"version" must be 1 (the hooks format the host reads), got "1"');
  });

  it('nests the command under hooks, with a matcher for a tool event', () => {
    expect(nestedEntry('sh x', 330, undefined)).toEqual({ hooks: [{ type: 'command', command: 'sh x', timeout: 330 }] });
    expect(nestedEntry('sh x', 30, 'Bash')).toEqual({ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh x', timeout: 30 }] });
  });
});

describe('the readers on any payload', () => {
  it('never throw on a stop payload of any shape, and keep only fields of the right type', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('session_id', 'agent_id', 'cwd', 'stop_hook_active', 'last_assistant_message', 'workspace_roots', 'other'), fc.jsonValue()), (payload) => {
        const event = claudeStyleStop('Stop', payload, ['last_assistant_message']);
        if (event.kind !== 'stop') throw new Error('not a stop');
        expect(typeof event.lastMessage).toBe('string');
        expect(typeof event.reentered).toBe('boolean');
        for (const key of ['sessionId', 'agentId', 'cwd'] as const) if (key in event) expect(typeof event[key]).toBe('string');
      }),
    );
  });
});
