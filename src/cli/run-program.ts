import { CliUsageError, type CliIo } from './cli-io.js';
import { guardClosedPipes } from './closed-pipe.js';

/**
 * Runs a command as this process's program: gives it the process's standard
 * streams (guarded: a reader that goes away, as in `stopwise calibrate --json
 * | head -1`, ends the command quietly), its folder and environment, and sets
 * the exit code it returns. A usage error exits 2 with its message, any other
 * error 1 with one line naming it, both prefixed with `label`.
 */
export async function runProgram(label: string, command: (io: CliIo) => Promise<number>): Promise<void> {
  const output = guardClosedPipes(process.stdout, process.stderr, (code) => process.exit(code));
  const io: CliIo = {
    ...output,
    cwd: process.cwd(),
    env: process.env,
    progress: {
      write: output.stderr,
      get isTTY() {
        return process.stderr.isTTY;
      },
      get columns() {
        return process.stderr.columns;
      },
    },
  };
  try {
    process.exitCode = await command(io);
  } catch (error) {
    if (error instanceof CliUsageError) {
      io.stderr(`${label}: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    io.stderr(`${label}: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
