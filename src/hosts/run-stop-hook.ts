import { join, resolve } from 'node:path';
import { parseJsonText } from '../input/read-json-file.js';
import { noTestsRan, testsFailed, type TestEvidence } from '../core/test-evidence.js';
import { decideStopHook, isStopHookBlock, stopLimitHandoff, type StopHookCheck, type StopHookDecision } from './decide-stop-hook.js';
import { encodeClaudeCodeOutput } from './encode-claude-code-output.js';
import { encodeCodexOutput } from './encode-codex-output.js';
import { encodeCursorOutput } from './encode-cursor-output.js';
import { acquireFileLock, LockTimeoutError, type FileLock } from './file-lock.js';
import type { DecisionModelConfig } from '../judge/create-configured-client.js';
import type { EvaluationClient } from '../judge/evaluation-client.js';
import { isStopEventName, type HookHost } from './hook-host.js';
import { beginStopAttempt, isReentry, recordStopOutcome, type StopOutcomeKind } from './hook-session-state.js';
import { ensureStateDir, pruneHookSessionStates, readHookSessionState, sessionStateFileName, writeHookSessionState } from './hook-session-store.js';
import type { HookTestRunner } from './hook-test-runner.js';
import { loadStopwiseConfig } from './load-stopwise-config.js';
import { hostSignalsReentry, parseStopHookInput, stopHookSessionId, stopHookWorkingDirectory, type StopHookInput } from './stop-hook-input.js';
import type { StopwiseConfig } from './stopwise-config.js';

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
    const stateDir = resolve(projectDir, config.stateDir);
    await ensureStateDir(stateDir);
    const statePath = join(stateDir, sessionStateFileName(host, stopHookSessionId(input) ?? '', input.agent_id));
    let lock: FileLock;
    try {
      lock = await acquireFileLock(statePath, { timeoutMs: config.tests.timeoutMs + 2 * config.judge.timeoutMs + 10_000 });
    } catch (error) {
      if (!(error instanceof LockTimeoutError)) throw error;
      return answer.finish({
        systemMessage: `stopwise: another stop hook for this session is still running (${error.message}); this stop was allowed unchecked. A person should look.`,
      });
    }
    try {
      const decision = await decideLocked(host, input, config, projectDir, statePath, answer, { env, now, options, lock });
      await pruneHookSessionStates(stateDir, now()).catch(() => undefined);
      return answer.finish(decision.decision, decision.additionalContext);
    } finally {
      await lock.release();
    }
  } catch (error) {
    return answer.finish({
      systemMessage: `stopwise: the hook failed (${error instanceof Error ? error.message : String(error)}); the stop was allowed unchecked. A person should look.`,
    });
  }
}

