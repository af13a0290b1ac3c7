import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { HostCli } from './host-cli.js';
import { killHostProcesses } from './host-process.js';
import { runHostSession, type HostSession } from './host-session.js';
import type { HostUnderTest } from './host-under-test.js';
import type { ModelTurn } from './model-turn.js';
import {
  createScratchProject,
  initStopwise,
  readOutcomes,
  readSessionStates,
  removeScratchProject,
  type OutcomeLine,
  type ScratchProject,
  type SessionStateFile,
} from './scratch-project.js';

/** What a scenario's session left: the host's run and requests, the project's files and stopwise's records. */
export interface ScenarioRun {
  readonly project: ScratchProject;
  readonly session: HostSession;
  readonly outcomes: readonly OutcomeLine[];
  readonly states: readonly SessionStateFile[];
  /** How many times the repeated command really ran. */
  readonly calls: number;
}

/** How a scenario sets up its project and session. */
export interface ScenarioSetup {
  readonly files?: Readonly<Record<string, string>>;
  readonly script: readonly ModelTurn[];
  readonly env?: NodeJS.ProcessEnv;
  /** Changes the project after `stopwise init` (a broken configuration, another setting). */
  readonly prepare?: (project: ScratchProject) => void;
}

/**
 * Why the host of this file could not be run (it never reached the model),
 * once a session found out; its checks are then skipped outside CI (each test
 * file runs in a module of its own, so this is the state of one host).
 */
let hostStartFailure: string | undefined;

/**
 * `it`, or `it.fails` with the known problem in its name when the host has
 * one for this check; skipped when the host did not start.
 */
export function check(name: string, knownProblem: string | undefined, body: () => void | Promise<void>): void {
  const test = (context: { skip: (condition: boolean, note?: string) => void }) => {
    context.skip(hostStartFailure !== undefined, hostStartFailure);
    return body();
  };
  if (knownProblem === undefined) it(name, test);
  else it.fails(`${name} [known problem, expected to fail: ${knownProblem}]`, test);
}

/** A check without a known problem. */
export function verify(name: string, body: () => void | Promise<void>): void {
  check(name, undefined, body);
}

/**
 * Records that the host never reached the model: a failure under `CI=true`
 * (thrown), elsewhere one line saying why and the host's checks skipped.
 */
function hostDidNotStart(host: HostUnderTest, why: string): void {
  const reason = `${host.label} did not start: ${why}`;
  if (process.env.CI === 'true') throw new Error(reason);
  if (hostStartFailure === undefined) console.warn(`host suite: ${host.label} skipped: ${reason}`);
  hostStartFailure = reason;
}

function keepRecord(host: HostUnderTest, name: string, run: ScenarioRun): void {
  const folder = process.env.STOPWISE_HOSTS_KEEP;
  if (folder === undefined || folder === '') return;
  mkdirSync(folder, { recursive: true });
  const { session, outcomes, states, calls } = run;
  const record = { run: session.run, requests: session.requests, outcomes, states, calls };
  writeFileSync(join(folder, `${host.name}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.json`), JSON.stringify(record, null, 1));
}

/**
 * A scenario: before its checks, one session of the host on a fresh project
 * (`stopwise init <host>` as a user runs it, then `prepare`); its checks read
 * the session; the project is removed and any host process left is killed
 * after them.
 */
export function scenario(host: HostUnderTest, cli: Extract<HostCli, { ok: true }>, name: string, setup: ScenarioSetup, checks: (run: () => ScenarioRun) => void): void {
  describe(name, () => {
    let project: ScratchProject | undefined;
    let result: ScenarioRun | undefined;
    beforeAll(async () => {
      if (hostStartFailure !== undefined) return;
      project = createScratchProject(host.name, setup.files);
      await initStopwise(project, host.name);
      setup.prepare?.(project);
      let session: HostSession;
      try {
        session = await runHostSession(host, cli, project, setup.script, setup.env);
      } catch (error) {
        hostDidNotStart(host, error instanceof Error ? error.message : String(error));
        return;
      }
      const { run } = session;
      if (session.main.length === 0) {
        const lastLine = run.stderr.trim().split('\n').pop() ?? '';
        hostDidNotStart(host, `it sent the model no request (${run.timedOut ? 'killed after its timeout' : `exit ${String(run.code ?? run.signal)}`}; ${lastLine})`);
        return;
      }
      if (run.timedOut) throw new Error(`${host.label} did not exit within its timeout (killed); stderr ends: ${run.stderr.slice(-1500)}`);
      const callsFile = join(project.dir, '.calls');
      const calls = existsSync(callsFile) ? readFileSync(callsFile, 'utf8').split('\n').filter((line) => line !== '').length : 0;
      result = { project, session, outcomes: readOutcomes(project), states: readSessionStates(project), calls };
      keepRecord(host, name, result);
    });
    afterAll(() => {
      killHostProcesses();
      removeScratchProject(project);
    });
    checks(() => {
      if (result === undefined) throw new Error('the session did not run');
      return result;
    });
  });
}
