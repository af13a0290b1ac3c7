import { fstatSync } from 'node:fs';
import { HOSTS } from '../hosts/host.js';
import { runHook } from '../hosts/run-hook.js';
import { CliUsageError, type CliIo } from './cli-io.js';
import { hostArgument } from './host-argument.js';
import { parseCommandLine } from './parse-command-line.js';
import { readStdin } from './read-stdin.js';

const HELP = `usage: stopwise hook <claude-code|codex|cursor|copilot|gemini>

Runs as the stop hook of a coding agent: reads the host's JSON on stdin, runs
the project's tests, asks the decision model when the evidence does not
decide, and answers in the host's format on stdout (block, hand off to a
person, or let the agent stop). On a tool event (PreToolUse, PostToolUse,
PostToolUseFailure; Cursor's beforeShellExecution, afterShellExecution,
beforeMCPExecution, afterMCPExecution, afterFileEdit; Copilot's preToolUse,
postToolUse, postToolUseFailure; Gemini's BeforeTool, AfterTool) it runs the
tool guard instead: it records each call, tells the agent with the result of
the call that starts a repeating pattern, and refuses the next repeat before
it runs; with nothing to say it prints nothing.
Configuration: stopwise.config.json, found from the hook's working folder
upward (see \`stopwise init\`).

exit codes: 0 answered (including every hand-off and every allowed stop);
1 stdin unreadable, or a usage error such as a wrong host name (both
non-blocking: the stop goes ahead; copilot exits 0 on unreadable stdin, as
it reads a non-zero exit of a tool hook as a refusal). Never 2 on a stop,
which the hosts read as a block; 2 only on copilot's postToolUseFailure,
where stderr is guidance for the agent.`;

/** The largest stdin the hook reads; a bigger input is refused as unreadable. */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/** `stopwise hook <host>`: the stop hook and the tool guard for Claude Code, Codex, Cursor, Copilot or Gemini. */
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

  // Run by hand on a terminal, it would wait for input nobody sends: say what it reads.
  if (await stdinIsTerminal()) io.stderr(`stopwise hook ${host}: reading the hook JSON that ${HOSTS[host].label} sends on stdin (end it with Ctrl-D); see \`stopwise hook --help\`\n`);
  const stdin = await readStdin(MAX_STDIN_BYTES);
  if (stdin === undefined) {
    io.stderr(`stopwise hook ${host}: stdin is larger than ${MAX_STDIN_BYTES} bytes; nothing was checked and nothing is blocked.\n`);
    return HOSTS[host].unreadableExitCode;
  }
  const run = await runHook(host, stdin, { cwd: io.cwd, startedAt: performance.timeOrigin });
  if (run.stdout !== '') io.stdout(run.stdout);
  if (run.stderr !== '') io.stderr(run.stderr);
  return run.exitCode;
}

/**
 * Whether stdin is a terminal. A host's pipe is not a character device, so the tty module (and the net module it
 * loads, a millisecond or two on every tool call) is loaded only for one, such as a person's terminal or /dev/null.
 */
async function stdinIsTerminal(): Promise<boolean> {
  try {
    if (!fstatSync(0).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return (await import('node:tty')).isatty(0);
}
