import { hookCommand } from './hook-command.js';
import { runProgram } from './run-program.js';

/** How long the process may linger after it answered, for what waits for the end of its event loop. */
const EXIT_GRACE_MS = 1_000;

/**
 * Runs `stopwise hook <argv>` as the process's program. The build makes this
 * module, with everything a tool event needs, one file of its own: a coding
 * agent's host runs it on every tool call, and each module Node loads costs
 * start-up time there.
 */
export async function runHookProgram(argv: readonly string[]): Promise<void> {
  await runProgram('stopwise hook', (io) => hookCommand(argv, io));
  // The host waits for the process to end, so it ends once the answer is out, with the exit code set: even if work the
  // deadline cut short is still pending (a request, a child process), and without waiting for its last handle or
  // tearing its heap down page by page (a few milliseconds of every event). A module loaded through NODE_OPTIONS that
  // waits for the end of the event loop ('beforeExit', as a telemetry setup flushing its spans does) gets that end,
  // within a grace period.
  if (process.listenerCount('beforeExit') > 0) {
    setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
    return;
  }
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit();
}

/** Resolves once what was written to `stream` has been handed to the system (a pipe may be asynchronous, as on macOS). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableLength === 0) resolve();
    else stream.write('', () => resolve());
  });
}
