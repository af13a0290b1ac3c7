import { describe, expect, it } from 'vitest';
import { uniqueToken } from '../../src/hosts/unique-token.js';

describe('uniqueToken', () => {
  it('gives a different token on every call, safe in a file name, starting with the process id', () => {
    const tokens = Array.from({ length: 10_000 }, () => uniqueToken());
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens.slice(0, 100)) expect(token).toMatch(new RegExp(`^${process.pid}\\.[0-9a-z]+\\.[0-9a-z]+\\.[0-9a-z]+$`));
  });
});
