import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { TestEvidence } from '../core/test-evidence.js';
import { runTests } from '../evidence/run-tests.js';
import { isEvidenceFresh } from '../evidence/tree-fingerprint.js';
import type { TestCommandConfig } from './stopwise-config.js';

/** What running (or reusing) the project's tests gave the hook. */
export type ProjectTestRun =
  | {
      /** `ran`: the command ran now; `reused`: the last pass is still fresh (the tree did not change), so it was not run again. */
      readonly outcome: 'ran' | 'reused';
      readonly evidence: TestEvidence;
      /** Why the run failed outside any test (a crash, a missing command), when it did. */
      readonly reason?: string;
    }
  | { readonly outcome: 'timeout'; readonly timeoutMs: number }
  /** The command could not start (not found, not executable, an npm script that does not exist): a broken configuration, not a test result. */
  | { readonly outcome: 'not_started'; readonly command: string; readonly message: string };

/** Runs the configured test command for the hook, or reuses a fresh pass. */
export interface ProjectTestRunner {
  run(
    tests: TestCommandConfig,
    options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly previous?: TestEvidence },
  ): Promise<ProjectTestRun>;
}

/**
 * The evidence a run gives the decision table: a run that failed outside any
 * test (a crash, a missing command) with no failing test named gets one
 * failure, `test command`, carrying why.
 */
export function testRunEvidence(run: Extract<ProjectTestRun, { outcome: 'ran' | 'reused' }>): TestEvidence {
  return run.reason !== undefined && run.evidence.failed.length === 0 && (run.evidence.failures ?? []).length === 0
    ? { ...run.evidence, failures: [{ name: 'test command', message: run.reason }] }
    : run.evidence;
}

/**
 * Runs the configured tests with `runTests` of `stopwise/evidence`, unless the
 * last run passed and the working tree has not changed since
 * (`isEvidenceFresh`): that pass is reused. A stale pass, and any result that
 * is not a pass, runs the tests again. A command that could not start is
 * `not_started`, never evidence.
 */
export const projectTestRunner: ProjectTestRunner = {
  async run(tests, options) {
    const previous = options.previous;
    if (previous !== undefined && previous.passed && previous.ran > 0 && (await isEvidenceFresh(previous, { cwd: options.cwd }))) {
      return { outcome: 'reused', evidence: previous };
    }
    if (tests.report?.path !== undefined) {
      // node --test does not create the folder of a reporter's destination; a report that cannot be written would fail the run.
      await mkdir(dirname(resolve(options.cwd, tests.report.path)), { recursive: true }).catch(() => undefined);
    }
    const result = await runTests({
      command: tests.command,
      ...(tests.args === undefined ? {} : { args: tests.args }),
      cwd: options.cwd,
      env: options.env,
      timeoutMs: tests.timeoutMs,
      ...(tests.report === undefined ? {} : { report: tests.report }),
    });
    if (result.reason === 'timeout') return { outcome: 'timeout', timeoutMs: tests.timeoutMs };
    if (result.reason === 'spawn_failed') {
      return { outcome: 'not_started', command: result.command, message: (result.detail ?? 'it could not start').replace(/^the command could not start: /, '') };
    }
    const evidence: TestEvidence = {
      passed: result.passed,
      failed: result.failed,
      ran: result.ran,
      skipped: result.skipped,
      total: result.total,
      failures: result.failures,
      durationMs: result.durationMs,
      command: result.command,
      finishedAt: result.finishedAt,
      ...(result.treeFingerprint === undefined ? {} : { treeFingerprint: result.treeFingerprint }),
    };
    return result.reason === undefined ? { outcome: 'ran', evidence } : { outcome: 'ran', evidence, reason: result.detail ?? result.reason };
  },
};
