import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../src/cli/cli-io.js';
import { parseCommandLine } from '../../src/cli/parse-command-line.js';

describe('parseCommandLine', () => {
  const options = { json: { type: 'boolean', default: false }, seed: { type: 'string' } } as const;

  it('parses options and positionals', () => {
    const parsed = parseCommandLine(['cases.jsonl', '--seed', '4', '--json'], options, 'HELP');
    expect(parsed.values).toEqual({ json: true, seed: '4' });
    expect(parsed.positionals).toEqual(['cases.jsonl']);
  });

  it('turns an unknown option into a usage error that carries the help', () => {
    expect(() => parseCommandLine(['--bogus'], options, 'HELP TEXT')).toThrow(CliUsageError);
    expect(() => parseCommandLine(['--bogus'], options, 'HELP TEXT')).toThrow(/HELP TEXT/);
  });
});
