import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as built from '../../dist/index.js';
import {
  DecisionModelError,
  isDecisionModelError,
  isRetryableDecisionModelError,
  type DecisionModelErrorKind,
} from '../../src/decision-model/decision-model-error.js';

const RETRIED: readonly DecisionModelErrorKind[] = ['rate_limited', 'server', 'timeout', 'network'];
const NEVER: readonly DecisionModelErrorKind[] = ['configuration', 'auth', 'aborted', 'invalid_request', 'invalid_response'];

describe('DecisionModelError', () => {
  it('retries exactly rate_limited, server, timeout and network', () => {
    for (const kind of RETRIED) expect(new DecisionModelError(kind, 'x').retryable, kind).toBe(true);
    for (const kind of NEVER) expect(new DecisionModelError(kind, 'x').retryable, kind).toBe(false);
    expect(isRetryableDecisionModelError(new DecisionModelError('server', 'x'))).toBe(true);
    expect(isRetryableDecisionModelError(new Error('server'))).toBe(false);
  });

  it('carries status, request id, retry-after and attempts, and serialises without cause or stack', () => {
    const error = new DecisionModelError('rate_limited', 'slow down', {
      status: 429,
      requestId: 'req-1',
      retryAfterMs: 2000,
      attempts: 3,
      cause: new Error('inner'),
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('DecisionModelError');
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'DecisionModelError',
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
    expect(new DecisionModelError('auth', 'no').toJSON()).toEqual({
      name: 'DecisionModelError',
      kind: 'auth',
      message: 'no',
      retryable: false,
    });
  });

  it('is recognised across copies of the package (the built one and the source)', () => {
    const fromBuild = new built.DecisionModelError('server', 'x');
    expect(fromBuild).not.toBeInstanceOf(DecisionModelError);
    expect(DecisionModelError.isInstance(fromBuild)).toBe(true);
    expect(isDecisionModelError(fromBuild)).toBe(true);
    expect(built.DecisionModelError.isInstance(new DecisionModelError('auth', 'x'))).toBe(true);
  });

  it('rejects look-alikes', () => {
    for (const value of [null, undefined, 'DecisionModelError', new Error('x'), { name: 'DecisionModelError', kind: 'auth' }]) {
      expect(isDecisionModelError(value)).toBe(false);
      expect(DecisionModelError.isInstance(value)).toBe(false);
    }
  });
});
