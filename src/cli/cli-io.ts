import type { ProgressStream } from './progress-reporter.js';

/** Where a CLI command writes, and the folder it resolves paths against. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /** The environment settings and keys are read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where progress is drawn (standard error): a terminal gets a bar, anything else plain lines. */
  readonly progress?: ProgressStream;
}

/** A mistake in the command line itself (exit code 2). */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}
