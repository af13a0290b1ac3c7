import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliUsageError } from './cli-io.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses a subcommand's arguments strictly, with positionals allowed; a
 * mistake becomes a {@link CliUsageError} (exit 2) followed by the help text.
 */
export function parseCommandLine<O extends Options>(argv: readonly string[], options: O, help: string) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliUsageError(`${(error as Error).message}\n\n${help}`);
  }
}
