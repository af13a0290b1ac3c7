import { hookCommand } from './hook-command.js';
import { runProgram } from './run-program.js';

export { hookCommand };

/**
 * Runs `stopwise hook <argv>` as the process's program. The build makes this
 * module, with everything a tool event needs, one file of its own: a coding
 * agent's host runs it on every tool call, and each module Node loads costs
 * start-up time there.
 */
export function runHookProgram(argv: readonly string[]): Promise<void> {
  return runProgram('stopwise hook', (io) => hookCommand(argv, io));
}
