/**
 * Deterministic evidence: the readers of test reports (JUnit XML, TAP, Vitest
 * and Jest JSON, a summary line), `runTests`, the working-tree fingerprint and
 * the checks of files, git and commands.
 *
 * @module
 */
export { runTests } from './run-tests.js';
export type { RunTestsOptions, TestRunResult } from './run-tests.js';
export { readJUnitXml } from './read-junit-xml.js';
export { readTap } from './read-tap.js';
export { readVitestJson } from './read-vitest-json.js';
export { readJestJson } from './read-jest-json.js';
export { readTestSummary } from './read-test-summary.js';
export { mergeEvidence } from './merge-evidence.js';
export { EvidenceError } from './evidence-error.js';
export { fingerprintWorkingTree, isEvidenceFresh } from './tree-fingerprint.js';
export { checkFilesExist } from './check-files-exist.js';
export { checkGitClean } from './check-git-clean.js';
export { checkCommand } from './check-command.js';
export { evidenceFromChecks } from './evidence-from-checks.js';
export type { CheckResult } from './check-result.js';
