import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../src/decision-model/http/redact-secrets.js';

describe('redactSecrets', () => {
  it('replaces every occurrence of every secret', () => {
    expect(redactSecrets('a sk-1 b sk-1 c tok', ['sk-1', 'tok'])).toBe('a [redacted] b [redacted] c [redacted]');
  });

  it('leaves text alone without secrets, and ignores empty ones', () => {
    expect(redactSecrets('plain', [])).toBe('plain');
    expect(redactSecrets('plain', [''])).toBe('plain');
  });

  it('treats the secret literally, not as a pattern', () => {
    expect(redactSecrets('key a.b+c here, aXbbc not', ['a.b+c'])).toBe('key [redacted] here, aXbbc not');
  });
});
