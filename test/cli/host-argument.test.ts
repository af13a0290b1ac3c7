import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../src/cli/cli-io.js';
import { hostArgument, optionalHostArgument } from '../../src/cli/host-argument.js';

describe('hostArgument', () => {
  it('returns the one host named', () => {
    expect(hostArgument(['cursor'], 'help')).toBe('cursor');
  });

  it('throws a usage error for no host, an unknown host, or an extra argument', () => {
    expect(() => hostArgument([], 'help')).toThrow(CliUsageError);
    expect(() => hostArgument(['vscode'], 'help')).toThrow('unknown host "vscode"; expected one of claude-code, codex, cursor');
    expect(() => hostArgument(['codex', 'now'], 'help')).toThrow('unexpected argument "now"');
  });
});

describe('optionalHostArgument', () => {
  it('returns no host for no argument, and the host named otherwise', () => {
    expect(optionalHostArgument([], 'help')).toBeUndefined();
    expect(optionalHostArgument(['codex'], 'help')).toBe('codex');
  });

  it('throws a usage error for an unknown host or an extra argument', () => {
    expect(() => optionalHostArgument(['vscode'], 'help')).toThrow(CliUsageError);
    expect(() => optionalHostArgument(['codex', 'cursor'], 'help')).toThrow('unexpected argument "cursor"');
  });
});
