import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as built from '../../dist/index.js';
import {
  EvaluationError,
  isEvaluationError,
  isRetryableEvaluationError,
  type EvaluationErrorKind,
} from '../../src/judge/evaluation-error.js';

const RETRIED: readonly EvaluationErrorKind[] = ['rate_limited', 'server', 'timeout', 'network'];
const NEVER: readonly EvaluationErrorKind[] = ['configuration', 'auth', 'aborted', 'invalid_request', 'invalid_response'];

describe('EvaluationError', () => {
  it('retries exactly rate_limited, server, timeout and network', () => {
    for (const kind of RETRIED) expect(new EvaluationError(kind, 'x').retryable, kind).toBe(true);
    for (const kind of NEVER) expect(new EvaluationError(kind, 'x').retryable, kind).toBe(false);
    expect(isRetryableEvaluationError(new EvaluationError('server', 'x'))).toBe(true);
    expect(isRetryableEvaluationError(new Error('server'))).toBe(false);
  });

  it('carries status, request id, retry-after and attempts, and serialises without cause or stack', () => {
    const error = new EvaluationError('rate_limited', 'slow down', {
      status: 429,
      requestId: 'req-1',
      retryAfterMs: 2000,
      attempts: 3,
      cause: new Error('inner'),
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('EvaluationError');
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'EvaluationError',
      kind: 'rate_limited',
      message: 'slow down',
      retryable: true,
      status: 429,
      requestId: 'req-1',
      retryAfterMs: 2000,
      attempts: 3,
    });
    expect(inspect(error)).toContain('inner');
  });

  it('leaves absent fields out of the JSON', () => {
    expect(new EvaluationError('auth', 'no').toJSON()).toEqual({
      name: 'EvaluationError',
      kind: 'auth',
      message: 'no',
      retryable: false,
    });
  });

  it('is recognised across copies of the package (the built one and the source)', () => {
    const fromBuild = new built.EvaluationError('server', 'x');
    expect(fromBuild).not.toBeInstanceOf(EvaluationError);
    expect(isEvaluationError(fromBuild)).toBe(true);
    expect(built.isEvaluationError(new EvaluationError('auth', 'x'))).toBe(true);
  });

  it('rejects look-alikes', () => {
    for (const value of [null, undefined, 'EvaluationError', new Error('x'), { name: 'EvaluationError', kind: 'auth' }]) {
      expect(isEvaluationError(value)).toBe(false);
    }
  });
});
