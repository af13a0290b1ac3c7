import { describeValue } from '../core/describe-value.js';
import type { JsonFile } from '../input/read-json-file.js';
import { HOOK_DEADLINE_SLACK_MS } from './hook-deadline.js';
import type { HookHost } from './hook-host.js';
import { HOOK_SETTINGS_PATHS, isStopwiseHookCommand } from './install-stop-hook.js';

/**
 * The timeout each host gives a command hook that sets none, in seconds:
 * Claude Code 600 s for a command hook (its hooks reference), Codex 600 s
 * (its hooks documentation), Copilot 30 s (`timeoutSec`), Gemini 60 s
 * (`timeout`, 60000 ms); `undefined` for Cursor, which documents none.
 */
export const HOST_DEFAULT_HOOK_TIMEOUT_SECONDS: Readonly<Record<HookHost, number | undefined>> = Object.freeze({
  'claude-code': 600,
  codex: 600,
  cursor: undefined,
  copilot: 30,
  gemini: 60,
});

/** The event under which each host's settings register the stop hook. */
export const STOP_HOOK_EVENTS: Readonly<Record<HookHost, string>> = Object.freeze({
  'claude-code': 'Stop',
  codex: 'Stop',
  cursor: 'stop',
  copilot: 'agentStop',
  gemini: 'AfterAgent',
});

/** The key of a hook entry's timeout in each host's settings, and its unit in milliseconds. */
export const HOOK_TIMEOUT_FIELDS: Readonly<Record<HookHost, { readonly key: string; readonly unitMs: number }>> = Object.freeze({
  'claude-code': { key: 'timeout', unitMs: 1000 },
  codex: { key: 'timeout', unitMs: 1000 },
  cursor: { key: 'timeout', unitMs: 1000 },
  copilot: { key: 'timeoutSec', unitMs: 1000 },
  gemini: { key: 'timeout', unitMs: 1 },
});

const HOST_NAMES: Readonly<Record<HookHost, string>> = { 'claude-code': 'Claude Code', codex: 'Codex', cursor: 'Cursor', copilot: 'Copilot', gemini: 'Gemini' };

/** How the stop hook's entry sets its timeout, against the hook's deadline. */
export type HookTimeoutCheck =
  | { readonly kind: 'enough'; readonly seconds: number }
  | { readonly kind: 'too_low'; readonly seconds: number }
  | { readonly kind: 'invalid'; readonly value: unknown }
  | { readonly kind: 'default'; readonly seconds: number; readonly enough: boolean }
  | { readonly kind: 'default_unknown' };

/** What a host's settings file says about the stopwise stop hook. */
export type HookSettingsCheck =
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'not_registered' }
  | { readonly kind: 'registered'; readonly count: number; readonly timeout: HookTimeoutCheck };

/**
 * Reads a host's hook settings (the file as `readJsonFile` gave it) for the
 * stopwise stop hook of that host, and checks its timeout (`timeout` in
 * seconds; Copilot's `timeoutSec`; Gemini's `timeout` in milliseconds) against
 * the hook's deadline: the host must wait longer than the hook may take, or
 * it kills the hook before it answers. Without a timeout the host's default
 * applies. Never throws: a file of the wrong shape is `invalid`.
 */
export function checkHookSettings(host: HookHost, file: JsonFile, deadlineMs: number): HookSettingsCheck {
  if (file.kind === 'missing') return { kind: 'missing' };
  if (file.kind === 'invalid') return { kind: 'invalid', message: file.message };
  const root = file.value;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return { kind: 'invalid', message: `must hold a JSON object, got ${describeValue(root)}` };
  const version = (root as Record<string, unknown>).version;
  if (host === 'copilot' && version !== 1) return { kind: 'invalid', message: `"version" must be 1 (the hooks format Copilot reads), got ${describeValue(version)}` };
  const hooks = (root as Record<string, unknown>).hooks;
  if (hooks === undefined) return { kind: 'not_registered' };
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return { kind: 'invalid', message: `"hooks" must be an object, got ${describeValue(hooks)}` };
  const event = STOP_HOOK_EVENTS[host];
  const entries = (hooks as Record<string, unknown>)[event];
  if (entries === undefined) return { kind: 'not_registered' };
  if (!Array.isArray(entries)) return { kind: 'invalid', message: `"hooks.${event}" must be an array, got ${describeValue(entries)}` };
  const commands = entries.flatMap((entry) => stopwiseCommands(entry, host));
  const [first] = commands;
  if (first === undefined) return { kind: 'not_registered' };
  return { kind: 'registered', count: commands.length, timeout: checkTimeout(host, first[HOOK_TIMEOUT_FIELDS[host].key], deadlineMs) };
}

