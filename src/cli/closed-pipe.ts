/** The part of a process output stream that closed-pipe handling needs. */
export interface OutputStream {
  on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
  write(text: string): unknown;
}

/** Writers for standard output and standard error that a closed pipe cannot crash. */
interface GuardedOutput {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/**
 * Guards both output streams against a reader that goes away
 * (`stopwise calibrate --json | head -1`): when standard output is closed the
 * command has no one left to tell, so it ends at once with exit code 0, as
 * other command-line tools do; when standard error is closed, later messages
 * are dropped and the command goes on. Any other write error is rethrown.
 */
export function guardClosedPipes(
  stdout: OutputStream,
  stderr: OutputStream,
  exit: (code: number) => void,
): GuardedOutput {
  let stdoutOpen = true;
  let stderrOpen = true;
  stdout.on('error', (error) => {
    if (!isClosedPipe(error)) throw error;
    stdoutOpen = false;
    exit(0);
  });
  stderr.on('error', (error) => {
    if (!isClosedPipe(error)) throw error;
    stderrOpen = false;
  });
  return {
    stdout: (text) => {
      if (stdoutOpen) stdout.write(text);
    },
    stderr: (text) => {
      if (stderrOpen) stderr.write(text);
    },
  };
}

/**
 * A reader that went away: `EPIPE` on a pipe, `ECONNRESET` on the socket pair a
 * parent process (Node's own `spawn` among them) gives its child as standard
 * output or error, `ERR_STREAM_DESTROYED` after either.
 */
function isClosedPipe(error: NodeJS.ErrnoException): boolean {
  return error.code === 'EPIPE' || error.code === 'ECONNRESET' || error.code === 'ERR_STREAM_DESTROYED';
}
