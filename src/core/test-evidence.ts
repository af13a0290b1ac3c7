import { describeValue } from './describe-value.js';

/**
 * The result of a test run (or any deterministic check folded into one).
 *
 * `ran === 0` means no tests ran, whatever `passed` says. A result counts as
 * failed when `passed` is false or when `failed` names at least one test.
 */
export interface TestEvidence {
  readonly passed: boolean;
  readonly failed: readonly string[];
  readonly ran: number;
  readonly skipped?: number;
  readonly total?: number;
  readonly durationMs?: number;
  readonly failures?: readonly TestFailure[];
  readonly command?: string;
  readonly finishedAt?: string;
  readonly treeFingerprint?: string;
}

/** One failed test with its (trimmed) message. */
export interface TestFailure {
  readonly name: string;
  readonly message: string;
}

/** True when the evidence says no test ran (`ran === 0`). */
export function noTestsRan(tests: TestEvidence): boolean {
  return tests.ran === 0;
}

/**
 * True when at least one test ran and the run did not pass: `passed` is false
 * or a failed name is listed (an inconsistent "passed with failures" result
 * counts as failed).
 */
export function testsFailed(tests: TestEvidence): boolean {
  return tests.ran > 0 && (!tests.passed || tests.failed.length > 0);
}

/** Throws a `TypeError` when `tests` is not shaped like `TestEvidence`. */
export function assertTestEvidence(tests: TestEvidence): void {
  if (typeof tests !== 'object' || tests === null) {
    throw new TypeError('tests must be an object { passed, failed, ran }');
  }
  if (typeof tests.passed !== 'boolean') {
    throw new TypeError(`tests.passed must be a boolean, got ${describeValue(tests.passed)}`);
  }
  if (!Number.isInteger(tests.ran) || tests.ran < 0) {
    throw new TypeError(`tests.ran must be a non-negative integer, got ${describeValue(tests.ran)}`);
  }
  if (!Array.isArray(tests.failed)) {
    throw new TypeError(`tests.failed must be an array of test names, got ${describeValue(tests.failed)}`);
  }
  for (const [index, name] of tests.failed.entries()) {
    if (typeof name !== 'string') {
      throw new TypeError(`tests.failed[${index}] must be a string, got ${describeValue(name)}`);
    }
  }
}
