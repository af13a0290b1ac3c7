import { describe, expect, it } from 'vitest';
import { stallStepFromPostToolUse } from '../../src/hosts/post-tool-use-stall-step.js';

describe('stallStepFromPostToolUse', () => {
  it('reads a shell response', () => {
    const payload = { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: '1 failed', stderr: 'boom', exit_code: 1 } };
    expect(stallStepFromPostToolUse(payload)).toEqual({ tool: 'Bash', input: { command: 'npm test' }, output: '1 failed\nboom', exitCode: 1 });
  });

  it('reads other responses as JSON, an error flag, and a payload without a tool', () => {
    expect(stallStepFromPostToolUse({ tool_name: 'Edit', tool_input: { file_path: 'a' }, tool_response: { success: true } })).toEqual({
      tool: 'Edit',
      input: { file_path: 'a' },
      output: '{"success":true}',
    });
    expect(stallStepFromPostToolUse({ tool_name: 'Read', tool_response: { is_error: true, content: 'no file' } })?.error).toBe(true);
    expect(stallStepFromPostToolUse({ tool_name: 'Read', tool_response: 'text' })?.output).toBe('text');
    expect(stallStepFromPostToolUse({})).toBeUndefined();
  });
});
