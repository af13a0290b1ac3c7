import type { StopDecision } from '../core/policy/stop-decision.js';
import { join, resolve } from 'node:path';
import { parseJsonText } from '../input/read-json-file.js';
import type { TestEvidence } from '../core/test-evidence.js';
import { isStopHookBlock, type StopHookCheck, type StopHookDecision } from './stop-hook-decision.js';
import { blockContext } from './block-context.js';
import { decideStopAttempt } from './decide-stop-attempt.js';
import { hookPolicy } from './hook-policy.js';
import { encodeHostOutput } from './encode-host-output.js';
import { acquireFileLock, LockTimeoutError, type FileLock } from './file-lock.js';
import type { EvaluationClient } from '../judge/evaluation-client.js';
import { createHookClient, hookCompletionInput } from './hook-decision-model.js';
import { HOST_NAMES, isStopEventName, type HookHost } from './hook-host.js';
import { previousRunEndedByHost, recordStopOutcome, sessionStopState, type HookSessionState, type StopAttempt, type StopOutcomeKind } from './hook-session-state.js';
import { ensureStateDir, pruneHookSessionStates, readHookSessionState, sessionStateFileName, writeHookSessionState } from './hook-session-store.js';
import { hookTestEvidence, type HookTestRunner } from './hook-test-runner.js';
import { loadStopwiseConfig } from './load-stopwise-config.js';
import { hostSignalsReentry, parseStopHookInput, stopHookSessionId, stopHookWorkingDirectory, type StopHookInput } from './stop-hook-input.js';
import { MAX_TIMEOUT_MS } from './stopwise-config-defaults.js';
import type { StopwiseConfig } from './stopwise-config.js';
import { HOOK_DEADLINE_SLACK_MS, MAX_LOCK_WAIT_MS, stopHookDeadlineMs } from './hook-deadline.js';
import { formatDuration } from '../core/format-duration.js';
import { notifyStopEnd } from '../core/stop-observer.js';
import { hookRunEnd } from './hook-run-end.js';
import { applyHostBlockCap, hostBlockCap } from './host-block-cap.js';
import { readCursorLoopLimit } from './read-cursor-loop-limit.js';
import { takeToolGuardHandOff } from './take-tool-guard-hand-off.js';

/** What the hook process prints and how it exits. */
export interface StopHookRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Where the hook runs, and the parts it runs with (each has a default). */
export interface RunStopHookOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where to look for the configuration when the input names no folder (default: the process's). */
  readonly cwd?: string;
  readonly now?: () => Date;
  /** Runs the tests (default: the configured command, run as a child process). */
  readonly testRunner?: HookTestRunner;
  /**
   * The decision model to ask when the evidence does not decide. Default: the
   * client `judge` configures (none with `judge.client: 'none'`); a client
   * given here is asked whatever `judge.client` says.
   */
  readonly client?: EvaluationClient;
  /**
   * When the hook started, in milliseconds since the epoch: its deadline
   * (`stopHookDeadlineMs`) counts from here. The command passes its process
   * start; default: when `runStopHook` is called.
   */
  readonly startedAt?: number;
}

/**
 * One stop hook invocation from its stdin text to what it prints: reads the
 * input, finds the configuration, locks the session's state, runs the tests,
 * asks the decision model when the evidence does not decide, applies the
 * decision table with the session's own count of blocks, saves the state and
 * encodes the answer for the host. It never traps the agent: anything that
 * goes wrong lets the stop go ahead with a message saying what, and only
 * unreadable stdin exits non-zero (a non-blocking error for every host).
 */
