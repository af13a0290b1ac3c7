import { safeJson } from '../core/describe-value.js';
import type { HookEvent, HostDescription, ToolEvent } from './host.js';
import { stopwiseCommands } from './hook-command.js';
import { eventName, parsedArguments, place, text, toolName, versionOneRoot } from './payload.js';

/** The `loop_limit` `init` writes on the stop entry, and Cursor's default when an entry sets none. */
const LOOP_LIMIT = 5;
/** The tool name a Cursor shell command is recorded under (Cursor names no tool for it), and a file edit's. */
const SHELL_TOOL = 'Shell';
const EDIT_TOOL = 'Edit';
const TOOL_EVENTS = ['beforeShellExecution', 'afterShellExecution', 'beforeMCPExecution', 'afterMCPExecution', 'afterFileEdit'];

/**
 * Cursor: `.cursor/hooks.json` (`version: 1`, flat entries), `stop`
 * (`conversation_id`, `status`, `loop_count`; no `stop_hook_active`) answered
 * with `followup_message`, the next user message; continuations are capped by
 * the entry's `loop_limit`. Tool events per kind of tool: shell and MCP calls
 * before and after, file edits after (so an edit is recorded, never refused).
 * It has no message for the person: a hand-off goes on stderr.
 *
 * @see https://cursor.com/docs/agent/hooks
 */
export const cursor: HostDescription = {
  name: 'cursor',
  label: 'Cursor',
  settingsFile: '.cursor/hooks.json',
  events: { stop: 'stop', tools: TOOL_EVENTS },
  timeout: { key: 'timeout', unitMs: 1000 },
  command: { projectDirVariable: 'CURSOR_PROJECT_DIR', shell: 'any' },
  unreadableExitCode: 1,
  note: 'Cursor loads .cursor/hooks.json when the project opens.',
  settingsRoot: versionOneRoot,
  entry: (kind, command, timeoutSeconds) => (kind === 'stop' ? { command, timeout: timeoutSeconds, loop_limit: LOOP_LIMIT } : { command, timeout: timeoutSeconds }),
  blockCap(_env, settings) {
    const limit = stopLoopLimit(settings);
    // Follow-ups past the limit are dropped: Cursor ends the run on the block after the last one it sends.
    return { blocks: limit ?? LOOP_LIMIT, source: limit === undefined ? "Cursor's default loop_limit" : 'the loop_limit in .cursor/hooks.json' };
  },
  readEvent(payload) {
    const name = eventName(payload, 'Cursor', 'hook_event_name');
    const at = place(name, payload, { session: ['conversation_id', 'session_id'], cwd: ['cwd'] });
    if (name === 'stop') {
      const loopCount = typeof payload.loop_count === 'number' && Number.isInteger(payload.loop_count) && payload.loop_count >= 0 ? payload.loop_count : undefined;
      const status = text(payload, 'status');
      return {
        kind: 'stop',
        ...at,
        lastMessage: '',
        reentered: (loopCount ?? 0) > 0,
        ...(loopCount === undefined ? {} : { loopCount }),
        ...(status === undefined ? {} : { status }),
      };
    }
    if (!TOOL_EVENTS.includes(name)) return { kind: 'other', eventName: name };
    return { kind: 'tool', ...at, tool: toolEvent(name, payload) } satisfies HookEvent;
  },
  encodeStop(answer) {
    if (answer.kind === 'block') return { exitCode: 0, stdout: { followup_message: answer.reason }, ...(answer.warning === undefined ? {} : { stderr: answer.warning }) };
    const line = answer.kind === 'handoff' ? answer.message : answer.warning;
    return { exitCode: 0, stdout: {}, ...(line === undefined ? {} : { stderr: line }) };
  },
  encodeTool(event, answer) {
    if (answer.kind === 'context') return { exitCode: 0, stderr: answer.message };
    if (answer.kind !== 'deny' || !event.startsWith('before')) return { exitCode: 0 };
    return { exitCode: 0, stdout: { permission: 'deny', user_message: 'stopwise refused a repeating call; the agent was told why.', agent_message: answer.reason } };
  },
};

function toolEvent(name: string, payload: Readonly<Record<string, unknown>>): ToolEvent {
  const phase = name.startsWith('before') ? 'pre' : 'post';
  if (name === 'afterFileEdit') {
    const file = text(payload, 'file_path');
    if (file === undefined) throw new TypeError('afterFileEdit input needs the edited file in "file_path"');
    return { phase, tool: EDIT_TOOL, input: { file_path: file, ...(payload.edits === undefined ? {} : { edits: payload.edits }) }, output: '' };
  }
  if (name.endsWith('ShellExecution')) {
    const command = text(payload, 'command');
    if (command === undefined) throw new TypeError(`${name} input needs the shell command in "command"`);
    const exit = [payload.exit_code, payload.exitCode].find((value) => typeof value === 'number') as number | undefined;
    if (phase === 'pre') return { phase, tool: SHELL_TOOL, input: { command } };
    return { phase, tool: SHELL_TOOL, input: { command }, output: typeof payload.output === 'string' ? payload.output : '', ...(exit === undefined ? {} : { exitCode: exit }) };
  }
  const tool = toolName(payload, name, 'tool_name');
  const input = parsedArguments(payload.tool_input);
  const result = payload.result_json;
  const output = result === undefined ? '' : typeof result === 'string' ? result : safeJson(result);
  return { phase, tool, ...(input === undefined ? {} : { input }), ...(phase === 'post' ? { output } : {}) };
}

/** The `loop_limit` of the stopwise stop entry in Cursor's settings, when it sets a whole number. */
function stopLoopLimit(settings: unknown): number | undefined {
  const hooks = (settings as { hooks?: { stop?: unknown } } | null | undefined)?.hooks;
  const entries = typeof hooks === 'object' && hooks !== null ? hooks.stop : undefined;
  if (!Array.isArray(entries)) return undefined;
  for (const entry of entries) {
    const [record] = stopwiseCommands(entry, 'cursor');
    const limit = record?.loop_limit;
    if (typeof limit === 'number' && Number.isInteger(limit) && limit >= 0) return limit;
  }
  return undefined;
}
