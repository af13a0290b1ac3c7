/** Everything a decision model can do wrong. */
export type EvaluationErrorKind =
  | 'configuration'
  | 'auth'
  | 'rate_limited'
  | 'server'
  | 'timeout'
  | 'network'
  | 'aborted'
  | 'invalid_request'
  | 'invalid_response';

const MARKER = Symbol.for('stopwise.EvaluationError');
const RETRYABLE: ReadonlySet<EvaluationErrorKind> = new Set(['rate_limited', 'server', 'timeout', 'network']);

/** Options of an {@link EvaluationError}. */
export interface EvaluationErrorOptions {
  readonly status?: number;
  readonly requestId?: string;
  /** How long the server asked to wait before the next attempt (from `retry-after`). */
  readonly retryAfterMs?: number;
  /** How many attempts were made before giving up. */
  readonly attempts?: number;
  readonly cause?: unknown;
}

/** The JSON form of an {@link EvaluationError}: no stack, no cause. */
export interface EvaluationErrorJson {
  readonly name: 'EvaluationError';
  readonly kind: EvaluationErrorKind;
  readonly message: string;
  readonly retryable: boolean;
  readonly status?: number;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly attempts?: number;
}

/**
 * The one error a decision-model client rejects with, tagged by `kind`.
 * `status` and `requestId` are set when the server gave them. Messages never
 * hold an API key.
 *
 * @example
 * try {
 *   await client.evaluate(request);
 * } catch (error) {
 *   if (isEvaluationError(error) && error.kind === 'rate_limited') scheduleLater(error.retryAfterMs);
 *   else throw error;
 * }
 */
export class EvaluationError extends Error {
  override readonly name = 'EvaluationError';
  readonly kind: EvaluationErrorKind;
  readonly status?: number;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly attempts?: number;
  readonly [MARKER] = true;

  constructor(kind: EvaluationErrorKind, message: string, options: EvaluationErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.requestId !== undefined) this.requestId = options.requestId;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.attempts !== undefined) this.attempts = options.attempts;
  }

  /** True for the kinds worth another attempt: `rate_limited`, `server`, `timeout`, `network`. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }

  toJSON(): EvaluationErrorJson {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      retryable: this.retryable,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.requestId === undefined ? {} : { requestId: this.requestId }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.attempts === undefined ? {} : { attempts: this.attempts }),
    };
  }
}

/** True for an `EvaluationError`, also one from another copy of this package. */
export function isEvaluationError(value: unknown): value is EvaluationError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}

/** True for the error kinds worth another attempt, also for an error from another copy of this package. */
export function isRetryableEvaluationError(value: unknown): boolean {
  return isEvaluationError(value) && RETRYABLE.has(value.kind);
}
