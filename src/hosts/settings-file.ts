import { describeValue } from '../core/describe-value.js';
import type { JsonFile } from '../input/read-json-file.js';
import { HOOK_DEADLINE_SLACK_MS } from './hook-deadline.js';
import { entryCommandLine, hookCommand, launcherPath, stopwiseCommands } from './hook-command.js';
import type { HostDescription } from './host.js';

// One install and one check for every host, read from its description: `stopwise init` and `stopwise doctor`.

/** Which tool events `init` registers: the host's matched tools, every tool (no matcher), or none. */
export type ToolHooks = 'matched' | 'all' | 'none';

/** The timeout of a tool hook entry, in seconds: the guard answers in well under a second; a host that times a tool hook out runs the call. */
export const TOOL_HOOK_TIMEOUT_SECONDS = 30;

/** Options of {@link installHooks}. */
export interface InstallOptions {
  readonly timeoutSeconds: number;
  readonly tools: ToolHooks;
  readonly platform?: NodeJS.Platform;
  /** Claude Code's exec form: `command` plus `args`, spawned without a shell (`npx --offline --no-install stopwise hook claude-code`). */
  readonly exec?: boolean;
}

/** What {@link installHooks} made of a settings file: the new file and the events added, or why the file is refused. */
export type InstalledHooks =
  | { readonly ok: true; readonly changed: boolean; readonly added: readonly string[]; readonly replaced: boolean; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

/**
 * Adds the stopwise hooks to a host's settings (the parsed JSON, or
 * `undefined` for a file that does not exist yet): the stop event, and the
 * tool events `tools` asks for, each only where no stopwise hook of this host
 * is registered yet, keeping every other key and entry. A stopwise entry
 * with another form of the command (an earlier release's, or one that let npx
 * download stopwise at run time) is replaced. A file of a shape the host does
 * not read is refused.
 */
export function installHooks(host: HostDescription, existing: unknown, options: InstallOptions): InstalledHooks {
  const file = host.settingsFile;
  if (existing !== undefined && (typeof existing !== 'object' || existing === null || Array.isArray(existing))) {
    return { ok: false, message: `${file} must hold a JSON object, got ${describeValue(existing)}` };
  }
  const root = host.settingsRoot((existing as Record<string, unknown> | undefined) ?? {});
  if (typeof root === 'string') return { ok: false, message: `${file}: ${root}` };
  const hooks = root.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return { ok: false, message: `${file}: "hooks" must be an object, got ${describeValue(hooks)}` };
  const merged: Record<string, unknown> = { ...(hooks as Record<string, unknown>) };
  const command = hookCommand(host, options.platform);
  const wanted = writtenCommandLines(host, options.platform ?? process.platform, options.exec === true);
  const events = [host.events.stop, ...(options.tools === 'none' ? [] : host.events.tools)];
  const added: string[] = [];
  let replaced = false;
  for (const event of events) {
    const entries = merged[event] ?? [];
    if (!Array.isArray(entries)) return { ok: false, message: `${file}: "hooks.${event}" must be an array, got ${describeValue(entries)}` };
    const stop = event === host.events.stop;
    const matcher = stop || options.tools === 'all' ? undefined : host.toolMatcher;
    const entry = host.entry(stop ? 'stop' : 'tool', command, stop ? options.timeoutSeconds : TOOL_HOOK_TIMEOUT_SECONDS, matcher);
    const fresh = asWritten(host, entry, options.exec === true);
    const found = entries.flatMap((item) => stopwiseCommands(item, host.name));
    if (found.length === 0) {
      merged[event] = [...entries, fresh];
      added.push(event);
    } else if (found.some((record) => !wanted.includes(entryCommandLine(record)))) {
      // An earlier form of the command (a longer one, or one that let npx download stopwise): the current one replaces it.
      merged[event] = entries.map((item) => replaceStopwise(item, fresh, host.name));
      replaced = true;
    }
  }
  return { ok: true, changed: added.length > 0 || replaced, added, replaced, value: { ...root, hooks: merged } };
}

/**
 * An entry with its stopwise command replaced by the fresh entry's: an entry
 * that holds nothing else is replaced whole; one that also holds hooks of the
 * user's (the Claude Code family and Gemini nest several under `hooks`) keeps
 * them, and its first stopwise command becomes the fresh one.
 */
function replaceStopwise(item: unknown, fresh: Record<string, unknown>, name: HostDescription['name']): unknown {
  if (stopwiseCommands(item, name).length === 0) return item;
  const hooks = (item as Record<string, unknown>).hooks;
  const inner = Array.isArray(fresh.hooks) ? (fresh.hooks as unknown[])[0] : undefined;
  if (!Array.isArray(hooks) || inner === undefined || hooks.every((hook) => stopwiseCommands(hook, name).length > 0)) return fresh;
  const first = hooks.findIndex((hook) => stopwiseCommands(hook, name).length > 0);
  const kept = hooks.flatMap((hook, index) => (index === first ? [inner] : stopwiseCommands(hook, name).length > 0 ? [] : [hook]));
  return { ...(item as Record<string, unknown>), hooks: kept };
}

/** The command lines of the entries `init` writes for `host` on `platform`, in Claude Code's exec form when `exec`. */
function writtenCommandLines(host: HostDescription, platform: NodeJS.Platform, exec: boolean): string[] {
  const entry = host.entry('stop', hookCommand(host, platform), 1, undefined);
  return stopwiseCommands(asWritten(host, entry, exec), host.name).map(entryCommandLine);
}

/**
 * Whether a stopwise command line is one to keep: one `init` writes, on any
 * platform (settings are shared by people on several) and in either form, or
 * one that runs the launcher and lets the host go ahead when it is missing
 * (`|| exit` and the host's non-blocking code, as the telemetry recipe's
 * does). Any other form (a launcher line a missing file turns into a block, an
 * npx that may download stopwise) is what `init` replaces.
 */
function isCurrentCommand(host: HostDescription, line: string): boolean {
  const written = (['linux', 'win32'] as const).flatMap((platform) => [false, true].flatMap((exec) => writtenCommandLines(host, platform, exec)));
  return written.includes(line) || (line.includes(launcherPath(host)) && line.includes(`|| exit ${host.unreadableExitCode}`));
}

/** An entry as `init` writes it: in Claude Code's exec form when asked (`npx` with its arguments, spawned without a shell). */
function asWritten(host: HostDescription, entry: Record<string, unknown>, exec: boolean): Record<string, unknown> {
  if (!exec || host.name !== 'claude-code') return entry;
  const hooks = (entry.hooks as Record<string, unknown>[]).map((hook) => {
    const { command: _shell, ...rest } = hook;
    return { ...rest, command: 'npx', args: ['--offline', '--no-install', 'stopwise', 'hook', 'claude-code'] };
  });
  return { ...entry, hooks };
}

/** How the stop hook's entry sets its timeout, against the hook's deadline. */
export type TimeoutCheck =
  | { readonly kind: 'enough' | 'too_low'; readonly seconds: number }
  | { readonly kind: 'invalid'; readonly value: unknown }
  | { readonly kind: 'default'; readonly seconds: number; readonly enough: boolean }
  | { readonly kind: 'default_unknown' };

/** What a host's settings file says of the stopwise hooks. */
export type SettingsCheck =
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly message: string }
  | {
      readonly kind: 'read';
      /**
       * The stopwise stop entries (0: not registered), and the first one's timeout and command line: whether it is a
       * form to keep (else the next `init` replaces it), and whether it runs a launcher that is not there.
       */
      readonly stop: {
        readonly count: number;
        readonly timeout?: TimeoutCheck;
        readonly command?: { readonly line: string; readonly current: boolean; readonly launcherMissing: boolean };
      };
      readonly tools: { readonly registered: readonly { readonly event: string; readonly matcher?: string }[]; readonly missing: readonly string[] };
    };

