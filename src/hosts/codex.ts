import type { HostDescription } from './host.js';
import { blockOrMessage, claudeStyleStop, claudeStyleTool, eventName, nestedEntry, claudeStyleToolAnswer } from './payload.js';

const TOOL_EVENTS = ['PreToolUse', 'PostToolUse'];

/**
 * OpenAI Codex CLI: `.codex/hooks.json` in the Claude Code format, `Stop`,
 * `PreToolUse` (its shell tool, named `Bash`) and `PostToolUse`. Its outputs
 * accept only `continue`, `decision`, `reason`, `stopReason`,
 * `suppressOutput` and `systemMessage`; a block needs a non-empty reason. It
 * has no cap on consecutive Stop blocks. It runs hook commands with the
 * user's login shell, so the command is wrapped in `sh -c`.
 *
 * @see https://developers.openai.com/codex/hooks
 */
export const codex: HostDescription = {
  name: 'codex',
  label: 'Codex',
  settingsFile: '.codex/hooks.json',
  events: { stop: 'Stop', tools: TOOL_EVENTS },
  toolMatcher: 'Bash',
  timeout: { key: 'timeout', unitMs: 1000, defaultSeconds: 600 },
  command: { shell: 'any' },
  unreadableExitCode: 1,
  note: 'Codex runs project hooks once you trust them: it asks at the next session, and again whenever a hook changes.',
  settingsRoot: (root) => ({ ...root }),
  entry: (_kind, command, timeoutSeconds, matcher) => nestedEntry(command, timeoutSeconds, matcher),
  blockCap: () => undefined,
  readEvent(payload) {
    const name = eventName(payload, 'Codex', 'hook_event_name');
    if (name === 'Stop') return claudeStyleStop(name, payload, ['last_assistant_message']);
    if (TOOL_EVENTS.includes(name)) return claudeStyleTool(name, payload);
    return { kind: 'other', eventName: name };
  },
  encodeStop: blockOrMessage,
  encodeTool: claudeStyleToolAnswer,
};
