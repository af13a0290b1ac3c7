import type { HookHost } from './hook-host.js';
import { stallStepFromPostToolUse } from './post-tool-use-stall-step.js';
import type { ToolEvent } from './tool-event.js';

/** A tool hook's stdin, reduced to what the guard reads: the event, its session, where the agent works. */
export interface ToolHookInput {
  /** The host's own name of the event (`PreToolUse`, `beforeShellExecution`, ...), which the answer is encoded for. */
  readonly eventName: string;
  readonly event: ToolEvent;
  readonly sessionId?: string;
  readonly agentId?: string;
  readonly cwd?: string;
}

/** The tool events of Claude Code and Codex (Codex fires no `PostToolUseFailure`; it is read the same way if it comes). */
const CLAUDE_STYLE_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
/** The tool events of Cursor that feed the guard. */
const CURSOR_EVENTS: ReadonlySet<string> = new Set(['beforeShellExecution', 'afterShellExecution', 'beforeMCPExecution', 'afterMCPExecution', 'afterFileEdit']);

/** The tool name a Cursor shell command is recorded under (Cursor names no tool for it). */
export const CURSOR_SHELL_TOOL = 'Shell';
/** The tool name a Cursor file edit is recorded under. */
export const CURSOR_EDIT_TOOL = 'Edit';

/** True when `name` is a tool event of `host` that `stopwise hook` answers with the tool guard. */
export function isToolEventName(host: HookHost, name: unknown): name is string {
  if (typeof name !== 'string') return false;
  return host === 'cursor' ? CURSOR_EVENTS.has(name) : CLAUDE_STYLE_EVENTS.has(name);
}

/**
 * A Claude Code, Codex or Cursor tool event (each has a hook entry of its
 * own): Claude Code and Codex `PreToolUse` / `PostToolUse` /
 * `PostToolUseFailure` (`tool_name`, `tool_input`, `tool_response`, `error`),
 * Cursor `beforeShellExecution` / `afterShellExecution` (`command`, `output`),
 * `beforeMCPExecution` / `afterMCPExecution` (`tool_name`, `tool_input`,
 * `result_json`) and `afterFileEdit` (`file_path`, `edits`); `undefined` for
 * any other payload, or one that names no tool.
 */
export function readClaudeStyleToolInput(host: HookHost, raw: unknown): ToolHookInput | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const record = raw as Record<string, unknown>;
  const eventName = record.hook_event_name;
  if (!isToolEventName(host, eventName)) return undefined;
  const event = host === 'cursor' ? cursorEvent(eventName, record) : claudeStyleEvent(eventName, record);
  if (event === undefined) return undefined;
  const text = (key: string): string | undefined => (typeof record[key] === 'string' && record[key] !== '' ? (record[key] as string) : undefined);
  const roots = record.workspace_roots;
  const root = Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : undefined;
  const sessionId = text('session_id') ?? text('conversation_id');
  const agentId = text('agent_id');
  const cwd = text('cwd') ?? root;
  return {
    eventName,
    event,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(agentId === undefined ? {} : { agentId }),
    ...(cwd === undefined ? {} : { cwd }),
  };
}

function claudeStyleEvent(eventName: string, record: Record<string, unknown>): ToolEvent | undefined {
  if (typeof record.tool_name !== 'string' || record.tool_name === '') return undefined;
  const callId = typeof record.tool_use_id === 'string' ? { callId: record.tool_use_id } : {};
  const base = { tool: record.tool_name, ...(record.tool_input === undefined ? {} : { input: record.tool_input }), ...callId };
  if (eventName === 'PreToolUse') return { phase: 'pre', ...base };
  const step = stallStepFromPostToolUse({ tool_name: record.tool_name, tool_input: record.tool_input, tool_response: record.tool_response });
  const result = {
    ...(step?.output === undefined ? {} : { output: step.output }),
    ...(step?.exitCode === undefined ? {} : { exitCode: step.exitCode }),
    ...(step?.error === undefined ? {} : { error: step.error }),
  };
  if (eventName === 'PostToolUseFailure') {
    const error = typeof record.error === 'string' ? record.error : '';
    const output = [result.output ?? '', error].filter((part) => part !== '').join('\n');
    return { phase: 'post', ...base, ...result, output, error: true };
  }
  return { phase: 'post', ...base, ...result };
}

function cursorEvent(eventName: string, record: Record<string, unknown>): ToolEvent | undefined {
  const phase = eventName.startsWith('before') ? 'pre' : 'post';
  if (eventName === 'afterFileEdit') {
    if (typeof record.file_path !== 'string' || record.file_path === '') return undefined;
    return { phase, tool: CURSOR_EDIT_TOOL, input: { file_path: record.file_path, ...(record.edits === undefined ? {} : { edits: record.edits }) }, output: '' };
  }
  if (eventName.endsWith('ShellExecution')) {
    if (typeof record.command !== 'string' || record.command === '') return undefined;
    const exit = [record.exit_code, record.exitCode].find((value) => typeof value === 'number') as number | undefined;
    return {
      phase,
      tool: CURSOR_SHELL_TOOL,
      input: { command: record.command },
      ...(phase === 'post' ? { output: typeof record.output === 'string' ? record.output : '' } : {}),
      ...(phase === 'post' && exit !== undefined ? { exitCode: exit } : {}),
    };
  }
  if (typeof record.tool_name !== 'string' || record.tool_name === '') return undefined;
  const input = typeof record.tool_input === 'string' ? parseJsonOrText(record.tool_input) : record.tool_input;
  const result = record.result_json;
  const output = result === undefined ? '' : typeof result === 'string' ? result : safeJson(result);
  return { phase, tool: record.tool_name, ...(input === undefined ? {} : { input }), ...(phase === 'post' ? { output } : {}) };
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
