import { describeValue } from '../core/describe-value.js';
import type { HookHost } from './hook-host.js';
import { mergeHostHooks, type HostToolHooks } from './install-host-hooks.js';

/** Where each host reads its project hooks, relative to the project. */
export const HOOK_SETTINGS_PATHS: Readonly<Record<HookHost, string>> = Object.freeze({
  'claude-code': '.claude/settings.json',
  codex: '.codex/hooks.json',
  cursor: '.cursor/hooks.json',
  copilot: '.github/hooks/stopwise.json',
  gemini: '.gemini/settings.json',
});

/** Where a project's own install of stopwise keeps its command, relative to the project. */
export const LOCAL_STOPWISE_BIN = 'node_modules/stopwise/dist/bin/stopwise.js';

/** The npx arguments of the fallback: only an install that is already there runs, and npm asks no registry (`--offline`). */
const NPX_NO_INSTALL = ['--offline', '--no-install', 'stopwise', 'hook'] as const;

/** What the fallback prints when npx could not run an installed stopwise. */
const STOPWISE_NOT_INSTALLED_MESSAGE =
  'stopwise: the stop hook did not run through npx (is stopwise installed? the hook never downloads it: npm i -D stopwise); the stop goes ahead unchecked';

/** The hosts that run a hook command with a POSIX shell themselves (Claude Code `sh -c`, Copilot's `bash` field, Gemini `bash -c`). */
const SHELL_SCRIPT_HOSTS: ReadonlySet<HookHost> = new Set<HookHost>(['claude-code', 'copilot', 'gemini']);

/**
 * The command line that runs the stop hook for a host: Node on the project's
 * own install of stopwise when there is one (no npx, whose start-up costs
 * several times Node's), else `npx --offline --no-install stopwise hook
 * <host>`, which runs an install npx finds (a parent folder's, a global one)
 * and never downloads anything; where there is none, it says how to install
 * stopwise and exits 1, a non-blocking error for every host, so the stop goes
 * ahead. Claude Code runs it with `sh -c` and sets `$CLAUDE_PROJECT_DIR`;
 * Codex runs it with the user's login shell and Cursor in the workspace root,
 * so for them it goes through `sh -c` and is found from the working folder.
 * Copilot runs its `bash` field in the folder the entry's `cwd` names (the
 * repository root), and Gemini runs it with `bash -c` and sets
 * `$GEMINI_PROJECT_DIR` (written `${GEMINI_PROJECT_DIR}`, which Gemini's own
 * substitution of the bare form, quoted for the shell, leaves alone).
 * Copilot reads a non-zero exit of a tool hook as a refusal, so its fallback
 * exits 0. On Windows, where there is no `sh`, it is the npx form alone.
 */
export function stopHookCommand(host: HookHost, platform: NodeJS.Platform = process.platform): string {
  const npx = `npx ${NPX_NO_INSTALL.join(' ')} ${host}`;
  if (platform === 'win32') return npx;
  const bin = host === 'claude-code' ? `$CLAUDE_PROJECT_DIR/${LOCAL_STOPWISE_BIN}` : host === 'gemini' ? `\${GEMINI_PROJECT_DIR:-.}/${LOCAL_STOPWISE_BIN}` : LOCAL_STOPWISE_BIN;
  const fallback = `${npx} || { echo "${STOPWISE_NOT_INSTALLED_MESSAGE}" >&2; exit ${host === 'copilot' ? 0 : 1}; }`;
  const script = `f="${bin}"; if [ -f "$f" ]; then exec node "$f" hook ${host}; else ${fallback}; fi`;
  return SHELL_SCRIPT_HOSTS.has(host) ? script : `sh -c '${script}'`;
}

