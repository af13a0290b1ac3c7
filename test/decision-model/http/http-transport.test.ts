import { describe, expect, it } from 'vitest';
import { isDecisionModelError } from '../../../src/decision-model/decision-model-error.js';
import { assertApiKey, assertModelName, createHttpTransport, parseBaseURL } from '../../../src/decision-model/http/http-transport.js';
import { thrown } from '../caught-errors.js';

const kind = (run: () => unknown) => {
  const error = thrown(run);
  return isDecisionModelError(error) ? error.kind : String(error);
};

describe('createHttpTransport', () => {
  it('fills the defaults and lowers header names', () => {
    const transport = createHttpTransport('svc', { headers: { 'X-Team': 'a' } }, ['k']);
    expect(transport).toMatchObject({ service: 'svc', timeoutMs: 30_000, maxRetries: 2, headers: { 'x-team': 'a' }, secrets: ['k'] });
    expect(transport.fetch).toBe(globalThis.fetch);
    expect(transport.timing).toMatchObject({ initialDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000 });
  });

  it.each([
    [{ fetch: 'no' }],
    [{ timeoutMs: -1 }],
    [{ timeoutMs: Number.POSITIVE_INFINITY }],
    [{ maxRetries: 2.5 }],
    [{ headers: { a: 'b\nc' } }],
    [{ headers: { a: 3 } }],
    [{ retryTiming: { maxDelayMs: Number.NaN } }],
  ])('refuses %j with a configuration error', (options) => {
    expect(kind(() => createHttpTransport('svc', options as never, []))).toBe('configuration');
  });
});

describe('parseBaseURL', () => {
  it('drops trailing slashes', () => {
    expect(parseBaseURL('https://api.example.com/v1/')).toBe('https://api.example.com/v1');
    expect(parseBaseURL('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
  });

  it.each(['', 'api.example.com', 'file:///etc/passwd', 'https://u:p@x.example', 'https://x.example/v1?k=1', 'https://x.example/#a', 42])(
    'refuses %j',
    (value) => {
      expect(kind(() => parseBaseURL(value))).toBe('configuration');
    },
  );
});

describe('assertApiKey and assertModelName', () => {
  it('accept ordinary values', () => {
    expect(() => assertApiKey('sk-abc_123.XYZ')).not.toThrow();
    expect(() => assertModelName('judge-small')).not.toThrow();
  });

  it('refuse a key that cannot travel in a header, without quoting it', () => {
    for (const key of ['', '   ', 'sk-1\n', 'sk-\u0000', 'sk-\u2603', 7]) {
      const error = thrown(() => assertApiKey(key));
      expect(isDecisionModelError(error) && error.kind).toBe('configuration');
      if (typeof key === 'string' && key.trim() !== '') expect((error as Error).message).not.toContain(key);
    }
    expect(kind(() => assertModelName(''))).toBe('configuration');
  });
});
