import { callIdField, payloadRecord, requireToolName, resultText, stringField, type HostHookEvent } from './host-hook-event.js';

/** Fields whose presence marks a camelCase Copilot payload of an event stopwise does not answer. */
const OTHER_EVENT_FIELDS: Readonly<Record<string, string>> = Object.freeze({
  source: 'sessionStart',
  initialPrompt: 'sessionStart',
  prompt: 'userPromptSubmitted',
  errorContext: 'errorOccurred',
  trigger: 'preCompact',
  notification_type: 'notification',
  agentDescription: 'subagentStart',
  reason: 'sessionEnd',
});

const STOP_EVENT_NAMES: ReadonlySet<string> = new Set(['Stop', 'SubagentStop', 'agentStop', 'subagentStop']);

/**
 * Reads a GitHub Copilot CLI hook payload. Copilot sends two forms: the
 * camelCase one for events configured in camelCase (`agentStop`,
 * `preToolUse`, ...; no event name in the payload, so the event is told by
 * its fields: `toolName`, `toolResult`, `error`), and the VS Code form for
 * PascalCase events (`hook_event_name`, snake_case fields). Unknown fields
 * are ignored; a payload that is not an object, or a tool event without a
 * tool name, is a `TypeError`. A tool event carries Copilot's camelCase event
 * name (`preToolUse`, `postToolUse`, `postToolUseFailure`) in either form. A
 * payload with none of the fields that mark another event is a stop, as a
 * stop payload of an older or newer version may lack some.
 *
 * @see https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference
 */
export function readCopilotHookEvent(raw: unknown): HostHookEvent {
  const record = payloadRecord(raw, 'copilot');
  const name = stringField(record, 'hook_event_name', 'hookEventName');
  if (name !== undefined) return readNamedEvent(record, name);
  if (record.toolName !== undefined || record.tool_name !== undefined) return camelCaseToolEvent(record);
  if (record.stopReason !== undefined || record.stop_hook_active !== undefined || record.stopHookActive !== undefined) return { kind: 'stop' };
  const other = Object.keys(OTHER_EVENT_FIELDS).find((field) => record[field] !== undefined);
  return other === undefined ? { kind: 'stop' } : { kind: 'other', name: OTHER_EVENT_FIELDS[other] ?? other };
}

function readNamedEvent(record: Readonly<Record<string, unknown>>, name: string): HostHookEvent {
  if (STOP_EVENT_NAMES.has(name)) return { kind: 'stop' };
  switch (name) {
    case 'PreToolUse':
    case 'preToolUse':
      return { kind: 'tool', name: 'preToolUse', event: { phase: 'pre', ...toolCall(record, name) } };
    case 'PostToolUse':
    case 'postToolUse':
      return { kind: 'tool', name: 'postToolUse', event: { phase: 'post', ...toolCall(record, name), ...toolResult(record.tool_result ?? record.toolResult) } };
    case 'PostToolUseFailure':
    case 'postToolUseFailure':
      return { kind: 'tool', name: 'postToolUseFailure', event: { phase: 'post', ...toolCall(record, name), ...failure(record.error) } };
    default:
      return { kind: 'other', name };
  }
}

function camelCaseToolEvent(record: Readonly<Record<string, unknown>>): HostHookEvent {
  if (record.toolResult !== undefined || record.tool_result !== undefined) {
    return { kind: 'tool', name: 'postToolUse', event: { phase: 'post', ...toolCall(record, 'postToolUse'), ...toolResult(record.toolResult ?? record.tool_result) } };
  }
  if (record.error !== undefined) {
    return { kind: 'tool', name: 'postToolUseFailure', event: { phase: 'post', ...toolCall(record, 'postToolUseFailure'), ...failure(record.error) } };
  }
  return { kind: 'tool', name: 'preToolUse', event: { phase: 'pre', ...toolCall(record, 'preToolUse') } };
}

/** The tool, its arguments (a JSON string of them parsed when it is one) and the call id. */
function toolCall(record: Readonly<Record<string, unknown>>, event: string): { tool: string; input?: unknown; callId?: string } {
  const tool = requireToolName(record, event, 'toolName', 'tool_name');
  const args = record.toolArgs !== undefined ? record.toolArgs : record.tool_input;
  return { tool, ...(args === undefined ? {} : { input: parseArguments(args) }), ...callIdField(record, 'toolCallId', 'tool_call_id', 'tool_use_id') };
}

function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  const text = args.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return args;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return args;
  }
}

/** `toolResult: { resultType, textResultForLlm }` (or the VS Code form's snake_case): the text, and an error unless it succeeded. */
function toolResult(value: unknown): { output?: string; error?: boolean } {
  if (typeof value !== 'object' || value === null) {
    const text = resultText(value);
    return text === undefined ? {} : { output: text };
  }
  const result = value as Record<string, unknown>;
  const text = stringField(result, 'textResultForLlm', 'text_result_for_llm') ?? resultText(result.content);
  const type = stringField(result, 'resultType', 'result_type');
  return { ...(text === undefined ? {} : { output: text }), ...(type === undefined ? {} : { error: type !== 'success' }) };
}

/** `postToolUseFailure`'s `error`: a string, or an object with a message. */
function failure(value: unknown): { output?: string; error: true } {
  const text = typeof value === 'string' ? value : typeof value === 'object' && value !== null ? stringField(value as Record<string, unknown>, 'message') : undefined;
  return { ...(text === undefined ? {} : { output: text }), error: true };
}
