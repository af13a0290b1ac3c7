/**
 * What a tool hook prints and how it exits: a JSON answer on stdout (none:
 * print nothing), a line on stderr, and the exit code. Some hosts read a
 * tool answer from the exit code and stderr instead of stdout (Copilot's
 * `postToolUseFailure`: exit 2, stderr is guidance for the agent).
 */
export interface ToolHookOutput {
  readonly exitCode: 0 | 2;
  readonly stdout?: Readonly<Record<string, unknown>>;
  readonly stderr?: string;
}
