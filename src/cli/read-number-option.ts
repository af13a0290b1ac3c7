import { CliUsageError } from './cli-io.js';

/** The number given for `--name`, undefined when absent; a {@link CliUsageError} when it is not a number that `valid` accepts. */
export function readNumberOption(name: string, raw: string | undefined, valid: (value: number) => boolean, expected: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value) || !valid(value)) throw new CliUsageError(`--${name} must be ${expected}, got "${raw}"`);
  return value;
}
