import { describeValue } from '../core/describe-value.js';
import type { HookHost } from './hook-host.js';

/** Where each host reads its project hooks, relative to the project. */
export const HOOK_SETTINGS_PATHS: Readonly<Record<HookHost, string>> = Object.freeze({
  'claude-code': '.claude/settings.json',
  codex: '.codex/hooks.json',
  cursor: '.cursor/hooks.json',
});

/** Where a project's own install of stopwise keeps its command, relative to the project. */
export const LOCAL_STOPWISE_BIN = 'node_modules/stopwise/dist/bin/stopwise.js';

/**
 * The command line that runs the stop hook for a host: Node on the project's
 * own install of stopwise when there is one (no npx, whose start-up costs
 * several times Node's), else `npx stopwise hook <host>` (a fresh checkout,
 * or stopwise not a dependency). Claude Code runs it with `sh -c` and sets
 * `$CLAUDE_PROJECT_DIR`; Codex runs it with the user's login shell and Cursor
 * in the workspace root, so for them it goes through `sh -c` and is found from
 * the working folder. On Windows, where there is no `sh`, it is the npx form.
 */
export function stopHookCommand(host: HookHost, platform: NodeJS.Platform = process.platform): string {
  const fallback = `npx stopwise hook ${host}`;
  if (platform === 'win32') return fallback;
  const bin = host === 'claude-code' ? `$CLAUDE_PROJECT_DIR/${LOCAL_STOPWISE_BIN}` : LOCAL_STOPWISE_BIN;
  const script = `f="${bin}"; if [ -f "$f" ]; then exec node "$f" hook ${host}; else exec ${fallback}; fi`;
  return host === 'claude-code' ? script : `sh -c '${script}'`;
}

/**
 * How `stopwise init` writes the hook command: `shell` (the default) finds the
 * project's own install and falls back to npx; `exec` is Claude Code's exec
 * form, `command` plus `args` spawned without a shell (`npx stopwise hook
 * claude-code`), slower to start but free of any shell.
 */
export type StopHookForm = 'shell' | 'exec';

/** The stop hook entry `stopwise init` adds for a host. */
export function stopHookEntry(
  host: HookHost,
  timeoutSeconds: number,
  platform: NodeJS.Platform = process.platform,
  form: StopHookForm = 'shell',
): Record<string, unknown> {
  if (form === 'exec') {
    if (host !== 'claude-code') throw new TypeError(`the exec form (command plus args) is Claude Code's; ${host} runs hook commands in a shell`);
    return { type: 'command', command: 'npx', args: ['stopwise', 'hook', host], timeout: timeoutSeconds };
  }
  const command = stopHookCommand(host, platform);
  return host === 'cursor' ? { command, timeout: timeoutSeconds, loop_limit: 5 } : { type: 'command', command, timeout: timeoutSeconds };
}

/**
 * Adds the stopwise stop hook to a host's hook settings (the parsed JSON, or
 * `undefined` for a file that does not exist yet) without touching any other
 * entry. When a stopwise hook for this host is already there, nothing
 * changes. A file whose shape is not what the host reads is refused.
 */
export function mergeStopHook(
  host: HookHost,
  existing: unknown,
  timeoutSeconds: number,
  form: StopHookForm = 'shell',
): { readonly ok: true; readonly changed: boolean; readonly value: Record<string, unknown> } | { readonly ok: false; readonly message: string } {
  const file = HOOK_SETTINGS_PATHS[host];
  if (existing !== undefined && (typeof existing !== 'object' || existing === null || Array.isArray(existing))) {
    return { ok: false, message: `${file} must hold a JSON object, got ${describeValue(existing)}` };
  }
  const root: Record<string, unknown> = { ...((existing as Record<string, unknown> | undefined) ?? {}) };
  if (host === 'cursor' && root.version === undefined) root.version = 1;
  const hooks = root.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    return { ok: false, message: `${file}: "hooks" must be an object, got ${describeValue(hooks)}` };
  }
  const event = host === 'cursor' ? 'stop' : 'Stop';
  const entries = (hooks as Record<string, unknown>)[event] ?? [];
  if (!Array.isArray(entries)) return { ok: false, message: `${file}: "hooks.${event}" must be an array, got ${describeValue(entries)}` };
  if (entries.some((entry) => containsStopwiseHook(entry, host))) return { ok: true, changed: false, value: root };

  const entry = stopHookEntry(host, timeoutSeconds, process.platform, form);
  const added = host === 'cursor' ? entry : { hooks: [entry] };
  root.hooks = { ...(hooks as Record<string, unknown>), [event]: [...entries, added] };
  return { ok: true, changed: true, value: root };
}

function containsStopwiseHook(entry: unknown, host: HookHost): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const record = entry as Record<string, unknown>;
  if (Array.isArray(record.hooks)) return record.hooks.some((inner) => containsStopwiseHook(inner, host));
  return isStopwiseHookCommand(record, host);
}

/** True for a hook command (`command`, optional `args`) that runs `stopwise hook <host>`. */
export function isStopwiseHookCommand(record: Readonly<Record<string, unknown>>, host: HookHost): boolean {
  const args = Array.isArray(record.args) ? record.args.filter((arg): arg is string => typeof arg === 'string') : [];
  const line = [typeof record.command === 'string' ? record.command : '', ...args].join(' ');
  return new RegExp(`\\bstopwise\\b.*\\bhook\\s+${host}\\b`).test(line);
}
