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
 * downloaded. Where stopwise is not installed, or Node is not on the hook's
 * PATH, it prints one line naming the fix and exits with the host's
 * non-blocking code, so the stop or the tool call goes ahead (a failed `exec`
 * would end the shell with 127, which Copilot reads as a refusal).
 */
export function launcherScript(host: HostDescription): string {
  const variable = host.command.projectDirVariable;
  return [
    '#!/bin/sh',
    `# Written by \`stopwise init ${host.name}\`: runs this project's own stopwise with Node; it never downloads one.`,
    // Read with `.`, it has no path of its own to go by: it starts from the project the host names, or runs hooks in.
    variable === undefined ? 'd=.' : `d="\${${variable}:-.}"`,
    `command -v node >/dev/null || { echo "stopwise: node is not on the hook's PATH; the stop hook and the tool guard did not run" >&2; exit ${host.unreadableExitCode}; }`,
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
 * Cursor, Gemini), else from the folder the host runs hooks in (the project),
 * read with `command .` into a POSIX shell, then `|| exit` and the host's
 * non-blocking code. A host that runs the line in a POSIX shell (`sh -c`,
 * `bash -c`) gets it as is: no second shell, whose start-up every event would
 * pay. One that may run it in the user's own shell, which may not be POSIX,
 * gets it inside `sh -c '...'`, the same number of processes.
 *
 * The `||` is for a launcher that is missing (deleted, or never committed
 * beside the settings): dash, the `sh` of Debian and Ubuntu, exits with 2 on a
 * file `.` cannot open, and most hosts read 2 as a block, of every tool call
 * and of the stop turn after turn. `command` keeps the failed `.` from ending
 * the shell before the `||`. A launcher that is read never reaches it: it
 * replaces the shell with Node, or exits with the host's non-blocking code,
 * so every answer's exit code, Copilot's deliberate 2 included, reaches the
 * host unchanged.
 *
 * The line is short because some hosts quote it to the model in front of a
 * block's reason. On Windows, where there is no `sh`, it is
 * `npx --offline --no-install stopwise hook <host>`, which runs an installed
 * stopwise and never downloads one.
 */
export function hookCommand(host: HostDescription, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return `npx --offline --no-install stopwise hook ${host.name}`;
  const variable = host.command.projectDirVariable;
  const path = launcherPath(host);
  // Gemini substitutes a bare $GEMINI_PROJECT_DIR itself, and would quote it for the shell: the braced form is left to the shell.
  const target = variable === undefined ? path : host.name === 'gemini' ? `"\${${variable}:-.}"/${path}` : `"$${variable}"/${path}`;
  const line = `command . ${target} || exit ${host.unreadableExitCode}`;
  return host.command.shell === 'posix' ? line : `sh -c '${line}'`;
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
