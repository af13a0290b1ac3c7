import { describeValue } from '../core/describe-value.js';
import type { JsonFile } from '../input/read-json-file.js';
import type { HookHost } from './hook-host.js';
import { HOOK_SETTINGS_PATHS, isStopwiseHookCommand, stopHookEntry, type StopHookForm } from './install-stop-hook.js';

/**
 * The tools whose calls the guard sees by default on Claude Code: the ones
 * that run commands or change files, and MCP tools. Read-only tools (Read,
 * Grep, Glob, WebFetch, ...) are left out: a hook on every read costs a
 * process start each, and rereading is rarely the loop that burns a budget.
 */
export const CLAUDE_CODE_TOOL_MATCHER = 'Bash|Edit|MultiEdit|Write|NotebookEdit|mcp__.*';
/** Codex fires PreToolUse for its shell tool alone, which it names `Bash`. */
export const CODEX_TOOL_MATCHER = 'Bash';

/** The tool events `stopwise init` registers per host. */
export const TOOL_HOOK_EVENTS: Readonly<Record<HookHost, readonly string[]>> = Object.freeze({
  'claude-code': Object.freeze(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']),
  codex: Object.freeze(['PreToolUse', 'PostToolUse']),
  cursor: Object.freeze(['beforeShellExecution', 'afterShellExecution', 'beforeMCPExecution', 'afterMCPExecution', 'afterFileEdit']),
  // Copilot's and Gemini's tool events are registered with their stop event (install-host-hooks.ts).
  copilot: Object.freeze(['preToolUse', 'postToolUse', 'postToolUseFailure']),
  gemini: Object.freeze(['BeforeTool', 'AfterTool']),
});

/** A tool hook runs on every tool call: it answers in well under a second, so the host may give up on it early. */
export const TOOL_HOOK_TIMEOUT_SECONDS = 30;

/** Options of {@link mergeToolHooks}. */
export interface ToolHookOptions {
  /** Guard every tool, read-only ones included (no matcher). */
  readonly allTools?: boolean;
  readonly platform?: NodeJS.Platform;
  /** The form of the command, as for the stop hook (default `shell`). */
  readonly form?: StopHookForm;
}

/** The matcher a tool hook entry gets: `undefined` for every tool (and on Cursor, whose events are per kind of tool). */
export function toolHookMatcher(host: HookHost, allTools: boolean): string | undefined {
  if (allTools || host === 'cursor') return undefined;
  return host === 'claude-code' ? CLAUDE_CODE_TOOL_MATCHER : CODEX_TOOL_MATCHER;
}

/**
 * Adds the stopwise tool hooks to a host's hook settings (the parsed JSON, as
 * `mergeStopHook` left it), one entry per tool event, without touching any
 * other entry. An event that already has a stopwise hook is left as it is.
 * A file whose shape is not what the host reads is refused.
 */
export function mergeToolHooks(
  host: HookHost,
  existing: Record<string, unknown>,
  options: ToolHookOptions = {},
): { readonly ok: true; readonly added: readonly string[]; readonly value: Record<string, unknown> } | { readonly ok: false; readonly message: string } {
  const file = HOOK_SETTINGS_PATHS[host];
  const hooks = existing.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return { ok: false, message: `${file}: "hooks" must be an object, got ${describeValue(hooks)}` };
  const next: Record<string, unknown> = { ...(hooks as Record<string, unknown>) };
  // The same command as the stop hook: it tells the events apart by hook_event_name.
  const { loop_limit: _stopOnly, ...hook } = stopHookEntry(host, TOOL_HOOK_TIMEOUT_SECONDS, options.platform ?? process.platform, options.form ?? 'shell');
  const matcher = toolHookMatcher(host, options.allTools === true);
  const added: string[] = [];
  for (const event of TOOL_HOOK_EVENTS[host]) {
    const entries = next[event] ?? [];
    if (!Array.isArray(entries)) return { ok: false, message: `${file}: "hooks.${event}" must be an array, got ${describeValue(entries)}` };
    if (entries.some((entry) => stopwiseCommands(entry, host).length > 0)) continue;
    const entry = host === 'cursor' ? hook : { ...(matcher === undefined ? {} : { matcher }), hooks: [hook] };
    next[event] = [...entries, entry];
    added.push(event);
  }
  return { ok: true, added, value: { ...existing, hooks: next } };
}

/** What a host's settings say about the stopwise tool hooks: the events registered (with their matchers) and the ones missing. */
export type ToolHooksCheck =
  | { readonly kind: 'unreadable' }
  | { readonly kind: 'checked'; readonly registered: readonly { readonly event: string; readonly matcher?: string }[]; readonly missing: readonly string[] };

/** Reads a host's hook settings file for the stopwise tool hooks. Never throws. */
export function checkToolHooks(host: HookHost, file: JsonFile): ToolHooksCheck {
  if (file.kind === 'missing') return { kind: 'checked', registered: [], missing: [...TOOL_HOOK_EVENTS[host]] };
  if (file.kind === 'invalid' || typeof file.value !== 'object' || file.value === null || Array.isArray(file.value)) return { kind: 'unreadable' };
  const hooks = (file.value as Record<string, unknown>).hooks;
  const record = typeof hooks === 'object' && hooks !== null && !Array.isArray(hooks) ? (hooks as Record<string, unknown>) : {};
  const registered: { event: string; matcher?: string }[] = [];
  const missing: string[] = [];
  for (const event of TOOL_HOOK_EVENTS[host]) {
    const entries = Array.isArray(record[event]) ? (record[event] as unknown[]) : [];
    const found = entries.find((entry) => stopwiseCommands(entry, host).length > 0) as Record<string, unknown> | undefined;
    if (found === undefined) missing.push(event);
    else registered.push({ event, ...(typeof found.matcher === 'string' && found.matcher !== '' ? { matcher: found.matcher } : {}) });
  }
  return { kind: 'checked', registered, missing };
}

/** A tool hooks check as one line for a person: registered (with what each sees), partly (a warning), or not at all (optional, so not a warning). */
export function describeToolHooksCheck(host: HookHost, check: ToolHooksCheck): { readonly status: 'ok' | 'warning'; readonly text: string } {
  const file = HOOK_SETTINGS_PATHS[host];
  if (check.kind === 'unreadable') return { status: 'warning', text: `${file}: the tool hooks could not be checked (the file is not a JSON object)` };
  if (check.registered.length === 0) {
    return { status: 'ok', text: `${file}: no stopwise tool hooks (optional): loops inside a turn are not guarded; \`stopwise init ${host}\` adds them` };
  }
  const seen = check.registered.map(({ event, matcher }) => `${event}${matcher === undefined ? (host === 'cursor' ? '' : ' (every tool)') : ` (${matcher})`}`);
  if (check.missing.length > 0) {
    return { status: 'warning', text: `${file}: tool guard on ${seen.join(', ')}, but not on ${check.missing.join(', ')}; \`stopwise init ${host}\` adds them` };
  }
  return { status: 'ok', text: `${file}: tool guard registered on ${seen.join(', ')}` };
}

function stopwiseCommands(entry: unknown, host: HookHost): Readonly<Record<string, unknown>>[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return [];
  const record = entry as Record<string, unknown>;
  if (Array.isArray(record.hooks)) return record.hooks.flatMap((inner) => stopwiseCommands(inner, host));
  return isStopwiseHookCommand(record, host) ? [record] : [];
}
