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

  const messageOf = (argv: readonly string[]): string => {
    try {
      parseCommandLine(argv, options, 'HELP');
    } catch (error) {
      return (error as Error).message.split('\n')[0] as string;
    }
    throw new Error(`${argv.join(' ')} parsed`);
  };

  it('names the mistake in messages whose quotes balance', () => {
    expect(messageOf(['--bogus'])).toBe('unknown option --bogus (a file whose name starts with "-" goes after --, as in: -- --bogus)');
    expect(messageOf(['-x'])).toBe('unknown option -x (a file whose name starts with "-" goes after --, as in: -- -x)');
    expect(messageOf(['--seed'])).toBe('--seed needs a value');
    expect(messageOf(['--json=3'])).toBe('--json takes no value');
    for (const argv of [['--bogus'], ['-x'], ['--seed'], ['--json=3']]) {
      const message = messageOf(argv);
      expect((message.match(/'/g) ?? []).length % 2, message).toBe(0);
      expect((message.match(/"/g) ?? []).length % 2, message).toBe(0);
    }
  });
});
