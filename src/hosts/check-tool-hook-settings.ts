import type { JsonFile } from '../input/read-json-file.js';
import { HOST_HOOK_EVENTS, stopwiseHostCommands, type HostHooksHost } from './install-host-hooks.js';

/** Which of the tool events `stopwise init` registers for a host hold a stopwise hook. */
export interface ToolHookSettingsCheck {
  readonly registered: readonly string[];
  readonly missing: readonly string[];
}

/**
 * Reads a Copilot or Gemini hooks file for the stopwise tool hooks; `undefined`
 * when the file is missing or not an object with a `hooks` object (the stop
 * hook's check reports that). Never throws.
 */
export function checkToolHookSettings(host: HostHooksHost, file: JsonFile): ToolHookSettingsCheck | undefined {
  if (file.kind !== 'found' || typeof file.value !== 'object' || file.value === null || Array.isArray(file.value)) return undefined;
  const hooks = (file.value as Record<string, unknown>).hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return undefined;
  const registered: string[] = [];
  const missing: string[] = [];
  for (const event of HOST_HOOK_EVENTS[host].tools) {
    const entries = (hooks as Record<string, unknown>)[event];
    const found = Array.isArray(entries) && entries.some((entry) => stopwiseHostCommands(host, entry).length > 0);
    (found ? registered : missing).push(event);
  }
  return { registered, missing };
}

/** A tool hook check as one line for a person: all there (ok), or which events are missing and what that costs (a warning). */
export function describeToolHookSettingsCheck(host: HostHooksHost, file: string, check: ToolHookSettingsCheck): { readonly status: 'ok' | 'warning'; readonly text: string } {
  if (check.missing.length === 0) return { status: 'ok', text: `${file}: tool hooks registered (${check.registered.join(', ')})` };
  return {
    status: 'warning',
    text: `${file}: no stopwise tool hook under ${check.missing.map((event) => `hooks.${event}`).join(', ')}: a loop inside a turn is not seen there; \`stopwise init ${host}\` adds them`,
  };
}
