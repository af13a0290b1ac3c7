const MARKER = Symbol.for('stopwise.StopPolicyError');

/**
 * A policy document that cannot be used: `path` is where in the JSON the
 * problem is (`rules[3].when.all[1].atLeast`), and the message starts with it.
 */
export class StopPolicyError extends TypeError {
  readonly path: string;
  readonly [MARKER] = true;

  constructor(path: string, problem: string) {
    super(path === '' ? problem : `${path}: ${problem}`);
    this.name = 'StopPolicyError';
    this.path = path;
  }
}

/** True for a {@link StopPolicyError}, also one thrown by another copy of this package. */
export function isStopPolicyError(error: unknown): error is StopPolicyError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
}
