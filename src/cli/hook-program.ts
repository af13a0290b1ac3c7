import { hookCommand } from './hook-command.js';
import { runProgram } from './run-program.js';

export { hookCommand };

/**
 * Runs `stopwise hook <argv>` as the process's program. The build makes this
 * module, with everything a tool event needs, one file of its own: a coding
 * agent's host runs it on every tool call, and each module Node loads costs
 * start-up time there.
 */
export async function runHookProgram(argv: readonly string[]): Promise<void> {
  await runProgram('stopwise hook', (io) => hookCommand(argv, io));
  // The host waits for the process to end. Once the answer is out, it ends at once with the exit code set: not when
  // the last handle closes, and without tearing the heap down page by page (a few milliseconds per event). Nothing of
  // the hook's is left to finish then: the stop hook awaits its state, outcome and pruning before it answers. A module
  // loaded through NODE_OPTIONS that waits for the end of the event loop ('beforeExit', as a telemetry setup flushing
  // its spans does) gets the natural end instead.
  if (process.listenerCount('beforeExit') > 0) return;
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