async function decideLocked(
  host: HookHost,
  input: StopHookInput,
  config: StopwiseConfig,
  projectDir: string,
  statePath: string,
  answer: HookAnswer,
  context: { env: NodeJS.ProcessEnv; now: () => Date; options: RunStopHookOptions; lock: FileLock },
): Promise<{ decision: StopHookDecision; additionalContext?: string }> {
  const { env, now, options, lock } = context;
  const read = await readHookSessionState(statePath, now());
  if (read.warning !== undefined) answer.warn(read.warning);
  const state = read.state;
  const save = async (kind: StopOutcomeKind, decision: StopHookDecision, attempt?: ReturnType<typeof beginStopAttempt>, evidence?: TestEvidence) => {
    if (!(await lock.isHeld())) {
      answer.warn(
        `stopwise: another stop hook of this session took over the lock on ${statePath} while this one ran (this one looked stalled); ` +
          "this one's update of the session state was not saved, so as not to overwrite the other's.",
      );
      return;
    }
    const message = decision === undefined ? undefined : 'reason' in decision ? decision.reason : decision.systemMessage;
    await writeHookSessionState(statePath, recordStopOutcome(state, attempt, { kind, ...(message === undefined ? {} : { message }) }, evidence, now()));
  };

  if (host === 'cursor' && input.status !== undefined && input.status !== 'completed') {
    await save('allow', undefined);
    return { decision: undefined };
  }

  const reEntered = isReentry(state, config.maxConsecutiveBlocks, hostSignalsReentry(input));
  const runner = options.testRunner ?? (await import('./evidence-test-runner.js')).evidenceTestRunner;
  const run = await runner.run(config.tests, { cwd: projectDir, env, ...(state.lastEvidence === undefined ? {} : { previous: state.lastEvidence }) });
  if (run.outcome === 'timeout') {
    const decision = {
      systemMessage: `stopwise: the test command did not finish within ${Math.round(run.timeoutMs / 1000)} s and was stopped; the stop was allowed without test evidence. A person should look.`,
    };
    await save('handoff', decision);
    return { decision };
  }
  const tests: TestEvidence =
    run.reason !== undefined && run.evidence.failed.length === 0 && (run.evidence.failures ?? []).length === 0
      ? { ...run.evidence, failures: [{ name: 'test command', message: run.reason }] }
      : run.evidence;

  const attempt = beginStopAttempt(state, tests, input.last_assistant_message ?? '', config.policy.stallRounds);
  let decision: StopHookDecision = stopLimitHandoff(tests, attempt.loop, config.policy);
  if (decision === undefined) {
    const model = decisionModel(config, env, options.client);
    let checked: StopHookCheck;
    if (model !== undefined && !reEntered && !noTestsRan(tests)) {
      const client = await model();
      checked = client instanceof Error ? client : await askDecisionModel(client, config, input, tests);
    }
    decision = decideStopHook(input, checked, tests, { reEntered, policy: config.policy });
  }
  const kind: StopOutcomeKind = decision === undefined ? 'allow' : isStopHookBlock(decision) ? 'block' : 'handoff';
  await save(kind, decision, attempt, tests);
  const criteriaBlock = kind === 'block' && !testsFailed(tests) && !noTestsRan(tests);
  const additionalContext = criteriaBlock ? describeTask(config) : undefined;
  return { decision, ...(additionalContext === undefined ? {} : { additionalContext }) };
}

/** Retries per request: a stop hook has its host's timeout to keep, so one retry, not the clients' default two. */
const HOOK_MAX_RETRIES = 1;

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
  return () => configuredClient({ ...settings, client }, env);
}

async function configuredClient(judge: DecisionModelConfig, env: NodeJS.ProcessEnv): Promise<EvaluationClient | Error> {
  const { createConfiguredClient } = await import('../judge/create-configured-client.js');
  try {
    return await createConfiguredClient(
      judge,
      {
        env,
        settingNames: { baseURL: 'judge.baseURL', model: 'judge.model', apiKeyEnv: 'judge.apiKeyEnv' },
        http: { maxRetries: HOOK_MAX_RETRIES },
      },
    );
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The completion check of the turn: the judgement, or the error that kept the model from answering (never thrown). */
async function askDecisionModel(client: EvaluationClient, config: StopwiseConfig, input: StopHookInput, tests: TestEvidence): Promise<StopHookCheck> {
  const { checkCompletion } = await import('../judge/check-completion.js');
  try {
    return await checkCompletion(client, {
      task: config.task,
      output: input.last_assistant_message ?? '',
      acceptance: config.acceptance,
      tests,
      policy: config.policy,
    });
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function describeTask(config: StopwiseConfig): string | undefined {
  const lines: string[] = [];
  if (config.task !== '') lines.push(`Task: ${config.task}`);
  if (config.acceptance.length > 0) lines.push('Acceptance criteria:', ...config.acceptance.map((item) => `- ${item}`));
  return lines.length === 0 ? undefined : lines.join('\n');
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
    if (decision !== undefined && decision.systemMessage !== undefined) this.lines.push(decision.systemMessage);
    const context = additionalContext === undefined ? {} : { additionalContext };
    const output =
      this.host === 'claude-code'
        ? encodeClaudeCodeOutput(decision, context)
        : this.host === 'codex'
          ? encodeCodexOutput(decision, context)
          : encodeCursorOutput(decision, context);
    return {
      exitCode: 0,
      stdout: output === undefined ? '' : `${JSON.stringify(output)}\n`,
      stderr: this.lines.map((line) => `${line.trimEnd()}\n`).join(''),
    };
  }
}
