import { describeValue } from '../core/describe-value.js';

/**
 * What a host sends a stop hook on stdin, reduced to the fields stopwise knows
 * (Claude Code `Stop`/`SubagentStop`, Codex `Stop`, Cursor `stop`, Copilot
 * `agentStop`, Gemini `AfterAgent`). Every field
 * is optional: hosts differ, older versions leave fields out, and a field of
 * the wrong type is dropped rather than trusted.
 */
export interface StopHookInput {
  readonly hook_event_name?: string;
  readonly session_id?: string;
  readonly transcript_path?: string;
  readonly cwd?: string;
  readonly stop_hook_active?: boolean;
  readonly last_assistant_message?: string;
  readonly permission_mode?: string;
  readonly prompt_id?: string;
  readonly agent_id?: string;
  readonly agent_type?: string;
  readonly agent_transcript_path?: string;
  /** Codex: the turn being stopped. */
  readonly turn_id?: string;
  readonly model?: string;
  /** Cursor: the conversation, its session id. */
  readonly conversation_id?: string;
  readonly generation_id?: string;
  /** Cursor: `completed`, `aborted` or `error`. */
  readonly status?: string;
  /** Cursor: how many follow-up messages the hook has already sent in this loop. */
  readonly loop_count?: number;
  /** Cursor: the workspace folders, the first being the project. */
  readonly workspace_roots?: readonly string[];
}

const STRING_FIELDS = [
  'hook_event_name',
  'session_id',
  'transcript_path',
  'cwd',
  'last_assistant_message',
  'permission_mode',
  'prompt_id',
  'agent_id',
  'agent_type',
  'agent_transcript_path',
  'turn_id',
  'model',
  'conversation_id',
  'generation_id',
  'status',
] as const;

/**
 * Reads a stop hook's stdin, already parsed from JSON: keeps the known fields
 * that have the right type and drops everything else (unknown fields, nulls,
 * wrong types). Throws a `TypeError` when `raw` is not a JSON object.
 *
 * @example
 * parseStopHookInput(JSON.parse(stdin)); // { hook_event_name: 'Stop', session_id: '...', stop_hook_active: false, ... }
 */
export function parseStopHookInput(raw: unknown): StopHookInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new TypeError(`stop hook input must be a JSON object, got ${describeValue(raw)}`);
  }
  const record = withHostAliases(raw as Record<string, unknown>);
  const input: Record<string, unknown> = {};
  for (const key of STRING_FIELDS) {
    const value = record[key];
    if (typeof value === 'string') input[key] = value;
  }
  if (typeof record.stop_hook_active === 'boolean') input.stop_hook_active = record.stop_hook_active;
  const loopCount = record.loop_count;
  if (typeof loopCount === 'number' && Number.isInteger(loopCount) && loopCount >= 0) input.loop_count = loopCount;
  const roots = record.workspace_roots;
  if (Array.isArray(roots) && roots.every((root) => typeof root === 'string')) input.workspace_roots = [...roots];
  return input as StopHookInput;
}

/**
 * The other spellings hosts use for fields stopwise knows: Copilot's camelCase
 * payloads (`sessionId`, `transcriptPath`, `stopHookActive`) and Gemini's
 * `prompt_response` (the agent's final text). The known spelling wins when
 * both are there.
 */
const FIELD_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  sessionId: 'session_id',
  transcriptPath: 'transcript_path',
  stopHookActive: 'stop_hook_active',
  hookEventName: 'hook_event_name',
  prompt_response: 'last_assistant_message',
});

function withHostAliases(record: Record<string, unknown>): Record<string, unknown> {
  const aliased: Record<string, unknown> = {};
  for (const [alias, field] of Object.entries(FIELD_ALIASES)) {
    if (record[alias] !== undefined && record[field] === undefined) aliased[field] = record[alias];
  }
  return Object.keys(aliased).length === 0 ? record : { ...record, ...aliased };
}

/** The session the stop belongs to: `session_id`, or Cursor's `conversation_id`. */
export function stopHookSessionId(input: StopHookInput): string | undefined {
  return input.session_id ?? input.conversation_id;
}

/** The folder the agent works in: `cwd`, or Cursor's first workspace root. */
export function stopHookWorkingDirectory(input: StopHookInput): string | undefined {
  return input.cwd ?? input.workspace_roots?.[0];
}

/**
 * What the host itself says about re-entry: `stop_hook_active` (Claude Code,
 * Codex) or a `loop_count` above zero (Cursor).
 */
export function hostSignalsReentry(input: StopHookInput): boolean {
  return input.stop_hook_active === true || (input.loop_count ?? 0) > 0;
}
