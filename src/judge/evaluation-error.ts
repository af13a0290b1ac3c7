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
  readonly cause?: unknown;
}

/**
 * The one error a decision-model client rejects with, tagged by `kind`.
 * `status` and `requestId` are set when the server gave them. Messages never
 * hold an API key.
 */
export class EvaluationError extends Error {
  override readonly name = 'EvaluationError';
  readonly kind: EvaluationErrorKind;
  readonly status?: number;
  readonly requestId?: string;
  readonly [MARKER] = true;

  constructor(kind: EvaluationErrorKind, message: string, options: EvaluationErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.requestId !== undefined) this.requestId = options.requestId;
  }

  /** True for the kinds worth another attempt: `rate_limited`, `server`, `timeout`, `network`. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }

  toJSON(): { name: string; kind: EvaluationErrorKind; message: string; status?: number; requestId?: string } {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.requestId === undefined ? {} : { requestId: this.requestId }),
    };
  }
}

/** True for an `EvaluationError`, also one from another copy of this package. */
export function isEvaluationError(value: unknown): value is EvaluationError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}