export async function runStopHook(host: HookHost, stdin: string, options: RunStopHookOptions = {}): Promise<StopHookRun> {
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const parsed = parseJsonText(stdin);
  if (!parsed.ok) return inputError(host, `stdin is ${parsed.message}`);
  let input: StopHookInput;
  try {
    input = parseStopHookInput(parsed.value);
  } catch (error) {
    return inputError(host, (error as Error).message);
  }
  const answer = new HookAnswer(host, input);
  if (input.hook_event_name !== undefined && !isStopEventName(input.hook_event_name)) return answer.finish(undefined);

  try {
    const startDirs = [stopHookWorkingDirectory(input), env.CLAUDE_PROJECT_DIR, host === 'cursor' ? env.CURSOR_PROJECT_DIR : undefined, options.cwd ?? process.cwd()];
    const loaded = await loadStopwiseConfig(startDirs.filter((dir): dir is string => dir !== undefined && dir !== ''));
    if (!loaded.ok) {
      const what = loaded.kind === 'missing' ? loaded.message : `the configuration is invalid (${loaded.message.split('\n').join('; ')})`;
      const fix = loaded.kind === 'missing' ? `Run \`stopwise init ${host}\` to set it up; a person should look.` : 'Fix the file; a person should look.';
      return answer.finish({ systemMessage: `stopwise: ${what}; the stop was allowed unchecked. ${fix}` });
    }
    const { config, projectDir } = loaded;
    const deadline = startDeadline(options.startedAt ?? Date.now(), stopHookDeadlineMs(config));
    const stateDir = resolve(projectDir, config.stateDir);
    await ensureStateDir(stateDir);
    const statePath = join(stateDir, sessionStateFileName(host, stopHookSessionId(input) ?? '', input.agent_id));
    let lock: FileLock;
    try {
      lock = await acquireFileLock(statePath, { timeoutMs: Math.min(MAX_LOCK_WAIT_MS, deadline.stepMs()) });
    } catch (error) {
      if (!(error instanceof LockTimeoutError)) throw error;
      return answer.finish({
        systemMessage: `stopwise: another stop hook for this session is still running (${error.message}); this stop was allowed unchecked. A person should look.`,
      });
    }
    try {
      const read = await readHookSessionState(statePath, now());
      if (read.warning !== undefined) answer.warn(read.warning);
      const progress: Progress = { phase: 'reading the session state', abandoned: false };
      const record = outcomesRecorder(config, projectDir, input, now, (line) => answer.warn(line));
      const save = saveOutcome({ statePath, state: read.state, input, lock, answer, now, progress, ...(record === undefined ? {} : { record }) });
      const session: SessionContext = { host, input, config, configPath: loaded.path, projectDir, env, options, deadline, progress, save };
      // A hand-off the tool guard left (a call that kept repeating after it was refused) goes to the person, instead of a block.
      const toolHandOff = await takeToolGuardHandOff({
        stateDir,
        host,
        sessionId: stopHookSessionId(input) ?? '',
        ...(input.agent_id === undefined ? {} : { agentId: input.agent_id }),
        ...(config.toolGuard === undefined ? {} : { options: config.toolGuard }),
        now: now(),
      });
      if (toolHandOff !== undefined) {
        const decision = { systemMessage: toolHandOff };
        await save('handoff', decision);
        return answer.finish(decision);
      }
      const outcome = await untilDeadline(decideLocked(session, read.state), deadline.workSignal());
      if (outcome === 'deadline') {
        const decision = { systemMessage: deadlineMessage(deadline, progress.phase) };
        progress.abandoned = true;
        await save('handoff', decision, { evenIfAbandoned: true }).catch(() => undefined);
        return answer.finish(decision);
      }
      await pruneHookSessionStates(stateDir, now()).catch(() => undefined);
      return answer.finish(outcome.decision, outcome.additionalContext);
    } finally {
      await lock.release();
    }
  } catch (error) {
    return answer.finish({
      systemMessage: `stopwise: the hook failed (${error instanceof Error ? error.message : String(error)}); the stop was allowed unchecked. A person should look.`,
    });
  }
}

