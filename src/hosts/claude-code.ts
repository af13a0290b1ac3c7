import type { HostDescription } from './host.js';
import { blockOrMessage, claudeStyleStop, claudeStyleTool, eventName, nestedEntry, claudeStyleToolAnswer } from './payload.js';

const TOOL_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'];
/** Claude Code's cap on consecutive Stop blocks when `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` is not set. */
const DEFAULT_BLOCK_CAP = 8;

/**
 * Claude Code: `.claude/settings.json`, `Stop` and `SubagentStop` (the last
 * message in `last_assistant_message`, re-entry in `stop_hook_active`), tool
 * events `PreToolUse`, `PostToolUse` and `PostToolUseFailure`; a block is
 * `decision: "block"` with a reason, a hand-off a `systemMessage`; it honours
 * 8 blocks in a row and ends the turn on the next, unless
 * `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` says otherwise (0: no cap).
 *
 * @see https://code.claude.com/docs/en/hooks
 */
export const claudeCode: HostDescription = {
  name: 'claude-code',
  label: 'Claude Code',
  settingsFile: '.claude/settings.json',
  events: { stop: 'Stop', tools: TOOL_EVENTS },
  // The tools that run commands or change files, and MCP tools; a hook on every read would cost a process start each.
  toolMatcher: 'Bash|Edit|MultiEdit|Write|NotebookEdit|mcp__.*',
  timeout: { key: 'timeout', unitMs: 1000, defaultSeconds: 600 },
  command: { projectDirVariable: 'CLAUDE_PROJECT_DIR', shell: 'posix' },
  unreadableExitCode: 1,
  note: 'Claude Code loads the hook in new sessions; /hooks shows it.',
  settingsRoot: (root) => ({ ...root }),
  entry: (_kind, command, timeoutSeconds, matcher) => nestedEntry(command, timeoutSeconds, matcher),
  blockCap(env) {
    const raw = env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP?.trim();
    if (raw === undefined || !/^\d+$/.test(raw)) return { blocks: DEFAULT_BLOCK_CAP, source: "Claude Code's default cap" };
    return Number(raw) === 0 ? undefined : { blocks: Number(raw), source: 'CLAUDE_CODE_STOP_HOOK_BLOCK_CAP' };
  },
  readEvent(payload) {
    const name = eventName(payload, 'Claude Code', 'hook_event_name');
    if (name === 'Stop' || name === 'SubagentStop') return claudeStyleStop(name, payload, ['last_assistant_message']);
    if (TOOL_EVENTS.includes(name)) return claudeStyleTool(name, payload);
    return { kind: 'other', eventName: name };
  },
  encodeStop: blockOrMessage,
  encodeTool: claudeStyleToolAnswer,
};
