import { describeValue, safeJson } from '../core/describe-value.js';
import type { EncodedStop, HookEvent, HookEventPlace, HookOutput, ToolAnswer, ToolEvent } from './host.js';

// What the host descriptions share: reading payload fields of the types they should have (a field of another type
// is dropped, never trusted), and the answer shapes several hosts read alike.

type Payload = Readonly<Record<string, unknown>>;

/** The first of `keys` that holds a non-empty string. */
export function text(payload: Payload, ...keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = payload[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The event name, the session, the agent and the folder of a payload, each under the first key that holds it. */
export function place(
  eventName: string,
  payload: Payload,
  keys: { readonly session: readonly string[]; readonly agent?: readonly string[]; readonly cwd: readonly string[] },
): HookEventPlace {
  const sessionId = text(payload, ...keys.session);
  const agentId = keys.agent === undefined ? undefined : text(payload, ...keys.agent);
  const roots = payload.workspace_roots;
  const cwd = text(payload, ...keys.cwd) ?? (Array.isArray(roots) && typeof roots[0] === 'string' && roots[0] !== '' ? roots[0] : undefined);
  return { eventName, ...(sessionId === undefined ? {} : { sessionId }), ...(agentId === undefined ? {} : { agentId }), ...(cwd === undefined ? {} : { cwd }) };
}

/** The name of a tool event's tool: a non-empty string, else a `TypeError` saying which field is wrong. */
export function toolName(payload: Payload, eventName: string, ...keys: readonly string[]): string {
  const name = text(payload, ...keys);
  if (name === undefined || name.trim() === '') {
    const got = keys.map((key) => payload[key]).find((value) => value !== undefined);
    throw new TypeError(`${eventName} input needs the tool's name in "${keys[0]}" (a non-empty string), got ${describeValue(got)}`);
  }
  return name;
}

/** A tool call's id, when the payload names one under any of `keys`. */
export function callId(payload: Payload, ...keys: readonly string[]): { readonly callId?: string } {
  const id = text(payload, ...keys);
  return id === undefined ? {} : { callId: id };
}

/** Text joined from a value hosts use for tool results: a string, a list of parts with `text`, or a part. */
export function resultText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const parts = value.map(resultText).filter((part): part is string => part !== undefined);
    return parts.length === 0 ? undefined : parts.join('\n');
  }
  if (typeof value === 'object' && value !== null) {
    const part = (value as Record<string, unknown>).text;
    return typeof part === 'string' ? part : undefined;
  }
  return undefined;
}

/** Tool arguments given as a JSON string, parsed; anything else as it is. */
export function parsedArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  const trimmed = args.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return args;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return args;
  }
}

/**
 * A shell or tool response (Claude Code and Codex `tool_response`): its text
 * (a shell's stdout and stderr), its exit code and whether it failed, when it
 * says so.
 */
export function toolResponse(response: unknown): Pick<ToolEvent, 'output' | 'exitCode' | 'error'> {
  if (response === undefined || response === null) return {};
  if (typeof response === 'string') return { output: response };
  if (typeof response !== 'object') return { output: String(response) };
  const fields = response as Record<string, unknown>;
  const part = (key: string): string => (typeof fields[key] === 'string' ? (fields[key] as string) : '');
  const exit = [fields.exit_code, fields.exitCode, fields.returncode].find((value) => typeof value === 'number') as number | undefined;
  const flag = [fields.is_error, fields.isError, fields.error].find((value) => typeof value === 'boolean') as boolean | undefined;
  const failed = flag ?? (typeof fields.error === 'string' && fields.error !== '' ? true : undefined);
  const shell = part('stdout') !== '' || part('stderr') !== '' || 'stdout' in fields;
  const output = shell ? [part('stdout'), part('stderr')].filter((piece) => piece !== '').join('\n') : safeJson(response);
  return { output, ...(exit === undefined ? {} : { exitCode: exit }), ...(failed === undefined ? {} : { error: failed }) };
}

/**
 * A stop payload of the Claude Code family (Claude Code, Codex, Gemini): the
 * agent's last message and the host's re-entry flag.
 */