type SaveOutcome = (
  kind: StopOutcomeKind,
  decision: StopHookDecision,
  options?: { attempt?: StopAttempt; evidence?: TestEvidence; engineDecision?: StopDecision; evenIfAbandoned?: boolean },
) => Promise<void>;

/** How far an invocation got (for the message when its deadline runs out), and whether the deadline already answered for it. */
interface Progress {
  phase: string;
  /** Once true, the work still running must not save its own outcome. */
  abandoned: boolean;
}

/** One invocation's parts. */
interface SessionContext {
  readonly host: HookHost;
  readonly input: StopHookInput;
  readonly config: StopwiseConfig;
  readonly configPath: string;
  readonly projectDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly options: RunStopHookOptions;
  readonly deadline: Deadline;
  readonly progress: Progress;
  readonly save: SaveOutcome;
}

/** Saves the outcome of this attempt, unless the lock was taken over meanwhile or the deadline already answered. */
function saveOutcome(parts: {
  statePath: string;
  state: HookSessionState;
  input: StopHookInput;
  lock: FileLock;
  answer: HookAnswer;
  now: () => Date;
  progress: Progress;
  /** Called after the state was saved (the outcomes file). */
  record?: SaveOutcome;
}): SaveOutcome {
  const { statePath, state, input, lock, answer, now, progress } = parts;
  return async (kind, decision, options = {}) => {
    if (progress.abandoned && options.evenIfAbandoned !== true) return;
    if (!(await lock.isHeld())) {
      answer.warn(
        `stopwise: another stop hook of this session took over the lock on ${statePath} while this one ran (this one looked stalled); ` +
          "this one's update of the session state was not saved, so as not to overwrite the other's.",
      );
      return;
    }
    const message = decision === undefined ? undefined : 'reason' in decision ? decision.reason : decision.systemMessage;
    const outcome = { kind, ...(message === undefined ? {} : { message }), ...(previousRunEndedByHost(state, input) ? { previousRunEndedBy: 'host' as const } : {}) };
    await writeHookSessionState(statePath, recordStopOutcome(state, options.attempt, outcome, options.evidence, now()));
    await parts.record?.(kind, decision, options);
  };
}

/** With `outcomesFile` configured: appends each stop the hook lets through or hands off to it (a failure is a warning). */
function outcomesRecorder(
  config: StopwiseConfig,
  projectDir: string,
  input: StopHookInput,
  now: () => Date,
  warn: (line: string) => void,
): SaveOutcome | undefined {
  if (config.outcomesFile === undefined) return undefined;
  const file = resolve(projectDir, config.outcomesFile);
  const taskType = config.taskType === undefined ? {} : { taskType: config.taskType };
  return async (kind, decision, options = {}) => {
    if (kind === 'block') return;
    const { appendHookOutcome } = await import('./hook-outcome-record.js');
    const stop = {
      kind,
      decision,
      lastMessage: input.last_assistant_message ?? '',
      ...(options.attempt === undefined ? {} : { attempt: options.attempt }),
      ...(options.evidence === undefined ? {} : { evidence: options.evidence }),
      ...(options.engineDecision === undefined ? {} : { engineDecision: options.engineDecision }),
    };
    const warning = await appendHookOutcome(file, stop, { policy: config.policy, at: now(), ...taskType });
    if (warning !== undefined) warn(warning);
  };
}

