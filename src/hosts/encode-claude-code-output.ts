import type { StopHookDecision } from './decide-stop-hook.js';
import { encodeBlockOrMessage } from './encode-block-reason.js';

/** A Claude Code `Stop`/`SubagentStop` hook answer (JSON on stdout, exit 0). */
export interface ClaudeCodeStopOutput {
  readonly decision?: 'block';
  readonly reason?: string;
  readonly systemMessage?: string;
}

/** Options of {@link encodeClaudeCodeOutput}. */
export interface ClaudeCodeOutputOptions {
  /**
   * Extra feedback for the agent on a block, appended to the reason (never
   * sent with an allow or a hand-off: on a stop event it would keep the
   * conversation going).
   */
  readonly additionalContext?: string;
}

/**
 * Encodes a stop hook decision for Claude Code: a block as `decision` and a
 * non-empty `reason`, a hand-off as `systemMessage`, an allow as no output at
 * all (`undefined`). It never writes `hookSpecificOutput`: Claude Code's
 * output schema has no `Stop` variant of it in many versions, and rejects the
 * whole answer when it is there.
 *
 * @see https://code.claude.com/docs/en/hooks
 * @example
 * JSON.stringify(encodeClaudeCodeOutput({ decision: 'block', reason: 'No tests ran, run the suite' }));
 * // '{"decision":"block","reason":"No tests ran, run the suite"}'
 */
export function encodeClaudeCodeOutput(
  decision: StopHookDecision,
  options: ClaudeCodeOutputOptions = {},
): ClaudeCodeStopOutput | undefined {
  return encodeBlockOrMessage(decision, options.additionalContext);
}
