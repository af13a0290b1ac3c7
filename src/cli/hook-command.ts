import { unreadableInputExitCode } from '../hosts/hook-host.js';
import { CliUsageError, type CliIo } from './cli-io.js';
import { hostArgument } from './host-argument.js';
import { parseCommandLine } from './parse-command-line.js';
import { readStdin } from './read-stdin.js';
import { runToolEvent } from './run-tool-event.js';

const HELP = `usage: stopwise hook <claude-code|codex|cursor|copilot|gemini>

Runs as the stop hook of a coding agent: reads the host's JSON on stdin, runs
the project's tests, asks the decision model when the evidence does not
decide, and answers in the host's format on stdout (block, hand off to a
person, or let the agent stop). On a tool event (PreToolUse, PostToolUse,
PostToolUseFailure; Cursor's beforeShellExecution, afterShellExecution,
beforeMCPExecution, afterMCPExecution, afterFileEdit; Copilot's preToolUse,
postToolUse, postToolUseFailure; Gemini's BeforeTool, AfterTool) it runs the
tool guard instead: it records each call and refuses one that keeps
repeating (see docs/tool-guards.md); with nothing to say it prints nothing.
Configuration: stopwise.config.json, found from the hook's working folder
upward (see \`stopwise init\`).

exit codes: 0 answered (including every hand-off and every allowed stop);
1 stdin unreadable, or a usage error such as a wrong host name (both
non-blocking: the stop goes ahead; copilot exits 0 on unreadable stdin, as
it reads a non-zero exit of a tool hook as a refusal). Never 2 on a stop,
which the hosts read as a block; 2 only on copilot's postToolUseFailure,
where stderr is guidance for the agent.`;

/** How long the process may linger after it answered before it exits anyway. */
const EXIT_GRACE_MS = 1_000;

/** The largest stdin the hook reads; a bigger input is refused as unreadable. */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/** `stopwise hook <host>`: the stop hook for Claude Code, Codex, Cursor, Copilot or Gemini (and the tool hook of the last two). */
export async function hookCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let host;
  try {
    const parsed = parseCommandLine(argv, { help: { type: 'boolean', short: 'h', default: false } }, HELP);
    if (parsed.values.help) {
      io.stdout(`${HELP}\n`);
      return 0;
    }
    host = hostArgument(parsed.positionals, HELP);
  } catch (error) {
    // Claude Code and Codex read exit 2 as "block, stderr is the reason": a typo in the hook settings must not
    // block every stop, so a usage error here is a non-blocking error.
    if (!(error instanceof CliUsageError)) throw error;
    io.stderr(`stopwise hook: ${error.message}\nThe stop goes ahead unchecked; fix the hook command in the host's settings.\n`);
    return 1;
  }

  const stdin = await readStdin(MAX_STDIN_BYTES);
  if (stdin === undefined) {
    io.stderr(`stopwise hook ${host}: stdin is larger than ${MAX_STDIN_BYTES} bytes; the stop goes ahead unchecked.\n`);
    return unreadableInputExitCode(host);
  }
  const options = { cwd: io.cwd, startedAt: performance.timeOrigin };
  // A tool event runs on every tool call: the build makes this command and the tool guard one file, and only a stop loads the stop hook.
  const run = (await runToolEvent(host, stdin, io.cwd)) ?? (await (await import('../hosts/run-stop-hook.js')).runStopHook(host, stdin, options));
  if (run.stdout !== '') io.stdout(run.stdout);
  if (run.stderr !== '') io.stderr(run.stderr);
  // Once answered, the process ends even if work cut short by the deadline is still pending (a request, a child process).
  setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  return run.exitCode;
}
