import type { TestEvidence } from '../core/test-evidence.js';
import type { TestCommandConfig } from './stopwise-config.js';

/** What running (or reusing) the project's tests gave the hook. */
export type HookTestResult =
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
export interface HookTestRunner {
  run(
    tests: TestCommandConfig,
    options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly previous?: TestEvidence },
  ): Promise<HookTestResult>;
}

/**
 * The evidence a run gives the decision table: a run that failed outside any
 * test (a crash, a missing command) with no failing test named gets one
 * failure, `test command`, carrying why.
 */
export function hookTestEvidence(run: Extract<HookTestResult, { outcome: 'ran' | 'reused' }>): TestEvidence {
  return run.reason !== undefined && run.evidence.failed.length === 0 && (run.evidence.failures ?? []).length === 0
    ? { ...run.evidence, failures: [{ name: 'test command', message: run.reason }] }
    : run.evidence;
}