async function decideLocked(session: SessionContext, state: HookSessionState): Promise<{ decision: StopHookDecision; additionalContext?: string }> {
  const { host, input, config, configPath, projectDir, env, options, deadline, progress, save } = session;

  if (host === 'cursor' && input.status !== undefined && input.status !== 'completed') {
    progress.phase = 'saving the session state';
    await save('allow', undefined);
    return { decision: undefined };
  }

  // Before the tests run: a policy that cannot be used fails here, with nothing spent on it.
  const policy = hookPolicy(config);
  const stopState = sessionStopState(state, policy);
  const runner = options.testRunner ?? (await import('./evidence-test-runner.js')).evidenceTestRunner;
  progress.phase = 'running the tests';
  const testTimeoutMs = Math.min(config.tests.timeoutMs, deadline.stepMs());
  if (testTimeoutMs <= 0) throw new DeadlineReached();
  const run = await runner.run(
    { ...config.tests, timeoutMs: testTimeoutMs },
    { cwd: projectDir, env, ...(state.lastEvidence === undefined ? {} : { previous: state.lastEvidence }) },
  );
  if (run.outcome === 'timeout') {
    const allowed = formatDuration(run.timeoutMs);
    const why =
      run.timeoutMs < config.tests.timeoutMs
        ? `was stopped after ${allowed}, when the hook's deadline (${describeDeadline(deadline)}) was about to run out`
        : `did not finish within ${allowed} (tests.timeoutMs) and was stopped`;
    const decision = { systemMessage: `stopwise: the test command ${why}; the stop was allowed without test evidence. A person should look.` };
    progress.phase = 'saving the session state';
    await save('handoff', decision);
    return { decision };
  }
  if (run.outcome === 'not_started') {
    // A broken configuration is not the agent's to fix: blocking would send it after advice it cannot follow.
    const decision = {
      systemMessage: `stopwise: the test command \`${run.command}\` could not start (${run.message}); the stop was allowed unchecked. Fix tests.command in ${configPath}; a person should look.`,
    };
    progress.phase = 'saving the session state';
    await save('handoff', decision);
    return { decision };
  }
  const tests = hookTestEvidence(run);

  const model = decisionModel(config, env, options.client);
  const decided = await decideStopAttempt({
    policy,
    state: stopState,
    tests,
    output: input.last_assistant_message ?? '',
    reentered: hostSignalsReentry(input),
    ...(config.taskType === undefined ? {} : { taskType: config.taskType }),
    maxConsecutiveBlocks: config.maxConsecutiveBlocks,
    ...(model === undefined
      ? {}
      : {
          askModel: async () => {
            progress.phase = 'asking the decision model';
            const client = await model();
            return client instanceof Error ? client : await askDecisionModel(client, config, input, tests, deadline);
          },
        }),
  });
  // A block the host's cap would end the run on hands off instead, so that the person learns why the agent stopped.
  const cap = hostBlockCap(host, env, host === 'cursor' ? await readCursorLoopLimit(projectDir) : undefined);
  const capped = applyHostBlockCap(decided.answer, Math.max(state.consecutiveBlocks, input.loop_count ?? 0), cap, HOST_NAMES[host]);
  const decision = capped.decision;
  const kind: StopOutcomeKind = decision === undefined ? 'allow' : isStopHookBlock(decision) ? 'block' : 'handoff';
  const attempt: StopAttempt = { loop: { step: decided.state.step, recentFingerprints: decided.state.fingerprints }, stopState: decided.state };
  progress.phase = 'saving the session state';
  await save(kind, decision, { attempt, evidence: tests, engineDecision: decided.decision });
  const additionalContext = blockContext(config, decision, tests);
  return additionalContext === undefined ? { decision } : { decision, additionalContext };
}

/** Time kept after each step for what follows it: saving the state, answering. */
const RESERVE_MS = 1_000;

/** The hook's deadline: the steps (tests, model, lock wait) end two reserves before it, the whole work one reserve before it. */
interface Deadline {
  readonly totalMs: number;
  /** Time left for a step (the tests, the decision model, the lock wait). */
  stepMs(): number;
  /** A signal that aborts when the work as a whole must give up. */
  workSignal(): AbortSignal;
}

function startDeadline(startedAt: number, totalMs: number): Deadline {
  const at = startedAt + totalMs;
  const left = (reserve: number) => Math.min(MAX_TIMEOUT_MS, Math.max(0, Math.floor(at - reserve - Date.now())));
  return { totalMs, stepMs: () => left(2 * RESERVE_MS), workSignal: () => timeoutSignal(left(RESERVE_MS)) };
}

