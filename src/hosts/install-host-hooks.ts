import { describeValue } from '../core/describe-value.js';
import { HOOK_SETTINGS_PATHS, isStopwiseHookCommand, stopHookCommand } from './install-stop-hook.js';

/** The hosts whose hooks file `stopwise init` fills with the stop event and the tool events. */
export type HostHooksHost = 'copilot' | 'gemini';

/**
 * The tools whose calls Copilot sends to the tool hook (a regex Copilot
 * anchors, matched against `toolName`): the shells and the file edits. The
 * read-only tools (`view`, `glob`, `grep`, `rg`, `web_fetch`, `ask_user`)
 * start no hook, so they cost nothing.
 */
export const COPILOT_TOOL_MATCHER = 'bash|powershell|edit|create|apply_patch';
/** The same for Gemini (a regex Gemini does not anchor): the shell, `write_file` and `replace`. */
export const GEMINI_TOOL_MATCHER = '^(run_shell_command|write_file|replace)$';
/** The timeout of a tool hook entry, in seconds: the tool guard answers in well under a second; a host that times a tool hook out lets the call run. */
export const TOOL_HOOK_TIMEOUT_SECONDS = 30;

/** The events `stopwise init` registers for each host: the stop event first, then the tool events. */
export const HOST_HOOK_EVENTS: Readonly<Record<HostHooksHost, { readonly stop: string; readonly tools: readonly string[] }>> = Object.freeze({
  copilot: { stop: 'agentStop', tools: ['preToolUse', 'postToolUse', 'postToolUseFailure'] },
  gemini: { stop: 'AfterAgent', tools: ['BeforeTool', 'AfterTool'] },
});

/**
 * Which tool events {@link mergeHostHooks} registers: `'matched'` (the
 * shells and file edits, `COPILOT_TOOL_MATCHER` / `GEMINI_TOOL_MATCHER`),
 * `'all'` (every tool, no matcher) or `'none'` (the stop event only).
 */
export type HostToolHooks = 'matched' | 'all' | 'none';

/** The result of {@link mergeHostHooks}: the new file and the events added, or why the file is refused. */
export type MergedHostHooks =
  | { readonly ok: true; readonly changed: boolean; readonly added: readonly string[]; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

/**
 * Adds the stopwise hooks to Copilot's `.github/hooks/stopwise.json` or
 * Gemini's `.gemini/settings.json` (the parsed JSON, or `undefined` for a
 * file that does not exist yet): the stop event with `timeoutSeconds`, and
 * each tool event `tools` asks for (with its matcher by default), each only
 * where no stopwise hook of this host is registered yet, keeping every other
 * key and entry. A file of a shape the host does not read is refused.
 */
export function mergeHostHooks(
  host: HostHooksHost,
  existing: unknown,
  timeoutSeconds: number,
  platform: NodeJS.Platform = process.platform,
  tools: HostToolHooks = 'matched',
): MergedHostHooks {
  const file = HOOK_SETTINGS_PATHS[host];
  if (existing !== undefined && (typeof existing !== 'object' || existing === null || Array.isArray(existing))) {
    return { ok: false, message: `${file} must hold a JSON object, got ${describeValue(existing)}` };
  }
  const root: Record<string, unknown> = { ...((existing as Record<string, unknown> | undefined) ?? {}) };
  if (host === 'copilot') {
    if (root.version === undefined) root.version = 1;
    else if (root.version !== 1) return { ok: false, message: `${file}: "version" must be 1 (the hooks format Copilot reads), got ${describeValue(root.version)}` };
  }
  const hooks = root.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    return { ok: false, message: `${file}: "hooks" must be an object, got ${describeValue(hooks)}` };
  }
  const merged: Record<string, unknown> = { ...(hooks as Record<string, unknown>) };
  const { stop, tools: toolEvents } = HOST_HOOK_EVENTS[host];
  const added: string[] = [];
  for (const event of [stop, ...(tools === 'none' ? [] : toolEvents)]) {
    const entries = merged[event] ?? [];
    if (!Array.isArray(entries)) return { ok: false, message: `${file}: "hooks.${event}" must be an array, got ${describeValue(entries)}` };
    if (entries.some((entry) => holdsStopwiseHook(host, entry))) continue;
    const entry = event === stop ? hostHookEntry(host, 'stop', timeoutSeconds, platform) : hostHookEntry(host, tools === 'all' ? 'any-tool' : 'tool', TOOL_HOOK_TIMEOUT_SECONDS, platform);
    merged[event] = [...entries, entry];
    added.push(event);
  }
  root.hooks = merged;
  return { ok: true, changed: added.length > 0, added, value: root };
}

/**
 * The entry `stopwise init` writes for one event. Copilot: a flat command
 * entry with the POSIX form in `bash` and the npx form in `powershell`, run
 * from the repository root (`cwd: "."`), `timeoutSec` in seconds, and for a
 * tool event its `matcher`. Gemini: a hook definition (`matcher` for a tool
 * event) holding one command hook with `timeout` in milliseconds. An
 * `'any-tool'` entry is a tool entry without a matcher: every tool call runs it.
 */
export function hostHookEntry(
  host: HostHooksHost,
  kind: 'stop' | 'tool' | 'any-tool',
  timeoutSeconds: number,
  platform: NodeJS.Platform = process.platform,
): Record<string, unknown> {
  if (host === 'copilot') {
    return {
      type: 'command',
      bash: stopHookCommand('copilot', 'linux'),
      powershell: stopHookCommand('copilot', 'win32'),
      cwd: '.',
      timeoutSec: timeoutSeconds,
      ...(kind === 'tool' ? { matcher: COPILOT_TOOL_MATCHER } : {}),
    };
  }
  const command = { type: 'command', name: kind === 'stop' ? 'stopwise' : 'stopwise-tool-guard', command: stopHookCommand('gemini', platform), timeout: timeoutSeconds * 1000 };
  return kind === 'tool' ? { matcher: GEMINI_TOOL_MATCHER, hooks: [command] } : { hooks: [command] };
}

/** The stopwise command entries of `host` in one entry of an event's list (Gemini nests them under `hooks`). */
export function stopwiseHostCommands(host: HostHooksHost, entry: unknown): Readonly<Record<string, unknown>>[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return [];
  const record = entry as Record<string, unknown>;
  if (Array.isArray(record.hooks)) return record.hooks.flatMap((inner) => stopwiseHostCommands(host, inner));
  return isStopwiseHookCommand(record, host) ? [record] : [];
}

function holdsStopwiseHook(host: HostHooksHost, entry: unknown): boolean {
  return stopwiseHostCommands(host, entry).length > 0;
}
