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
    throw new CliUsageError(`${describeParseError(error as Error & { code?: string })}\n\n${help}`);
  }
}

// node:util's own messages quote unevenly (`as in '-- "--bogus"`); these say the same in the CLI's words.
function describeParseError(error: Error & { code?: string }): string {
  const option = /'(-[^' ]*)/.exec(error.message)?.[1];
  if (option === undefined) return error.message;
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return `unknown option ${option} (a file whose name starts with "-" goes after --, as in: -- ${option})`;
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return /argument missing/.test(error.message) ? `${option} needs a value` : `${option} takes no value`;
  }
  return error.message;
}