/**
 * A signal that aborts with a `TimeoutError` after `ms`, like `AbortSignal.timeout`, but on the global
 * `setTimeout` (which a test can fake); its timer does not keep the process alive either.
 */
function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  timer.unref?.();
  return controller.signal;
}

/** Thrown when there is no time left to start a step. */
class DeadlineReached extends Error {}

/** The work's result, or `'deadline'` once `signal` aborts (or the work found no time left); the work is then left to end on its own. */
async function untilDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T | 'deadline'> {
  let onAbort: (() => void) | undefined;
  const timeout = new Promise<'deadline'>((resolve) => {
    onAbort = () => resolve('deadline');
    if (signal.aborted) resolve('deadline');
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, timeout]);
  } catch (error) {
    if (error instanceof DeadlineReached) return 'deadline';
    throw error;
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

function describeDeadline(deadline: Deadline): string {
  return `${formatDuration(deadline.totalMs)} from its start: tests.timeoutMs + 2 × judge.timeoutMs + ${formatDuration(HOOK_DEADLINE_SLACK_MS)}`;
}

function deadlineMessage(deadline: Deadline, phase: string): string {
  return `stopwise: the hook ran out of time while ${phase} (its deadline is ${describeDeadline(deadline)}); the stop was allowed unchecked. A person should look.`;
}

/**
 * The decision model the hook may ask, made only when it is asked: the given
 * client, or the one `judge` configures (an error that says why there is none
 * is never thrown: for the hook, that model is down). `undefined` with
 * `judge.client: 'none'` and no client given.
 */
function decisionModel(
  config: StopwiseConfig,
  env: NodeJS.ProcessEnv,
  given: EvaluationClient | undefined,
): (() => Promise<EvaluationClient | Error>) | undefined {
  if (given !== undefined) return async () => given;
  const { client, ...settings } = config.judge;
  if (client === 'none') return undefined;
  return () => createHookClient({ ...settings, client }, env);
}

/** The completion check of the turn: the judgement, or the error that kept the model from answering (never thrown). */
async function askDecisionModel(
  client: EvaluationClient,
  config: StopwiseConfig,
  input: StopHookInput,
  tests: TestEvidence,
  deadline: Deadline,
): Promise<StopHookCheck> {
  const { checkCompletion } = await import('../judge/check-completion.js');
  const signal = timeoutSignal(deadline.stepMs());
  try {
    return await checkCompletion(client, hookCompletionInput(config, input.last_assistant_message ?? '', tests), { signal });
  } catch (error) {
    if (signal.aborted) return new Error(`no answer before the hook's deadline (${describeDeadline(deadline)})`);
    return error instanceof Error ? error : new Error(String(error));
  }
}

function inputError(host: HookHost, message: string): StopHookRun {
  return { exitCode: 1, stdout: '', stderr: `stopwise hook ${host}: ${message}; the stop goes ahead unchecked.\n` };
}

/** Collects warnings and encodes the final answer for the host. */
class HookAnswer {
  private readonly lines: string[] = [];

  constructor(
    private readonly host: HookHost,
    private readonly input: StopHookInput,
  ) {}

  warn(line: string): void {
    this.lines.push(line);
  }

  finish(decision: StopHookDecision, additionalContext?: string): StopHookRun {
    if (this.input.hook_event_name === undefined || isStopEventName(this.input.hook_event_name)) notifyStopEnd(hookRunEnd(this.host, this.input, decision));
    if (decision !== undefined && decision.systemMessage !== undefined) this.lines.push(decision.systemMessage);
    const output = encodeHostOutput(this.host, decision, additionalContext === undefined ? {} : { additionalContext });
    return {
      exitCode: 0,
      stdout: output === undefined ? '' : `${JSON.stringify(output)}\n`,
      stderr: this.lines.map((line) => `${line.trimEnd()}\n`).join(''),
    };
  }
}
