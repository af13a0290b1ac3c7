import { answerToolEvent } from './answer-tool-event.js';
import type { HookHost } from './hook-host.js';
import { encodeHostToolAnswer } from './host-tool-events.js';
import type { ToolHookInput } from './parse-tool-hook-input.js';

/** What a tool hook process prints and how it exits. */
export interface ToolHookRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Where the tool hook runs (each has a default). */
export interface RunToolHookOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where to look for the configuration when the input names no folder (default: the process's). */
  readonly cwd?: string;
  readonly now?: () => Date;
  /** How long to wait for another tool hook of the session to release its state (default 5 s). */
  readonly lockTimeoutMs?: number;
}

/**
 * One tool hook invocation of any host, for an input `parseToolHookInput`
 * read: the guard's answer (`answerToolEvent`) encoded for the host and its
 * event. It never traps the agent: anything that goes wrong answers nothing
 * (the call goes on as the host would run it) with a line on stderr saying
 * what. The exit code is 0, but for the one answer a host reads from it
 * (Copilot's `postToolUseFailure` guidance: 2, the guidance on stderr).
 */
export async function runToolHook(host: HookHost, input: ToolHookInput, options: RunToolHookOptions = {}): Promise<ToolHookRun> {
  let guarded;
  let output;
  try {
    guarded = await answerToolEvent(host, input.event, {
      cwd: input.cwd ?? options.cwd ?? process.cwd(),
      env: options.env ?? process.env,
      ...(input.sessionId === undefined ? {} : { sessionId: input.sessionId }),
      ...(input.agentId === undefined ? {} : { agentId: input.agentId }),
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
    });
    output = encodeHostToolAnswer(host, input.eventName, guarded.answer);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { exitCode: 0, stdout: '', stderr: `stopwise hook ${host}: the tool guard failed (${why}); the tool call goes ahead unchecked.\n` };
  }
  const stderr = [...guarded.warnings, ...(output.stderr === undefined ? [] : [output.stderr.trimEnd()])];
  return {
    exitCode: output.exitCode,
    stdout: output.stdout === undefined ? '' : `${JSON.stringify(output.stdout)}\n`,
    stderr: stderr.length === 0 ? '' : `${stderr.join('\n')}\n`,
  };
}
