/** Where a CLI command writes, and the folder it resolves paths against. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
}

/** A mistake in the command line itself (exit code 2). */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}
