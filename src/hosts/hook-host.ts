/** The coding-agent hosts that `stopwise hook` speaks to. */
export type HookHost = 'claude-code' | 'codex' | 'cursor' | 'copilot' | 'gemini';

/** Every supported host, in the order the CLI lists them. */
export const HOOK_HOSTS: readonly HookHost[] = Object.freeze(['claude-code', 'codex', 'cursor', 'copilot', 'gemini']);

/** True when `value` names a supported host. */
export function isHookHost(value: unknown): value is HookHost {
  return typeof value === 'string' && (HOOK_HOSTS as readonly string[]).includes(value);
}

const STOP_EVENTS: ReadonlySet<string> = new Set(['Stop', 'SubagentStop', 'stop', 'subagentStop', 'agentStop', 'AfterAgent']);

/**
 * True for the events a stop hook answers: `Stop` and `SubagentStop` (Claude
 * Code, Codex, Copilot's VS Code form), `stop` and `subagentStop` (Cursor,
 * Copilot), `agentStop` (Copilot) and `AfterAgent` (Gemini).
 */
export function isStopEventName(name: string): boolean {
  return STOP_EVENTS.has(name);
}

/**
 * How `stopwise hook <host>` exits when its stdin cannot be read: 1, a
 * non-blocking error for most hosts; 0 for Copilot, whose `preToolUse`
 * denies the tool call when a hook exits non-zero (and whose `agentStop`
 * reads no output as an allow), so that unreadable input never blocks.
 */
export function unreadableInputExitCode(host: HookHost): 0 | 1 {
  return host === 'copilot' ? 0 : 1;
}

/** Each host's name as people know it, for messages. */
export const HOST_NAMES: Readonly<Record<HookHost, string>> = { 'claude-code': 'Claude Code', codex: 'Codex', cursor: 'Cursor', copilot: 'Copilot', gemini: 'Gemini' };
