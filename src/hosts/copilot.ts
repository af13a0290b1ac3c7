import type { HookEvent, HostDescription } from './host.js';
import { callId, parsedArguments, place, resultText, text, toolName, versionOneRoot } from './payload.js';

/** Copilot CLI ends the turn after this many consecutive `agentStop` blocks (1.0.72 and later). */
const BLOCK_CAP = 8;
const TOOL_EVENTS = ['preToolUse', 'postToolUse', 'postToolUseFailure'];
/** Fields whose presence marks a camelCase payload of an event stopwise does not answer. */
const OTHER_EVENT_FIELDS: Readonly<Record<string, string>> = {
  source: 'sessionStart',
  initialPrompt: 'sessionStart',
  prompt: 'userPromptSubmitted',
  errorContext: 'errorOccurred',
  trigger: 'preCompact',
  notification_type: 'notification',
  agentDescription: 'subagentStart',
  reason: 'sessionEnd',
};

type Payload = Readonly<Record<string, unknown>>;

/**
 * GitHub Copilot CLI: `.github/hooks/*.json` (`version: 1`, flat entries with
 * the command in `bash` and `powershell`, `timeoutSec`), one command for
 * `agentStop` and the tool events. Payloads come in two forms: camelCase with
 * no event name (told by their fields) and the VS Code form with
 * `hook_event_name`. A block is `decision: "block"` (never exit 2: it is not
 * read as one); a command hook has no message for the person (a hand-off goes
 * on stderr); context for the agent is `additionalContext`, on `preToolUse`
 * (a message after the call) and `postToolUse` (appended to its result). It
 * honours 8 blocks in a row and ends the turn on the next. A non-zero exit of
 * a tool hook refuses the call, so unreadable input exits 0.
 *
 * @see https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference
 */
export const copilot: HostDescription = {
  name: 'copilot',
  label: 'Copilot',
  settingsFile: '.github/hooks/stopwise.json',
  events: { stop: 'agentStop', tools: TOOL_EVENTS },
  toolMatcher: 'bash|powershell|edit|create|apply_patch',
  timeout: { key: 'timeoutSec', unitMs: 1000, defaultSeconds: 30 },
  command: { shell: 'posix' },
  unreadableExitCode: 0,
  note: 'Copilot CLI loads .github/hooks/*.json from the repository when a session starts; the cloud agent reads them from the default branch.',
  settingsRoot: versionOneRoot,
  entry: (_kind, command, timeoutSeconds, matcher) => ({
    type: 'command',
    bash: command,
    // Windows has no sh: the npx form, which runs an installed stopwise and never downloads one.
    powershell: 'npx --offline --no-install stopwise hook copilot',
    cwd: '.',
    timeoutSec: timeoutSeconds,
    ...(matcher === undefined ? {} : { matcher }),
  }),
  blockCap: () => ({ blocks: BLOCK_CAP, source: "Copilot CLI's cap" }),
  readEvent(payload) {
    const name = text(payload, 'hook_event_name', 'hookEventName');
    if (name !== undefined) return namedEvent(payload, name);
    if (payload.toolName !== undefined || payload.tool_name !== undefined) {
      const name = payload.toolResult !== undefined || payload.tool_result !== undefined ? 'postToolUse' : payload.error !== undefined ? 'postToolUseFailure' : 'preToolUse';
      return namedEvent(payload, name);
    }
    if (payload.stopReason !== undefined || payload.stop_hook_active !== undefined || payload.stopHookActive !== undefined) return stop('agentStop', payload);
    const other = Object.keys(OTHER_EVENT_FIELDS).find((field) => payload[field] !== undefined);
    if (other !== undefined) return { kind: 'other', eventName: OTHER_EVENT_FIELDS[other] as string };
    throw new TypeError('the Copilot hook payload is no event stopwise knows (no hook_event_name, toolName or stopReason): stopwise hook reads the JSON the host sends on stdin');
  },
  encodeStop(answer) {
    if (answer.kind === 'block') return { exitCode: 0, stdout: { decision: 'block', reason: answer.reason }, ...(answer.warning === undefined ? {} : { stderr: answer.warning }) };
    const line = answer.kind === 'handoff' ? answer.message : answer.warning;
    return line === undefined ? { exitCode: 0 } : { exitCode: 0, stderr: line };
  },
  encodeTool(event, answer) {
    if (answer.kind === 'none') return { exitCode: 0 };
    const message = answer.kind === 'deny' ? answer.reason : answer.message;
    if (event === 'preToolUse' && answer.kind === 'deny') return { exitCode: 0, stdout: { permissionDecision: 'deny', permissionDecisionReason: message } };
    if (event === 'postToolUseFailure') return { exitCode: 2, stderr: message };
    return { exitCode: 0, stdout: { additionalContext: message } };
  },
};

