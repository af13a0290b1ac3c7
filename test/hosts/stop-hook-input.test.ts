import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hostSignalsReentry,
  parseStopHookInput,
  stopHookSessionId,
  stopHookWorkingDirectory,
} from '../../src/hosts/stop-hook-input.js';

const KNOWN = new Set([
  'hook_event_name', 'session_id', 'transcript_path', 'cwd', 'stop_hook_active', 'last_assistant_message', 'permission_mode',
  'prompt_id', 'agent_id', 'agent_type', 'agent_transcript_path', 'turn_id', 'model', 'conversation_id', 'generation_id',
  'status', 'loop_count', 'workspace_roots',
]);

describe('parseStopHookInput', () => {
  it('keeps the fields of a Claude Code Stop input and drops unknown ones', () => {
    const input = parseStopHookInput({
      session_id: 'abc',
      transcript_path: '/home/u/.claude/projects/p/abc.jsonl',
      cwd: '/home/u/p',
      permission_mode: 'acceptEdits',
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'Done.',
      background_tasks: [],
      effort: { level: 'high' },
      brand_new_field: 1,
    });
    expect(input).toEqual({
      session_id: 'abc',
      transcript_path: '/home/u/.claude/projects/p/abc.jsonl',
      cwd: '/home/u/p',
      permission_mode: 'acceptEdits',
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'Done.',
    });
  });

  it('keeps the Codex fields and drops the nulls Codex sends for absent strings', () => {
    const input = parseStopHookInput({
      session_id: 's', turn_id: 't', transcript_path: null, cwd: '/p', hook_event_name: 'Stop', model: 'gpt-5',
      permission_mode: 'default', stop_hook_active: true, last_assistant_message: null,
    });
    expect(input).toEqual({ session_id: 's', turn_id: 't', cwd: '/p', hook_event_name: 'Stop', model: 'gpt-5', permission_mode: 'default', stop_hook_active: true });
  });

  it('keeps the Cursor fields', () => {
    const input = parseStopHookInput({
      conversation_id: 'c', generation_id: 'g', hook_event_name: 'stop', status: 'completed', loop_count: 2,
      workspace_roots: ['/w'], cursor_version: '2.0', user_email: 'x@example.com',
    });
    expect(input).toEqual({ conversation_id: 'c', generation_id: 'g', hook_event_name: 'stop', status: 'completed', loop_count: 2, workspace_roots: ['/w'] });
    expect(stopHookSessionId(input)).toBe('c');
    expect(stopHookWorkingDirectory(input)).toBe('/w');
    expect(hostSignalsReentry(input)).toBe(true);
  });

  it('drops fields of the wrong type instead of trusting them', () => {
    expect(
      parseStopHookInput({ session_id: 42, stop_hook_active: 'true', loop_count: -1, workspace_roots: ['/a', 3], cwd: ['x'] }),
    ).toEqual({});
    expect(parseStopHookInput({ loop_count: 1.5 })).toEqual({});
  });

  it('throws a TypeError for anything but an object', () => {
    for (const value of [[], [{ session_id: 'x' }], null, 'Stop', 42, true, undefined]) {
      expect(() => parseStopHookInput(value)).toThrow(TypeError);
    }
    expect(() => parseStopHookInput([])).toThrow('stop hook input must be a JSON object, got an array');
  });

  it('never keeps an unknown key or a value of the wrong type, whatever the object (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.constantFrom(...KNOWN), fc.string()), fc.jsonValue()), (raw) => {
        const input = parseStopHookInput(raw) as Record<string, unknown>;
        for (const [key, value] of Object.entries(input)) {
          expect(KNOWN.has(key)).toBe(true);
          if (key === 'stop_hook_active') expect(typeof value).toBe('boolean');
          else if (key === 'loop_count') expect(Number.isInteger(value)).toBe(true);
          else if (key === 'workspace_roots') expect(Array.isArray(value)).toBe(true);
          else expect(typeof value).toBe('string');
        }
      }),
    );
  });
});

describe('stop hook input helpers', () => {
  it('prefers session_id and cwd, and reads re-entry from stop_hook_active', () => {
    const input = parseStopHookInput({ session_id: 's', conversation_id: 'c', cwd: '/a', workspace_roots: ['/b'], stop_hook_active: false });
    expect(stopHookSessionId(input)).toBe('s');
    expect(stopHookWorkingDirectory(input)).toBe('/a');
    expect(hostSignalsReentry(input)).toBe(false);
    expect(hostSignalsReentry({ stop_hook_active: true })).toBe(true);
    expect(hostSignalsReentry({})).toBe(false);
  });
});
