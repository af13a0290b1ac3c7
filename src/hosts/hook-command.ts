import type { HookHost, HostDescription } from './host.js';

/** Where a project's own install of stopwise keeps its command, relative to the project. */
const STOPWISE_BIN = 'node_modules/stopwise/dist/bin/stopwise.js';
/** The folders above the project that the launcher looks in for node_modules (an install hoisted to a workspace root). */
const LEVELS_UP = 6;

/**
 * Where `init` writes a host's launcher: `stopwise.sh` beside the host's
 * settings file (`.claude/stopwise.sh`, `.github/hooks/stopwise.sh`, ...),
 * committed with the settings that run it.
 */
export function launcherPath(host: HostDescription): string {
  return `${host.settingsFile.slice(0, host.settingsFile.lastIndexOf('/'))}/stopwise.sh`;
}

/**
 * The launcher `init` writes: a few lines of POSIX shell, read by the hook
 * command into the shell the host starts, or run with `sh` (`hookCommand`), that run
 * the project's own install of stopwise with Node (the nearest `node_modules`
 * at or above the project), with no npx on the way and nothing ever
 * downloaded. Where stopwise is not installed it prints one line naming the fix
 * and exits with the host's non-blocking code, so the stop or the tool call
 * goes ahead.
 */
export function launcherScript(host: HostDescription): string {
  const variable = host.command.projectDirVariable;
  return [
    '#!/bin/sh',
    `# Written by \`stopwise init ${host.name}\`: runs this project's own stopwise with Node; it never downloads one.`,
    // Read with `.`, it has no path of its own to go by: it starts from the project the host names, or runs hooks in.
    variable === undefined ? 'd=.' : `d="\${${variable}:-.}"`,
    `for _ in${' .'.repeat(LEVELS_UP + 1)}; do`,
    `  [ -f "$d/${STOPWISE_BIN}" ] && exec node "$d/${STOPWISE_BIN}" hook ${host.name}`,
    '  d="$d/.."',
    'done',
    // Not installed: say which part did not run, told apart by the payload (a tool event names its tool).
    `case "$(cat)" in`,
    `  ${[...host.events.tools, 'tool_name', 'toolName'].map((name) => `*'"${name}"'*`).join('|')})`,
    `    echo "stopwise: not installed in this project (npm i -D stopwise); the tool guard did not check this call" >&2 ;;`,
    '  *)',
    `    echo "stopwise: not installed in this project (npm i -D stopwise); the stop hook did not run, the stop goes ahead unchecked" >&2 ;;`,
    'esac',
    `exit ${host.unreadableExitCode}`,
    '',
  ].join('\n');
}

/**
 * The command line a host's settings run: the launcher, found through the
 * variable the host sets to the project folder when it has one (Claude Code,
 * Cursor, Gemini), else from the folder the host runs hooks in (the project).
 * A host that runs it in a POSIX shell reads the launcher into that shell
 * (`command .`: a second shell would cost every event a few milliseconds); one
 * that may use the user's own shell starts `sh` on it. A launcher that is
 * missing (deleted, or never committed beside the settings) must not block:
 * the shell's own exit code for a file it cannot open is 2, which most hosts
 * read as a block of the stop or of every tool call, so the line ends with
 * `|| exit` and the host's non-blocking code, after the shell's one line that
 * names the file (`command` keeps `.` from ending the shell before that). A
 * launcher read with `.` never reaches the `||` (it replaces the shell with
 * Node, or exits); one run with `sh` reaches it only when Node failed, and
 * the hosts that run it so are never answered with exit 2. The line is short because some hosts quote it to the model in front
 * of a block's reason. On Windows, where there is no `sh`, it is
 * `npx --offline --no-install stopwise hook <host>`, which runs an installed
 * stopwise and never downloads one.
 */
export function hookCommand(host: HostDescription, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return `npx --offline --no-install stopwise hook ${host.name}`;
  const run = host.command.shell === 'posix' ? 'command .' : 'sh';
  const variable = host.command.projectDirVariable;
  const path = launcherPath(host);
  // Gemini substitutes a bare $GEMINI_PROJECT_DIR itself, and would quote it for the shell: the braced form is left to the shell.
  const target = variable === undefined ? path : host.name === 'gemini' ? `"\${${variable}:-.}"/${path}` : `"$${variable}"/${path}`;
  return `${run} ${target} || exit ${host.unreadableExitCode}`;
}

/** The command line of a hook entry, `args` and Copilot's `bash` and `powershell` included. */
export function entryCommandLine(record: Readonly<Record<string, unknown>>): string {
  const args = Array.isArray(record.args) ? record.args.filter((arg): arg is string => typeof arg === 'string') : [];
  const shells = [record.bash, record.powershell].filter((line): line is string => typeof line === 'string');
  return [typeof record.command === 'string' ? record.command : '', ...args, ...shells].join(' ');
}

/** True for a hook command record (`command`, `args`, `bash`) that runs stopwise for `host`: its launcher, or `stopwise hook <host>`. */
export function isStopwiseCommand(record: Readonly<Record<string, unknown>>, host: HookHost): boolean {
  const line = entryCommandLine(record);
  return new RegExp(`\\bstopwise\\b.*\\bhook\\s+${host}\\b`).test(line) || /(^|\/)stopwise\.sh\b/.test(line);
}

/** The stopwise command records of `host` in one settings entry (the Claude Code family and Gemini nest them under `hooks`). */
export function stopwiseCommands(entry: unknown, host: HookHost): Readonly<Record<string, unknown>>[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return [];
  const record = entry as Record<string, unknown>;
  if (Array.isArray(record.hooks)) return record.hooks.flatMap((inner) => stopwiseCommands(inner, host));
  return isStopwiseCommand(record, host) ? [record] : [];
}
