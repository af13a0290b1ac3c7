import type { StopHookDecision } from './decide-stop-hook.js';

/** A Claude Code `Stop`/`SubagentStop` hook answer (JSON on stdout, exit 0). */
export interface ClaudeCodeStopOutput {
  readonly decision?: 'block';
  readonly reason?: string;
  readonly systemMessage?: string;
  readonly hookSpecificOutput?: {
    readonly hookEventName: 'Stop' | 'SubagentStop';
    readonly additionalContext: string;
  };
}

/** Options of {@link encodeClaudeCodeOutput}. */
export interface ClaudeCodeOutputOptions {
  /** The event being answered (default `Stop`). */
  readonly eventName?: string;
  /**
   * Extra feedback for the agent on a block (Claude Code only). It is never
   * sent with an allow: on a stop event it would keep the conversation going.
   */
  readonly additionalContext?: string;
}

/**
 * Encodes a stop hook decision for Claude Code: a block as `decision` and
 * `reason`, a hand-off as `systemMessage`, an allow as no output at all
 * (`undefined`).
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
  if (decision === undefined) return undefined;
  if (!('decision' in decision)) return { systemMessage: decision.systemMessage };
  const context = options.additionalContext?.trim();
  return {
    decision: 'block',
    reason: nonEmptyReason(decision.reason),
    ...(decision.systemMessage === undefined ? {} : { systemMessage: decision.systemMessage }),
    ...(context === undefined || context === ''
      ? {}
      : {
          hookSpecificOutput: {
            hookEventName: options.eventName === 'SubagentStop' ? 'SubagentStop' : 'Stop',
            additionalContext: context,
          },
        }),
  };
}

/** A block reason is never empty: hosts drop or reject an empty one. */
export function nonEmptyReason(reason: string): string {
  const trimmed = reason.trim();
  return trimmed === '' ? 'stopwise: the stop was blocked; run the tests and check the task before you stop.' : trimmed;
}
