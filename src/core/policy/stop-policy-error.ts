import type { SchemaProblem } from '../schema-issues.js';

const MARKER = Symbol.for('stopwise.StopPolicyError');

/**
 * A policy document that cannot be used, with every problem found: each has
 * the JSON path (`rules[3].when.all[1].atLeast.count`) and what is wrong, and
 * the message lists them one a line. `path` is the first problem's.
 */
export class StopPolicyError extends TypeError {
  readonly path: string;
  readonly problems: readonly SchemaProblem[];
  readonly [MARKER] = true;

  constructor(problems: readonly SchemaProblem[]) {
    super(problems.map((problem) => (problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`)).join('\n'));
    this.name = 'StopPolicyError';
    this.problems = problems;
    this.path = problems[0]?.path ?? '';
  }

  /** True for a `StopPolicyError`, also one thrown by another copy of this package. */
  static isInstance(error: unknown): error is StopPolicyError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}
