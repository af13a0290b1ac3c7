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
