import type { StopHookDecision } from './decide-stop-hook.js';
import { encodeBlockReason } from './encode-block-reason.js';

/** A Cursor `stop` hook answer: `followup_message` is sent to the agent as the next user message. */
export interface CursorStopOutput {
  readonly followup_message?: string;
}

/** Options of {@link encodeCursorOutput}. */
export interface CursorOutputOptions {
  /** Extra feedback for the agent on a block, appended to the follow-up message. */
  readonly additionalContext?: string;
}

/**
 * Encodes a stop hook decision for Cursor: a block as `followup_message`;
 * a hand-off and an allow as `{}` (Cursor has no message for the person, so
 * the hook writes the hand-off line on stderr).
 *
 * @see https://cursor.com/docs/agent/hooks
 */
export function encodeCursorOutput(decision: StopHookDecision, options: CursorOutputOptions = {}): CursorStopOutput {
  if (decision === undefined || !('decision' in decision)) return {};
  return { followup_message: encodeBlockReason(decision.reason, options.additionalContext) };
}