/**
 * Reads a host's settings file (as `readJsonFile` gave it) for the stopwise
 * hooks: the stop entry and its timeout against the hook's deadline (the host
 * must wait longer than the hook may take, or it kills the hook before it
 * answers; without a timeout the host's default applies), its command line
 * (`launcherFound`: whether the host's launcher is in the project), and which
 * tool events are registered. Never throws: a file of the wrong shape is
 * `invalid`.
 */
export function checkSettings(host: HostDescription, file: JsonFile, deadlineMs: number, launcherFound = true): SettingsCheck {
  if (file.kind === 'missing') return { kind: 'missing' };
  if (file.kind === 'invalid') return { kind: 'invalid', message: file.message };
  const value = file.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'invalid', message: `must hold a JSON object, got ${describeValue(value)}` };
  const root = host.settingsRoot(value as Record<string, unknown>);
  if (typeof root === 'string') return { kind: 'invalid', message: root };
  const hooks = root.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return { kind: 'invalid', message: `"hooks" must be an object, got ${describeValue(hooks)}` };
  const events = hooks as Record<string, unknown>;
  const entriesOf = (event: string): unknown[] | string => {
    const entries = events[event] ?? [];
    return Array.isArray(entries) ? entries : `"hooks.${event}" must be an array, got ${describeValue(entries)}`;
  };
  const stopEntries = entriesOf(host.events.stop);
  if (typeof stopEntries === 'string') return { kind: 'invalid', message: stopEntries };
  const commands = stopEntries.flatMap((entry) => stopwiseCommands(entry, host.name));
  const first = commands[0];
  const registered: { event: string; matcher?: string }[] = [];
  const missing: string[] = [];
  for (const event of host.events.tools) {
    const entries = entriesOf(event);
    const found = typeof entries === 'string' ? undefined : (entries.find((entry) => stopwiseCommands(entry, host.name).length > 0) as Record<string, unknown> | undefined);
    if (found === undefined) missing.push(event);
    else registered.push({ event, ...(typeof found.matcher === 'string' && found.matcher !== '' ? { matcher: found.matcher } : {}) });
  }
  return {
    kind: 'read',
    stop: {
      count: commands.length,
      ...(first === undefined
        ? {}
        : { timeout: checkTimeout(host, first[host.timeout.key], deadlineMs), command: commandCheck(host, entryCommandLine(first), launcherFound) }),
    },
    tools: { registered, missing },
  };
}