function stop(name: string, payload: Payload): HookEvent {
  return {
    kind: 'stop',
    ...place(name, payload, { session: ['sessionId', 'session_id'], cwd: ['cwd'] }),
    lastMessage: text(payload, 'last_assistant_message') ?? '',
    reentered: payload.stopHookActive === true || payload.stop_hook_active === true,
  };
}

function namedEvent(payload: Payload, name: string): HookEvent {
  if (name === 'agentStop' || name === 'Stop' || name === 'subagentStop' || name === 'SubagentStop') return stop(name, payload);
  const canonical = name === 'PreToolUse' ? 'preToolUse' : name === 'PostToolUse' ? 'postToolUse' : name === 'PostToolUseFailure' ? 'postToolUseFailure' : name;
  if (!TOOL_EVENTS.includes(canonical)) return { kind: 'other', eventName: name };
  const tool = toolName(payload, canonical, 'toolName', 'tool_name');
  const args = payload.toolArgs !== undefined ? payload.toolArgs : payload.tool_input;
  const call = { tool, ...(args === undefined ? {} : { input: parsedArguments(args) }), ...callId(payload, 'toolCallId', 'tool_call_id', 'tool_use_id') };
  const at = place(canonical, payload, { session: ['sessionId', 'session_id'], cwd: ['cwd'] });
  if (canonical === 'preToolUse') return { kind: 'tool', ...at, tool: { phase: 'pre', ...call } };
  if (canonical === 'postToolUseFailure') {
    const error = payload.error;
    const message = typeof error === 'string' ? error : typeof error === 'object' && error !== null ? text(error as Payload, 'message') : undefined;
    return { kind: 'tool', ...at, tool: { phase: 'post', ...call, ...(message === undefined ? {} : { output: message }), error: true } };
  }
  const result = payload.toolResult ?? payload.tool_result;
  if (typeof result !== 'object' || result === null) {
    const output = resultText(result);
    return { kind: 'tool', ...at, tool: { phase: 'post', ...call, ...(output === undefined ? {} : { output }) } };
  }
  const fields = result as Payload;
  const body = text(fields, 'textResultForLlm', 'text_result_for_llm') ?? resultText(fields.content);
  const type = text(fields, 'resultType', 'result_type');
  // A shell call's result is "success" whatever the command did; its text ends with the shell's id (new at every call)
  // and the exit code, which is what says whether it failed.
  const trailer = body === undefined ? null : SHELL_TRAILER.exec(body);
  if (trailer !== null && body !== undefined) {
    const exitCode = Number(trailer[1]);
    return { kind: 'tool', ...at, tool: { phase: 'post', ...call, output: body.slice(0, trailer.index), exitCode, error: exitCode !== 0 } };
  }
  return { kind: 'tool', ...at, tool: { phase: 'post', ...call, ...(body === undefined ? {} : { output: body }), ...(type === undefined ? {} : { error: type !== 'success' }) } };
}

/** How Copilot CLI ends a shell call's result: `<shellId: 7 completed with exit code 1>`. */
const SHELL_TRAILER = /\s*<shellId: [^>]* completed with exit code (-?\d+)>\s*$/;
