import { runStopHook } from '../hosts/run-stop-hook.js';
import type { CliIo } from './cli-io.js';
import { readStdin } from './read-stdin.js';
import { hostArgument } from './host-argument.js';

const HELP = `usage: stopwise hook <claude-code|codex|cursor>

Runs as the stop hook of a coding agent: reads the host's JSON on stdin, runs
the project's tests, asks the decision model when the evidence does not
decide, and answers in the host's format on stdout (block, hand off to a
person, or let the agent stop). Configuration: stopwise.config.json, found
from the hook's working folder upward (see \`stopwise init\`).

exit codes: 0 answered (including every hand-off and every allowed stop);
1 stdin unreadable (a non-blocking error: the stop goes ahead); 2 usage error`;

/** The largest stdin the hook reads; a bigger input is refused as unreadable. */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/** `stopwise hook <host>`: the stop hook for Claude Code, Codex or Cursor. */
export async function hookCommand(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${HELP}\n`);
    return 0;
  }
  const host = hostArgument(argv, HELP);

  const stdin = await readStdin(MAX_STDIN_BYTES);
  if (stdin === undefined) {
    io.stderr(`stopwise hook ${host}: stdin is larger than ${MAX_STDIN_BYTES} bytes; the stop goes ahead unchecked.\n`);
    return 1;
  }
  const run = await runStopHook(host, stdin, { cwd: io.cwd });
  if (run.stdout !== '') io.stdout(run.stdout);
  if (run.stderr !== '') io.stderr(run.stderr);
  return run.exitCode;
}
