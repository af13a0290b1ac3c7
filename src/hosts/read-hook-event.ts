import type { HookHost } from './hook-host.js';
import { hasToolEvents, readHostHookEvent } from './host-tool-events.js';
import { readClaudeStyleToolInput, type ToolHookInput } from './parse-tool-hook-input.js';

/**
 * What one hook payload of any host asks for: the end of the agent's turn
 * (`stop`, which the stop hook reads and checks itself), a tool call (`tool`,
 * for the tool guard), or an event stopwise does not answer (`other`).
 */
export type HookEventRead =
  | { readonly kind: 'stop' }
  | { readonly kind: 'tool'; readonly input: ToolHookInput }
  | { readonly kind: 'other' };

/**
 * Reads a hook payload (already parsed from JSON) of any of the five hosts.
 * Claude Code, Codex and Cursor have one hook entry per event, so a payload
 * that is not one of their tool events is the stop hook's to read (and to
 * reject when it is not a stop). Copilot and Gemini send every event through
 * the same command, so their payload is read whole: a payload that is not an
 * object, or a tool event without a tool name, is a `TypeError`.
 */
export function readHookEvent(host: HookHost, raw: unknown): HookEventRead {
  if (!hasToolEvents(host)) {
    const input = readClaudeStyleToolInput(host, raw);
    return input === undefined ? { kind: 'stop' } : { kind: 'tool', input };
  }
  const read = readHostHookEvent(host, raw);
  if (read.kind !== 'tool') return read.kind === 'stop' ? { kind: 'stop' } : { kind: 'other' };
  const sessionId = sessionIdOf(raw);
  return { kind: 'tool', input: { eventName: read.name, event: read.event, ...(sessionId === undefined ? {} : { sessionId }) } };
}

/** The session id of a Copilot or Gemini payload: `session_id` (Gemini, Copilot's VS Code form) or `sessionId` (Copilot's own form). */
function sessionIdOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const record = payload as Record<string, unknown>;
  const id = record.session_id ?? record.sessionId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * Reads a tool hook's stdin (already parsed from JSON) into a `ToolEvent`, for
 * any host: Claude Code and Codex `PreToolUse` / `PostToolUse` /
 * `PostToolUseFailure` (`tool_name`, `tool_input`, `tool_response`, `error`),
 * Cursor `beforeShellExecution` / `afterShellExecution` (`command`, `output`),
 * `beforeMCPExecution` / `afterMCPExecution` (`tool_name`, `tool_input`,
 * `result_json`) and `afterFileEdit` (`file_path`, `edits`), Copilot
 * `preToolUse` / `postToolUse` / `postToolUseFailure` in either of its forms,
 * Gemini `BeforeTool` / `AfterTool`. Unknown fields are ignored. `undefined`
 * when the input is not one of these events or names no tool.
 */
export function parseToolHookInput(host: HookHost, raw: unknown): ToolHookInput | undefined {
  try {
    const read = readHookEvent(host, raw);
    return read.kind === 'tool' ? read.input : undefined;
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}
