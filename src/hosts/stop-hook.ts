import { readdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { formatDuration } from '../core/format-duration.js';
import { notifyStopEnd } from '../core/stop-observer.js';
import { readJsonFile } from '../input/read-json-file.js';
import { answerStop, encodedStop, type DecidedStop, type StopSession } from './answer-stop.js';
import { HOOK_DEADLINE_SLACK_MS, MAX_LOCK_WAIT_MS, stopHookDeadlineMs } from './hook-deadline.js';
import type { HookEvent, HostDescription } from './host.js';
import { output, type HookRun, type RunHookOptions } from './run-hook.js';
import { ensureStateDir, SessionBusyError, sessionStatePath, withSessionState, type SessionState } from './session-state.js';
import { MAX_TIMEOUT_MS } from './config-file.js';
import { loadStopwiseConfig } from './stopwise-config.js';

/** Session states untouched for this long are deleted (7 days). */
export const SESSION_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const PRUNE_MARKER = '.last-prune';

/** Time kept after each step for what follows it: saving the state, answering. */
const RESERVE_MS = 1_000;

/**
 * A stop event of `runHook`: finds and checks the configuration, and within
 * the hook's deadline (`tests.timeoutMs + 2 × decisionModel.timeoutMs + 20 s`
 * from its start) decides the stop over the session's state (`answerStop`),
 * appends the outcome when the run ends, and encodes the answer. Anything
 * that goes wrong lets the stop go ahead with a line for the person.
 */
export async function runStopHook(host: HostDescription, event: Extract<HookEvent, { kind: 'stop' }>, startDirs: readonly string[], options: RunHookOptions): Promise<HookRun> {
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const finish = (answer: DecidedStop['answer'], warnings: readonly string[], cap: StopSession['cap'] = undefined): HookRun => {
    const encoded = encodedStop(answer, host, cap);
    notifyStopEnd({ driver: 'stop-hook', ...('decision' in answer ? { decision: answer.decision } : {}) });
    const line = encoded.kind === 'handoff' ? encoded.message : encoded.warning;
    const printed = host.encodeStop(encoded);
    // A host with no message for the person gets the line on stderr from its own encoder: once is enough.
    return output(printed, [...warnings, ...(line === undefined || printed.stderr === line ? [] : [line])]);
  };
  const handOff = (message: string, reason: string) => ({ handOff: `stopwise: ${message}; the stop was allowed unchecked. A person should look.`, reason });
  let loaded;
  try {
    loaded = await loadStopwiseConfig(startDirs);
  } catch (error) {
    return finish(handOff(`the hook failed reading its configuration (${(error as Error).message})`, 'hook_failed'), []);
  }
  if (!loaded.ok) {
    const what = loaded.kind === 'missing' ? `${loaded.message}; run \`stopwise init ${host.name}\` to set it up` : `the configuration is invalid (${loaded.message.split('\n').join('; ')})`;
    return finish(handOff(what, 'config_invalid'), []);
  }
  const { config, projectDir } = loaded;
  const totalMs = stopHookDeadlineMs(config);
  const endAt = (options.startedAt ?? Date.now()) + totalMs;
  const left = (reserve: number): number => Math.min(MAX_TIMEOUT_MS, Math.max(0, Math.floor(endAt - reserve - Date.now())));
  const deadline = `${formatDuration(totalMs)} from its start: tests.timeoutMs + 2 × decisionModel.timeoutMs + ${formatDuration(HOOK_DEADLINE_SLACK_MS)}`;
  const settings = host.name === 'cursor' ? await readJsonFile(join(projectDir, host.settingsFile)).catch(() => undefined) : undefined;
  const cap = host.blockCap(env, settings?.kind === 'found' ? settings.value : undefined);
  const progress = { phase: 'reading the session state' };
  try {
    const stateDir = resolve(projectDir, config.stateDir);
    await ensureStateDir(stateDir);
    const path = sessionStatePath(stateDir, host.name, event.sessionId ?? '', event.agentId);
    const session: StopSession = {
      host,
      event,
      config,
      configPath: loaded.path,
      projectDir,
      env,
      cap,
      now,
      stepMs: () => left(2 * RESERVE_MS),
      progress,
      ...(options.testRunner === undefined ? {} : { testRunner: options.testRunner }),
      ...(options.client === undefined ? {} : { client: options.client }),
    };
    const run = await withSessionState(path, { now, lockTimeoutMs: Math.min(MAX_LOCK_WAIT_MS, left(2 * RESERVE_MS)) }, async (state) => {
      // A host that names the user turn (Gemini) may not flag a stop in the turn it was blocked in as a re-entry (after a
      // retry that ran a tool it starts a new agent loop): the same turn after a block is one.
      const sameTurn = event.turn !== undefined && state.lastStop?.kind === 'block' && state.lastStop.turn === event.turn;
      const reentered = event.reentered || sameTurn;
      const fresh = state.lastStop?.kind === 'block' && !reentered;
      const decided = await untilDeadline(answerStop(reentered === event.reentered ? session : { ...session, event: { ...event, reentered } }, state), left(RESERVE_MS));
      const stopped: DecidedStop =
        decided === 'deadline'
          ? { state: { ...state, stop: null, lastStop: { kind: 'handoff', at: now().toISOString() } }, answer: handOff(`the hook ran out of time while ${progress.phase} (its deadline is ${deadline})`, 'deadline'), step: (state.stop?.step ?? 0) + 1 }
          : decided;
      const ended = stopped.state.lastStop;
      const lastStop = ended === undefined ? undefined : { ...ended, ...(fresh ? { previousRunEndedBy: 'host' as const } : {}), ...(event.turn === undefined ? {} : { turn: event.turn }) };
      const next: SessionState = lastStop === undefined ? stopped.state : { ...stopped.state, lastStop };
      return { state: next, result: stopped };
    });
    const warnings = [...run.warnings];
    await recordOutcome(config, projectDir, event.lastMessage, run.result, encodedStop(run.result.answer, host, cap), now(), (line) => warnings.push(line));
    await pruneSessionStates(stateDir, now()).catch(() => undefined);
    return finish(run.result.answer, warnings, cap);
  } catch (error) {
    if (error instanceof SessionBusyError) return finish(handOff(`another stop hook of this session is still running (${error.message})`, 'session_busy'), []);
    return finish(handOff(`the hook failed (${error instanceof Error ? error.message : String(error)})`, 'hook_failed'), []);
  }
}

/** With an outcomes file configured: appends the outcome of each stop the hook lets through or hands off (a failure is a warning). */
async function recordOutcome(
  config: { readonly outcomesFile?: string; readonly taskType?: string },
  projectDir: string,
  lastMessage: string,
  decided: DecidedStop,
  encoded: ReturnType<typeof encodedStop>,
  at: Date,
  warn: (line: string) => void,
): Promise<void> {
  if (config.outcomesFile === undefined) return;
  const { appendHookOutcome, hookStopOutcome } = await import('./hook-outcome-record.js');
  const outcome = hookStopOutcome(decided, encoded, lastMessage);
  if (outcome === undefined) return;
  const warning = await appendHookOutcome(resolve(projectDir, config.outcomesFile), outcome, { at, ...(config.taskType === undefined ? {} : { taskType: config.taskType }) });
  if (warning !== undefined) warn(warning);
}

/** The work's result, or `'deadline'` once `ms` pass; the work is then left to end on its own (its result unused). */
async function untilDeadline<T>(work: Promise<T>, ms: number): Promise<T | 'deadline'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'deadline'>((resolveTimeout) => {
    timer = setTimeout(() => resolveTimeout('deadline'), ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Deletes session states untouched for `retentionMs` and temporary files left
 * by a crash, at most once an hour (a marker file remembers when). Errors are
 * ignored: pruning is housekeeping.
 */
export async function pruneSessionStates(stateDir: string, now: Date, retentionMs: number = SESSION_RETENTION_MS): Promise<{ pruned: number }> {
  const marker = join(stateDir, PRUNE_MARKER);
  const last = await stat(marker).then((info) => info.mtimeMs, () => 0);
  if (now.getTime() - last < PRUNE_EVERY_MS) return { pruned: 0 };
  await writeFile(marker, '').catch(() => undefined);
  await utimes(marker, now, now).catch(() => undefined);
  let pruned = 0;
  const names = await readdir(stateDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith('session-')) continue;
    const temporary = name.endsWith('.tmp');
    if (!temporary && !name.endsWith('.json') && !name.endsWith('.lock') && !name.endsWith('.takeover')) continue;
    const path = join(stateDir, name);
    const age = await stat(path).then((info) => now.getTime() - info.mtimeMs, () => -1);
    if (age > (temporary ? PRUNE_EVERY_MS : retentionMs)) await unlink(path).then(() => pruned++, () => undefined);
  }
  return { pruned };
}
