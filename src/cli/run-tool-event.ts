import { parseJsonText } from '../input/read-json-file.js';
import { unreadableInputExitCode, type HookHost } from '../hosts/hook-host.js';
import { hasToolEvents } from '../hosts/host-tool-events.js';
import { readHookEvent } from '../hosts/read-hook-event.js';
import { runToolHook, type ToolHookRun } from '../hosts/run-tool-hook.js';

/**
 * The tool event side of `stopwise hook <host>`, for every host: a tool
 * event gets the tool guard's answer (`runToolHook`), an event stopwise does
 * not answer gets no output, and `undefined` leaves the input to the stop
 * hook (a stop, and for Claude Code, Codex and Cursor any input that is not
 * one of their tool events, unreadable stdin included, which the stop hook
 * reports). Copilot and Gemini send every event through the same command, so
 * their unreadable stdin is answered here, never blocking.
 *
 * The build bundles it with the hook command into one file: it runs on every
 * tool call, where each module loaded costs start-up time.
 */
export async function runToolEvent(host: HookHost, stdin: string, cwd: string): Promise<ToolHookRun | undefined> {
  const parsed = parseJsonText(stdin);
  if (!parsed.ok) return hasToolEvents(host) ? unreadable(host, `stdin is ${parsed.message}`) : undefined;
  let read;
  try {
    read = readHookEvent(host, parsed.value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return unreadable(host, error.message);
  }
  switch (read.kind) {
    case 'stop':
      return undefined;
    case 'other':
      return { exitCode: 0, stdout: '', stderr: '' };
    case 'tool':
      return runToolHook(host, read.input, { cwd });
  }
}

function unreadable(host: HookHost, message: string): ToolHookRun {
  return { exitCode: unreadableInputExitCode(host), stdout: '', stderr: `stopwise hook ${host}: ${message}; nothing was checked and nothing is blocked.\n` };
}
