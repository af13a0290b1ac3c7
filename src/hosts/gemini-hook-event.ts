import { callIdField, payloadRecord, requireToolName, resultText, stringField, type HostHookEvent } from './host-hook-event.js';

/** How Gemini CLI's shell tool ends its result for the model when the command failed. */
const SHELL_EXIT_CODE = /^Exit Code: (-?\d+)$/m;
const SHELL_TOOL = 'run_shell_command';

/**
 * Reads a Gemini CLI hook payload: `AfterAgent` is a stop, `BeforeTool` and
 * `AfterTool` are tool events (`tool_name`, `tool_input`, and after the call
 * `tool_response: { llmContent, returnDisplay, error }`), anything else is an
 * event stopwise does not answer. A payload without `hook_event_name` is a
 * stop (as for the other hosts). Unknown fields are ignored; a payload that
 * is not an object, or a tool event without a tool name, is a `TypeError`.
 * The shell tool writes `Exit Code: N` into its result when the command
 * failed; that becomes the event's exit code.
 *
 * @see https://geminicli.com/docs/hooks/reference
 */
export function readGeminiHookEvent(raw: unknown): HostHookEvent {
  const record = payloadRecord(raw, 'gemini');
  const name = stringField(record, 'hook_event_name');
  if (name === undefined || name === 'AfterAgent') return { kind: 'stop' };
  if (name !== 'BeforeTool' && name !== 'AfterTool') return { kind: 'other', name };
  const tool = requireToolName(record, name, 'tool_name');
  const call = { tool, ...(record.tool_input === undefined ? {} : { input: record.tool_input }), ...callIdField(record, 'tool_call_id', 'call_id') };
  if (name === 'BeforeTool') return { kind: 'tool', name, event: { phase: 'pre', ...call } };
  return { kind: 'tool', name, event: { phase: 'post', ...call, ...toolResponse(tool, record.tool_response) } };
}

/** The result text, whether the call failed (an `error`, or a non-zero exit code), and the shell's exit code. */
function toolResponse(tool: string, value: unknown): { output?: string; error?: boolean; exitCode?: number } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const text = resultText(value);
    return text === undefined ? {} : { output: text };
  }
  const response = value as Record<string, unknown>;
  const text = resultText(response.llmContent) ?? resultText(response.returnDisplay);
  const match = tool === SHELL_TOOL && text !== undefined ? SHELL_EXIT_CODE.exec(text) : null;
  const exitCode = match?.[1] === undefined ? undefined : Number(match[1]);
  const failed = (response.error !== undefined && response.error !== null) || (exitCode !== undefined && exitCode !== 0);
  return {
    ...(text === undefined ? {} : { output: text }),
    error: failed,
    ...(exitCode === undefined ? {} : { exitCode }),
  };
}
