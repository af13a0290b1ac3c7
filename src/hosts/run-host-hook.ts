import { parseJsonText } from '../input/read-json-file.js';
import { guardToolEvent } from './guard-tool-event.js';
import type { HookHost } from './hook-host.js';
import { encodeHostToolAnswer, hasToolEvents, readHostHookEvent, type ToolEventHost } from './host-tool-events.js';
import { runStopHook, type RunStopHookOptions, type StopHookRun } from './run-stop-hook.js';
import type { ToolEvent } from './tool-event.js';

/**
 * How `stopwise hook <host>` exits when its stdin cannot be read: 1, a
 * non-blocking error for most hosts; 0 for Copilot, whose `preToolUse`
 * denies the tool call when a hook exits non-zero (and whose `agentStop`
 * reads no output as an allow), so that unreadable input never blocks.
 */
export function unreadableInputExitCode(host: HookHost): 0 | 1 {
  return host === 'copilot' ? 0 : 1;
}

/**
 * One hook invocation from its stdin text to what it prints. For a host with
 * tool events, the payload is read first: a tool event goes to the tool
 * guard and its answer is encoded for the host, an event stopwise does not
 * answer gets no output, and a stop goes to the stop hook (`runStopHook`).
 * Unreadable stdin gets a one-line message and never blocks.
 */
export async function runHostHook(host: HookHost, stdin: string, options: RunStopHookOptions = {}): Promise<StopHookRun> {
  if (!hasToolEvents(host)) return runStopHook(host, stdin, options);
  const parsed = parseJsonText(stdin);
  if (!parsed.ok) return unreadable(host, `stdin is ${parsed.message}`);
  let read;
  try {
    read = readHostHookEvent(host, parsed.value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return unreadable(host, error.message);
  }
  switch (read.kind) {
    case 'stop':
      return runStopHook(host, stdin, options);
    case 'other':
      return { exitCode: 0, stdout: '', stderr: '' };
    case 'tool':
      return runToolHook(host, read.name, read.event, options);
  }
}

async function runToolHook(host: ToolEventHost, name: string, event: ToolEvent, options: RunStopHookOptions): Promise<StopHookRun> {
  let output;
  try {
    const answer = await guardToolEvent(host, event, { cwd: options.cwd ?? process.cwd(), env: options.env ?? process.env });
    output = encodeHostToolAnswer(host, name, answer);
  } catch (error) {
    // exit 0 and no output: the host's own flow goes on (a non-zero exit would refuse the call on Copilot)
    const why = error instanceof Error ? error.message : String(error);
    return { exitCode: 0, stdout: '', stderr: `stopwise hook ${host}: the tool guard failed (${why}); the tool call goes ahead unchecked.\n` };
  }
  return {
    exitCode: output.exitCode,
    stdout: output.stdout === undefined ? '' : `${JSON.stringify(output.stdout)}\n`,
    stderr: output.stderr === undefined ? '' : `${output.stderr.trimEnd()}\n`,
  };
}

function unreadable(host: HookHost, message: string): StopHookRun {
  return { exitCode: unreadableInputExitCode(host), stdout: '', stderr: `stopwise hook ${host}: ${message}; nothing was checked and nothing is blocked.\n` };
}