export function claudeStyleStop(eventName: string, payload: Payload, lastMessageKeys: readonly string[]): HookEvent {
  return {
    kind: 'stop',
    ...place(eventName, payload, { session: ['session_id'], agent: ['agent_id'], cwd: ['cwd'] }),
    lastMessage: text(payload, ...lastMessageKeys) ?? '',
    reentered: payload.stop_hook_active === true,
  };
}

/** A `PreToolUse` / `PostToolUse` / `PostToolUseFailure` payload (Claude Code, Codex). */
export function claudeStyleTool(eventName: string, payload: Payload): HookEvent {
  const tool = toolName(payload, eventName, 'tool_name');
  const call = { tool, ...(payload.tool_input === undefined ? {} : { input: payload.tool_input }), ...callId(payload, 'tool_use_id') };
  const at = place(eventName, payload, { session: ['session_id'], agent: ['agent_id'], cwd: ['cwd'] });
  if (eventName === 'PreToolUse') return { kind: 'tool', ...at, tool: { phase: 'pre', ...call } };
  const result = toolResponse(payload.tool_response);
  if (eventName === 'PostToolUseFailure') {
    const error = typeof payload.error === 'string' ? payload.error : '';
    const output = [result.output ?? '', error].filter((piece) => piece !== '').join('\n');
    return { kind: 'tool', ...at, tool: { phase: 'post', ...call, ...result, output, error: true } };
  }
  return { kind: 'tool', ...at, tool: { phase: 'post', ...call, ...result } };
}

/** An event name the payload must carry: a non-empty string, else a `TypeError`. */
export function eventName(payload: Payload, host: string, ...keys: readonly string[]): string {
  const name = text(payload, ...keys);
  if (name === undefined) {
    throw new TypeError(`the ${host} hook payload names no event (no "${keys[0]}"): stopwise hook reads the JSON the host sends on stdin`);
  }
  return name;
}

/** Claude Code's and Codex's stop answer: a block as `decision` and a non-empty `reason`, a hand-off as `systemMessage`, an allow as nothing. */
export function blockOrMessage(answer: EncodedStop): HookOutput {
  switch (answer.kind) {
    case 'block':
      return { exitCode: 0, stdout: { decision: 'block', reason: answer.reason, ...(answer.warning === undefined ? {} : { systemMessage: answer.warning }) } };
    case 'handoff':
      return { exitCode: 0, stdout: { systemMessage: answer.message } };
    case 'allow':
      return answer.warning === undefined ? { exitCode: 0 } : { exitCode: 0, stdout: { systemMessage: answer.warning } };
  }
}

/**
 * Claude Code's and Codex's tool answer: before the call (`PreToolUse`), a
 * refusal as `permissionDecision: "deny"` with its reason and context as
 * `additionalContext`, never `allow`, which would skip the user's permission
 * prompt; after it (`PostToolUse`, `PostToolUseFailure`), the message as
 * `additionalContext` of that event, which the host passes with the call's
 * result (a refusal there comes too late to stop the call).
 */
export function claudeStyleToolAnswer(eventName: string, answer: ToolAnswer): HookOutput {
  if (answer.kind === 'none') return { exitCode: 0 };
  if (eventName !== 'PreToolUse') {
    const message = answer.kind === 'deny' ? answer.reason : answer.message;
    return { exitCode: 0, stdout: { hookSpecificOutput: { hookEventName: eventName, additionalContext: message } } };
  }
  if (answer.kind === 'context') return { exitCode: 0, stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: answer.message } } };
  return { exitCode: 0, stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: answer.reason } } };
}

/** A settings root that must carry `version: 1` (Cursor, Copilot): added when absent, refused when another. */
export function versionOneRoot(root: Readonly<Record<string, unknown>>): Record<string, unknown> | string {
  if (root.version === undefined) return { version: 1, ...root };
  return root.version === 1 ? { ...root } : `"version" must be 1 (the hooks format the host reads), got ${describeValue(root.version)}`;
}

/** The entry of the Claude Code family: the command under `hooks`, with a `matcher` for a tool event. */
export function nestedEntry(command: string, timeoutSeconds: number, matcher: string | undefined): Record<string, unknown> {
  return { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command, timeout: timeoutSeconds }] };
}
