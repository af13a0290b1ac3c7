import type { HostCli } from './host-cli.js';
import { runHostProcess, type HostRun } from './host-process.js';
import type { HostUnderTest } from './host-under-test.js';
import type { ConversationItem } from './model-protocol.js';
import type { ModelTurn } from './model-turn.js';
import type { ScratchProject } from './scratch-project.js';
import { startScriptedModel, type ModelRequest } from './scripted-model-server.js';

/** A generous bound on one session: hosts that work end in seconds; only a hang reaches it. */
export const SESSION_TIMEOUT_MS = 120_000;

/** One finished session: how the host ended, what it printed, every request the model got. */
export interface HostSession {
  readonly run: HostRun;
  readonly requests: readonly ModelRequest[];
  /** The main requests (agent turns), in order. */
  readonly main: readonly ModelRequest[];
  /** What the model read in a main request, flattened. */
  conversation(request: ModelRequest): ConversationItem[];
  /** What the person saw: the host's stdout and stderr. */
  readonly personOutput: string;
}

/**
 * Runs one session of the host on the project, with a scripted model that
 * answers its agent turns with `script`, until the host exits (or is killed
 * after {@link SESSION_TIMEOUT_MS}: `run.timedOut`); the model server is
 * closed whatever happens.
 */
export async function runHostSession(
  host: HostUnderTest,
  cli: Extract<HostCli, { ok: true }>,
  project: ScratchProject,
  script: readonly ModelTurn[],
  env: NodeJS.ProcessEnv = {},
): Promise<HostSession> {
  const model = await startScriptedModel(host.protocol, script);
  try {
    const invocation = host.prepare(project, model.url, cli);
    const run = await runHostProcess(cli.command, invocation.args, { cwd: project.dir, env: { ...invocation.env, ...env }, timeoutMs: SESSION_TIMEOUT_MS });
    return {
      run,
      requests: model.requests,
      main: model.mainRequests(),
      conversation: (request) => host.protocol.conversation(request.body),
      personOutput: `${run.stdout}\n${run.stderr}`,
    };
  } finally {
    await model.close();
  }
}