function commandCheck(host: HostDescription, line: string, launcherFound: boolean): { line: string; current: boolean; launcherMissing: boolean } {
  return { line, current: isCurrentCommand(host, line), launcherMissing: !launcherFound && line.includes(launcherPath(host)) };
}

function checkTimeout(host: HostDescription, value: unknown, deadlineMs: number): TimeoutCheck {
  if (value === undefined) {
    const seconds = host.timeout.defaultSeconds;
    return seconds === undefined ? { kind: 'default_unknown' } : { kind: 'default', seconds, enough: seconds * 1000 > deadlineMs };
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return { kind: 'invalid', value };
  const ms = value * host.timeout.unitMs;
  return { kind: ms > deadlineMs ? 'enough' : 'too_low', seconds: ms / 1000 };
}

/** One line of `stopwise doctor`, with how much it matters. */
export interface SettingsLine {
  readonly status: 'ok' | 'warning' | 'problem';
  readonly text: string;
}

/**
 * A settings check as lines for a person: the stop hook (where the file is,
 * what is wrong and the fix; `recommendedSeconds` is the timeout `init`
 * writes; `defaultTimeouts`: the deadline is the default timeouts', there
 * being no valid configuration), its command and launcher, then the tool hooks
 * (optional: their absence is not a warning).
 */
export function describeSettings(host: HostDescription, check: SettingsCheck, deadlineMs: number, recommendedSeconds: number, defaultTimeouts = false): SettingsLine[] {
  const file = host.settingsFile;
  const { key, unitMs } = host.timeout;
  const source = defaultTimeouts ? '; the default timeouts, as there is no valid configuration' : '';
  const deadline = `the hook's deadline (${Math.ceil(deadlineMs / 1000)} s: tests.timeoutMs + 2 × decisionModel.timeoutMs + ${HOOK_DEADLINE_SLACK_MS / 1000} s${source})`;
  const fix = `set "${key}": ${(recommendedSeconds * 1000) / unitMs} on the stopwise entry`;
  if (check.kind === 'missing') return [{ status: 'problem', text: `${file}: not found; \`stopwise init ${host.name}\` writes it` }];
  if (check.kind === 'invalid') return [{ status: 'problem', text: `${file}: ${check.message}` }];
  const lines: SettingsLine[] = [];
  const { count, timeout } = check.stop;
  if (count === 0 || timeout === undefined) {
    lines.push({ status: 'problem', text: `${file}: no stopwise stop hook (\`stopwise hook ${host.name}\` under hooks.${host.events.stop}); \`stopwise init ${host.name}\` adds it` });
  } else {
    const line = describeTimeout(host, timeout, deadline, fix);
    const twice = count > 1 ? `; registered ${count} times, so it runs ${count} times at every stop` : '';
    lines.push({ status: line.status === 'ok' && count > 1 ? 'warning' : line.status, text: `${file}: ${line.text}${twice}` });
    const command = check.stop.command;
    if (command?.launcherMissing === true) {
      lines.push({ status: 'problem', text: `${launcherPath(host)}: not found, and ${file} runs it: the stopwise hooks do nothing; \`stopwise init ${host.name}\` writes it` });
    } else if (command !== undefined && !command.current) {
      lines.push({
        status: 'warning',
        text: `${file}: the stop hook runs an older form of the stopwise command (a missing launcher would block the agent, or npx may download stopwise); \`stopwise init ${host.name}\` replaces it`,
      });
    }
  }
  const { registered, missing } = check.tools;
  if (registered.length === 0) {
    lines.push({ status: 'ok', text: `${file}: no stopwise tool hooks (optional): loops inside a turn are not guarded; \`stopwise init ${host.name}\` adds them` });
  } else {
    const seen = registered.map(({ event, matcher }) => `${event}${matcher === undefined ? (host.toolMatcher === undefined ? '' : ' (every tool)') : ` (${matcher})`}`).join(', ');
    lines.push(
      missing.length > 0
        ? { status: 'warning', text: `${file}: tool guard on ${seen}, but not on ${missing.join(', ')}; \`stopwise init ${host.name}\` adds them` }
        : { status: 'ok', text: `${file}: tool guard registered on ${seen}` },
    );
  }
  return lines;
}

function describeTimeout(host: HostDescription, timeout: TimeoutCheck, deadline: string, fix: string): SettingsLine {
  switch (timeout.kind) {
    case 'enough':
      return { status: 'ok', text: `stop hook registered, timeout ${timeout.seconds} s, above ${deadline}` };
    case 'too_low':
      return { status: 'problem', text: `the stop hook's timeout (${timeout.seconds} s) is not above ${deadline}: ${host.label} would kill the hook before it answers; ${fix}` };
    case 'invalid':
      return {
        status: 'problem',
        text: `the stop hook's "${host.timeout.key}" must be a positive number of ${host.timeout.unitMs === 1 ? 'milliseconds' : 'seconds'}, got ${describeValue(timeout.value)}; ${fix}`,
      };
    case 'default':
      return timeout.enough
        ? { status: 'ok', text: `stop hook registered with no timeout: ${host.label}'s default of ${timeout.seconds} s applies, above ${deadline}` }
        : { status: 'problem', text: `the stop hook has no timeout, and ${host.label}'s default of ${timeout.seconds} s is not above ${deadline}; ${fix}` };
    case 'default_unknown':
      return { status: 'warning', text: `stop hook registered with no timeout, and ${host.label} documents no default: ${fix} to be sure it is above ${deadline}` };
  }
}
