import type { CheckResult } from './check-result.js';
import { addFailure, createTally, finishTally, type ReportEvidence } from './report-evidence.js';

/**
 * Folds checks into a `TestEvidence` so the action table treats them like
 * tests: each check is a test that ran, and each failed check is a failed
 * test named `check:<name>` with its detail as the message.
 *
 * @example
 * evidenceFromChecks([await checkGitClean({ cwd }), await checkFilesExist(['dist/index.js'], { cwd })]);
 * // { passed: false, failed: ['check:git-clean'], ran: 2, ... }
 */
export function evidenceFromChecks(checks: readonly CheckResult[]): ReportEvidence {
  const tally = createTally();
  const seen = new Set<string>();
  for (const check of checks) {
    if (typeof check !== 'object' || check === null || typeof check.name !== 'string' || typeof check.ok !== 'boolean') {
      throw new TypeError('evidenceFromChecks: each check must be { name, ok, detail }');
    }
    tally.ran += 1;
    if (!check.ok) addFailure(tally, `check:${check.name}`, typeof check.detail === 'string' ? check.detail : '', seen);
  }
  return finishTally(tally);
}
