import { Murmur128 } from '../core/murmur-hash.js';
import type { HostDescription } from './host.js';
import { callId, eventName, place, resultText, text, toolName } from './payload.js';

/** How Gemini CLI's shell tool ends its result for the model when the command failed. */
const SHELL_EXIT_CODE = /^Exit Code: (-?\d+)$/m;
const SHELL_TOOL = 'run_shell_command';

/**
 * Gemini CLI: `.gemini/settings.json` (hook definitions holding command
 * hooks, `timeout` in milliseconds), `AfterAgent` (`prompt_response`,
 * `stop_hook_active`) answered with `decision: "deny"` and a reason, sent as
 * a new prompt; `BeforeTool` and `AfterTool`. Context before a tool cannot
 * reach the agent without refusing the call (it goes to the person as a
 * `systemMessage`); after a call it is appended to the tool's result. Its own
 * loop detection stops the fifth identical tool call in a row and ends the run
 * with no `AfterAgent`: the tool guard's ladder is fitted under it, and its
 * hand-off is made at the refusal that asks a person.
 *
 * @see https://geminicli.com/docs/hooks/reference
 */
export const gemini: HostDescription = {
  name: 'gemini',
  label: 'Gemini',
  settingsFile: '.gemini/settings.json',
  events: { stop: 'AfterAgent', tools: ['BeforeTool', 'AfterTool'] },
  toolMatcher: `^(${SHELL_TOOL}|write_file|replace)$`,
  timeout: { key: 'timeout', unitMs: 1, defaultSeconds: 60 },
  command: { projectDirVariable: 'GEMINI_PROJECT_DIR', shell: 'posix' },
  unreadableExitCode: 1,
  note: 'Gemini CLI runs project hooks only in a trusted folder, and asks you to trust new project hooks once; /hooks shows them.',
  settingsRoot: (root) => ({ ...root }),
  entry: (kind, command, timeoutSeconds, matcher) => ({
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [{ type: 'command', name: kind === 'stop' ? 'stopwise' : 'stopwise-tool-guard', command, timeout: timeoutSeconds * 1000 }],
  }),
  // Gemini CLI's LoopDetectionService: TOOL_CALL_LOOP_THRESHOLD identical calls in a row.
  loopDetection: { identicalCalls: 5 },
  // No cap on AfterAgent retries was seen in a run of 400 blocks in a row.
  blockCap: () => undefined,
  readEvent(payload) {
    const name = eventName(payload, 'Gemini', 'hook_event_name');
    const at = place(name, payload, { session: ['session_id'], cwd: ['cwd'] });
    if (name === 'AfterAgent') {
      const prompt = text(payload, 'prompt');
      return {
        kind: 'stop',
        ...at,
        lastMessage: text(payload, 'prompt_response') ?? '',
        reentered: payload.stop_hook_active === true,
        ...(prompt === undefined ? {} : { turn: new Murmur128().update(prompt).digest() }),
      };
    }
    if (name !== 'BeforeTool' && name !== 'AfterTool') return { kind: 'other', eventName: name };
    const tool = toolName(payload, name, 'tool_name');
    const call = { tool, ...(payload.tool_input === undefined ? {} : { input: payload.tool_input }), ...callId(payload, 'tool_call_id', 'call_id') };
    if (name === 'BeforeTool') return { kind: 'tool', ...at, tool: { phase: 'pre', ...call } };
    const response = payload.tool_response;
    if (typeof response !== 'object' || response === null || Array.isArray(response)) {
      const output = resultText(response);
      return { kind: 'tool', ...at, tool: { phase: 'post', ...call, ...(output === undefined ? {} : { output }) } };
    }
    const fields = response as Record<string, unknown>;
    const output = resultText(fields.llmContent) ?? resultText(fields.returnDisplay);
    const match = tool === SHELL_TOOL && output !== undefined ? SHELL_EXIT_CODE.exec(output) : null;
    const exitCode = match?.[1] === undefined ? undefined : Number(match[1]);
    const failed = (fields.error !== undefined && fields.error !== null) || (exitCode !== undefined && exitCode !== 0);
    return { kind: 'tool', ...at, tool: { phase: 'post', ...call, ...(output === undefined ? {} : { output }), error: failed, ...(exitCode === undefined ? {} : { exitCode }) } };
  },
  encodeStop(answer) {
    switch (answer.kind) {
      case 'block':
        return { exitCode: 0, stdout: { decision: 'deny', reason: answer.reason, ...(answer.warning === undefined ? {} : { systemMessage: answer.warning }) } };
      case 'handoff':
        return { exitCode: 0, stdout: { systemMessage: answer.message } };
      case 'allow':
        return answer.warning === undefined ? { exitCode: 0 } : { exitCode: 0, stdout: { systemMessage: answer.warning } };
    }
  },
  encodeTool(event, answer) {
    if (answer.kind === 'none') return { exitCode: 0 };
    const message = answer.kind === 'deny' ? answer.reason : answer.message;
    // After the call ran, both reach the agent appended to the result; a deny there would hide the real result.
    if (event === 'AfterTool') return { exitCode: 0, stdout: { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: message } } };
    if (answer.kind === 'deny') return { exitCode: 0, stdout: { decision: 'deny', reason: message, ...(answer.person === undefined ? {} : { systemMessage: answer.person }) } };
    return { exitCode: 0, stdout: { systemMessage: message } };
  },
};