function stopwiseCommands(entry: unknown, host: HookHost): Readonly<Record<string, unknown>>[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return [];
  const record = entry as Record<string, unknown>;
  if (Array.isArray(record.hooks)) return record.hooks.flatMap((inner) => stopwiseCommands(inner, host));
  return isStopwiseHookCommand(record, host) ? [record] : [];
}

function checkTimeout(host: HookHost, value: unknown, deadlineMs: number): HookTimeoutCheck {
  if (value === undefined) {
    const seconds = HOST_DEFAULT_HOOK_TIMEOUT_SECONDS[host];
    return seconds === undefined ? { kind: 'default_unknown' } : { kind: 'default', seconds, enough: seconds * 1000 > deadlineMs };
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return { kind: 'invalid', value };
  const ms = value * HOOK_TIMEOUT_FIELDS[host].unitMs;
  return ms > deadlineMs ? { kind: 'enough', seconds: ms / 1000 } : { kind: 'too_low', seconds: ms / 1000 };
}

/** A settings check as one line for a person, with how much it matters. */
interface HookSettingsLine {
  readonly status: 'ok' | 'warning' | 'problem';
  readonly text: string;
}

/**
 * Describes a settings check: where the file is, what is wrong and the fix
 * (`recommendedSeconds` is the timeout `stopwise init` writes).
 */
export function describeHookSettingsCheck(host: HookHost, check: HookSettingsCheck, deadlineMs: number, recommendedSeconds: number): HookSettingsLine {
  const file = HOOK_SETTINGS_PATHS[host];
  const deadline = `the hook's deadline (${Math.ceil(deadlineMs / 1000)} s: tests.timeoutMs + 2 × judge.timeoutMs + ${HOOK_DEADLINE_SLACK_MS / 1000} s)`;
  const field = HOOK_TIMEOUT_FIELDS[host];
  const fix = `set "${field.key}": ${(recommendedSeconds * 1000) / field.unitMs} on the stopwise entry`;
  switch (check.kind) {
    case 'missing':
      return { status: 'problem', text: `${file}: not found; \`stopwise init ${host}\` writes it` };
    case 'invalid':
      return { status: 'problem', text: `${file}: ${check.message}` };
    case 'not_registered':
      return { status: 'problem', text: `${file}: no stopwise stop hook (\`stopwise hook ${host}\` under hooks.${STOP_HOOK_EVENTS[host]}); \`stopwise init ${host}\` adds it` };
    case 'registered': {
      const twice = check.count > 1 ? `; registered ${check.count} times, so it runs ${check.count} times at every stop` : '';
      const line = describeTimeout(host, check.timeout, deadline, fix);
      const status = line.status === 'ok' && check.count > 1 ? 'warning' : line.status;
      return { status, text: `${file}: ${line.text}${twice}` };
    }
  }
}

function describeTimeout(host: HookHost, timeout: HookTimeoutCheck, deadline: string, fix: string): HookSettingsLine {
  const name = HOST_NAMES[host];
  switch (timeout.kind) {
    case 'enough':
      return { status: 'ok', text: `stop hook registered, timeout ${timeout.seconds} s, above ${deadline}` };
    case 'too_low':
      return { status: 'problem', text: `the stop hook's timeout (${timeout.seconds} s) is not above ${deadline}: ${name} would kill the hook before it answers; ${fix}` };
    case 'invalid':
      return {
        status: 'problem',
        text: `the stop hook's "${HOOK_TIMEOUT_FIELDS[host].key}" must be a positive number of ${HOOK_TIMEOUT_FIELDS[host].unitMs === 1 ? 'milliseconds' : 'seconds'}, got ${describeValue(timeout.value)}; ${fix}`,
      };
    case 'default':
      return timeout.enough
        ? { status: 'ok', text: `stop hook registered with no timeout: ${name}'s default of ${timeout.seconds} s applies, above ${deadline}` }
        : { status: 'problem', text: `the stop hook has no timeout, and ${name}'s default of ${timeout.seconds} s is not above ${deadline}; ${fix}` };
    case 'default_unknown':
      return { status: 'warning', text: `stop hook registered with no timeout, and ${name} documents no default: ${fix} to be sure it is above ${deadline}` };
  }
}
