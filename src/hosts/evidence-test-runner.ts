import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { runTests } from '../evidence/run-tests.js';
import { isEvidenceFresh } from '../evidence/tree-fingerprint.js';
import type { TestEvidence } from '../core/test-evidence.js';
import type { HookTestRunner } from './hook-test-runner.js';

/**
 * Runs the configured tests with `runTests` of `stopwise/evidence`, unless the
 * last run passed and the working tree has not changed since
 * (`isEvidenceFresh`): that pass is reused. A stale pass, and any result that
 * is not a pass, runs the tests again. A command that could not start is
 * `not_started`, never evidence.
 */
export const evidenceTestRunner: HookTestRunner = {
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
