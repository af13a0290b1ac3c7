import { join, resolve } from 'node:path';
import type { DecisionModelClient } from '../decision-model/decision-model-client.js';
import { parseJsonText } from '../input/read-json-file.js';
import { HOSTS, type HookEvent, type HookHost, type HookOutput, type HostDescription, type ToolAnswer } from './host.js';
import type { ProjectTestRunner } from './project-tests.js';
import { appendTurnStep, ensureStateDir, SessionBusyError, sessionStatePath, withSessionState } from './session-state.js';
import { loadToolGuardConfig } from './tool-guard-config.js';
import { describeHandOff, fitToolGuardToHost, guardToolEvent, initialToolGuardState } from './tool-guard.js';

/** What a hook process prints and how it exits. */
export interface HookRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Where the hook runs, and the parts it runs with (each has a default). */
export interface RunHookOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where to look for the configuration when the payload names no folder (default: the process's). */
  readonly cwd?: string;
  readonly now?: () => Date;
  /** When the hook started, in milliseconds since the epoch: its deadline counts from here (default: now). */
  readonly startedAt?: number;
  /** Runs the project's tests (default: the configured command, as a child process). */
  readonly testRunner?: ProjectTestRunner;
  /** The decision model to ask when the evidence does not decide, whatever `decisionModel.client` says. */
  readonly client?: DecisionModelClient;
  /** How long a tool event waits for its session's state (default 5 s): the call then goes on unguarded. */
  readonly lockTimeoutMs?: number;
}

/** Tool events run on every tool call, often several at once: a short wait for the state, then the call goes on unguarded. */
const TOOL_LOCK_TIMEOUT_MS = 5_000;

/**
 * One hook invocation of any host, from its stdin to what it prints: the
 * payload is read once into a stop, a tool call or another event; a tool call
 * gets the tool guard's answer, a stop the stop hook's, both over the
 * session's one state file under its one lock; the answer is encoded for the
 * host. It never traps the agent: anything that goes wrong lets the stop or the
 * call go ahead with a line saying what, and unreadable input exits with the
 * host's non-blocking code.
 *
 * @example
 * const run = await runHook('claude-code', stdinText);
 * process.stdout.write(run.stdout);
 */
export async function runHook(name: HookHost, stdin: string, options: RunHookOptions = {}): Promise<HookRun> {
  const host = HOSTS[name];
  const parsed = parseJsonText(stdin);
  if (!parsed.ok) return unreadable(host, `stdin is ${parsed.message}`);
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return unreadable(host, 'stdin must be a JSON object');
  let event: HookEvent;
  try {
    event = host.readEvent(parsed.value as Record<string, unknown>);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return unreadable(host, error.message);
  }
  const env = options.env ?? process.env;
  const startDirs = [event.cwd, host.command.projectDirVariable === undefined ? undefined : env[host.command.projectDirVariable], options.cwd ?? process.cwd()].filter(
    (dir): dir is string => dir !== undefined && dir !== '',
  );
  if (event.kind === 'other') return { exitCode: 0, stdout: '', stderr: '' };
  if (event.kind === 'tool') return answerTool(host, event, startDirs, options);
  // A tool event runs on every tool call: the build keeps the stop hook in a file of its own, loaded only by a stop.
  return (await import('./stop-hook.js')).runStopHook(host, event, startDirs, options);
}

async function answerTool(host: HostDescription, event: Extract<HookEvent, { kind: 'tool' }>, startDirs: readonly string[], options: RunHookOptions): Promise<HookRun> {
  const now = options.now ?? (() => new Date());
  try {
    const loaded = await loadToolGuardConfig(startDirs);
    if (!loaded.ok) return output(host.encodeTool(event.eventName, { kind: 'none' }), [`stopwise: ${loaded.message}; the tool guard did not check this call.`]);
    // On a host with loop detection of its own, the ladder is fitted under it.
    const guard = fitToolGuardToHost(loaded.toolGuard, host);
    // The turn's steps are kept for a policy that reads them, whether or not the guard is on.
    const record = loaded.recordSteps && event.tool.phase === 'post';
    if (!guard.enabled && !record) return output({ exitCode: 0 }, []);
    const stateDir = resolve(loaded.projectDir, loaded.stateDir);
    await ensureStateDir(stateDir);
    const path = sessionStatePath(stateDir, host.name, event.sessionId ?? '', event.agentId);
    const at = now();
    const run = await withSessionState<{ answer: ToolAnswer; handedOff: string | undefined }>(path, { now, lockTimeoutMs: options.lockTimeoutMs ?? TOOL_LOCK_TIMEOUT_MS }, async (before) => {
      const state = record ? { ...before, steps: appendTurnStep(before.steps, event.tool) } : before;
      const guarded = guardToolEvent(state.tools ?? initialToolGuardState(guard.stall), event.tool, guard, at);
      const handOff = guarded.state.handOff;
      if (host.loopDetection === undefined || guarded.answer.kind !== 'deny' || handOff === null || handOff.delivered === true) {
        return { state: guarded.state === state.tools ? state : { ...state, tools: guarded.state }, result: { answer: guarded.answer, handedOff: undefined } };
      }
      // The host may end the run at the next identical call with no stop event: the hand-off is made now, with the refusal.
      const message = describeHandOff(handOff);
      const tools = { ...guarded.state, handOff: { ...handOff, delivered: true as const } };
      return { state: { ...state, tools }, result: { answer: { ...guarded.answer, person: message }, handedOff: message } };
    });
    const lines = [...run.warnings];
    if (run.result.handedOff !== undefined && loaded.outcomesFile !== undefined) {
      const { appendHookOutcome, toolGuardHandOffOutcome } = await import('./hook-outcome-record.js');
      const warning = await appendHookOutcome(resolve(loaded.projectDir, loaded.outcomesFile), toolGuardHandOffOutcome(run.result.handedOff), {
        at,
        ...(loaded.taskType === undefined ? {} : { taskType: loaded.taskType }),
      });
      if (warning !== undefined) lines.push(warning);
    }
    return output(host.encodeTool(event.eventName, run.result.answer), lines);
  } catch (error) {
    const why = error instanceof SessionBusyError ? `another hook of this session held its state too long (${error.message})` : `it failed (${error instanceof Error ? error.message : String(error)})`;
    return output({ exitCode: 0 }, [`stopwise: the tool guard did not check this call: ${why}.`]);
  }
}

/** What the process prints for an answer: the lines for the person first, then the host's own stderr. */
export function output(answer: HookOutput, lines: readonly string[]): HookRun {
  const stderr = [...lines, ...(answer.stderr === undefined ? [] : [answer.stderr])].map((line) => `${line.trimEnd()}\n`).join('');
  return { exitCode: answer.exitCode, stdout: answer.stdout === undefined ? '' : `${JSON.stringify(answer.stdout)}\n`, stderr };
}

function unreadable(host: HostDescription, message: string): HookRun {
  return { exitCode: host.unreadableExitCode, stdout: '', stderr: `stopwise hook ${host.name}: ${message}; nothing was checked and nothing is blocked.\n` };
}