/**
 * How `stopwise init` writes the hook command: `shell` (the default) finds the
 * project's own install and falls back to npx; `exec` is Claude Code's exec
 * form, `command` plus `args` spawned without a shell (`npx --offline
 * --no-install stopwise hook claude-code`), slower to start but free of any
 * shell; where stopwise is not installed it exits 1 with npm's own message.
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
    return { type: 'command', command: 'npx', args: [...NPX_NO_INSTALL, host], timeout: timeoutSeconds };
  }
  const command = stopHookCommand(host, platform);
  return host === 'cursor' ? { command, timeout: timeoutSeconds, loop_limit: 5 } : { type: 'command', command, timeout: timeoutSeconds };
}

/**
 * Adds the stopwise stop hook to a host's hook settings (the parsed JSON, or
 * `undefined` for a file that does not exist yet) without touching any other
 * entry. When a stopwise hook for this host is already there, nothing
 * changes, unless it is the older command that let npx download stopwise at
 * run time: that one is replaced (`replaced: true`). A file whose shape is not
 * what the host reads is refused. Copilot's and Gemini's files get their tool
 * events in the same pass (`hostTools`, see `mergeHostHooks`); the other hosts'
 * tool events are `mergeToolHooks`'.
 */
export function mergeStopHook(
  host: HookHost,
  existing: unknown,
  timeoutSeconds: number,
  form: StopHookForm = 'shell',
  hostTools: HostToolHooks = 'matched',
):
  | { readonly ok: true; readonly changed: boolean; readonly replaced?: boolean; readonly added?: readonly string[]; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly message: string } {
  // Copilot and Gemini get the stop event and the tool events, each in its own format.
  if (host === 'copilot' || host === 'gemini') return mergeHostHooks(host, existing, timeoutSeconds, process.platform, hostTools);
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
  const entry = stopHookEntry(host, timeoutSeconds, process.platform, form);
  if (entries.some((item) => containsStopwiseHook(item, host, isFetchingHook))) {
    const upgraded = entries.map((item) => replaceFetchingHook(item, host, entry));
    root.hooks = { ...(hooks as Record<string, unknown>), [event]: upgraded };
    return { ok: true, changed: true, replaced: true, value: root };
  }
  if (entries.some((item) => containsStopwiseHook(item, host))) return { ok: true, changed: false, value: root };

  const added = host === 'cursor' ? entry : { hooks: [entry] };
  root.hooks = { ...(hooks as Record<string, unknown>), [event]: [...entries, added] };
  return { ok: true, changed: true, value: root };
}

/** The command line of a hook entry, `args` included (Copilot's entries hold it in `bash` and `powershell`). */
function commandLine(record: Readonly<Record<string, unknown>>): string {
  const args = Array.isArray(record.args) ? record.args.filter((arg): arg is string => typeof arg === 'string') : [];
  const shells = [record.bash, record.powershell].filter((line): line is string => typeof line === 'string');
  return [typeof record.command === 'string' ? record.command : '', ...args, ...shells].join(' ');
}

/** An `npx stopwise` without `--no-install`: npx would download whatever package holds the name. */
function isFetchingHook(line: string): boolean {
  return /\bnpx\s+(?:--?[\w-]+\s+)*stopwise\b/.test(line) && !/--no-install\b|--no\b/.test(line);
}

function containsStopwiseHook(entry: unknown, host: HookHost, also: (line: string) => boolean = () => true): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const record = entry as Record<string, unknown>;
  if (Array.isArray(record.hooks)) return record.hooks.some((inner) => containsStopwiseHook(inner, host, also));
  return isStopwiseHookCommand(record, host) && also(commandLine(record));
}

/** True for a hook command (`command`, optional `args`) that runs `stopwise hook <host>`. */
export function isStopwiseHookCommand(record: Readonly<Record<string, unknown>>, host: HookHost): boolean {
  return new RegExp(`\\bstopwise\\b.*\\bhook\\s+${host}\\b`).test(commandLine(record));
}

function replaceFetchingHook(entry: unknown, host: HookHost, replacement: Record<string, unknown>): unknown {
  if (typeof entry !== 'object' || entry === null) return entry;
  const record = entry as Record<string, unknown>;
  if (Array.isArray(record.hooks)) return { ...record, hooks: record.hooks.map((inner) => replaceFetchingHook(inner, host, replacement)) };
  return containsStopwiseHook(record, host, isFetchingHook) ? replacement : entry;
}
