/** Everything a decision model can do wrong. */
export type DecisionModelErrorKind =
  | 'configuration'
  | 'auth'
  | 'rate_limited'
  | 'server'
  | 'timeout'
  | 'network'
  | 'aborted'
  | 'invalid_request'
  | 'invalid_response';

const MARKER = Symbol.for('stopwise.DecisionModelError');
const RETRYABLE: ReadonlySet<DecisionModelErrorKind> = new Set(['rate_limited', 'server', 'timeout', 'network']);

/** Options of an {@link DecisionModelError}. */
export interface DecisionModelErrorOptions {
  readonly status?: number;
  readonly requestId?: string;
  /** How long the server asked to wait before the next attempt (from `retry-after`). */
  readonly retryAfterMs?: number;
  /** How many attempts were made before giving up. */
  readonly attempts?: number;
  readonly cause?: unknown;
}

/** The JSON form of an {@link DecisionModelError}: no stack, no cause. */
export interface DecisionModelErrorJson {
  readonly name: 'DecisionModelError';
  readonly kind: DecisionModelErrorKind;
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
 *   if (DecisionModelError.isInstance(error) && error.kind === 'rate_limited') scheduleLater(error.retryAfterMs);
 *   else throw error;
 * }
 */
export class DecisionModelError extends Error {
  override readonly name = 'DecisionModelError';
  readonly kind: DecisionModelErrorKind;
  readonly status?: number;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly attempts?: number;
  readonly [MARKER] = true;

  constructor(kind: DecisionModelErrorKind, message: string, options: DecisionModelErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.requestId !== undefined) this.requestId = options.requestId;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.attempts !== undefined) this.attempts = options.attempts;
  }

  /** True for a `DecisionModelError`, also one from another copy of this package. */
  static isInstance(value: unknown): value is DecisionModelError {
    return isDecisionModelError(value);
  }

  /** True for the kinds worth another attempt: `rate_limited`, `server`, `timeout`, `network`. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }

  toJSON(): DecisionModelErrorJson {
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

/** True for a `DecisionModelError`, also one from another copy of this package. */
export function isDecisionModelError(value: unknown): value is DecisionModelError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}

/** True for the error kinds worth another attempt, also for an error from another copy of this package. */
export function isRetryableDecisionModelError(value: unknown): boolean {
  return isDecisionModelError(value) && RETRYABLE.has(value.kind);
}
