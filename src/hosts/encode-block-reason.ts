import type { StopHookDecision } from './decide-stop-hook.js';

const FALLBACK_REASON = 'stopwise: the stop was blocked; run the tests and check the task before you stop.';

/**
 * The reason a block feeds the agent, trimmed, with the extra context (the
 * task and its acceptance criteria) appended after a blank line. Never empty:
 * hosts drop or reject a blank reason.
 */
export function encodeBlockReason(reason: string, additionalContext?: string): string {
  const parts = [reason.trim(), additionalContext?.trim() ?? ''].filter((part) => part !== '');
  return parts.length === 0 ? FALLBACK_REASON : parts.join('\n\n');
}

/** What Claude Code and Codex both read from a stop hook: a block with its reason, or a message for the person. */
export interface BlockOrMessageOutput {
  readonly decision?: 'block';
  readonly reason?: string;
  readonly systemMessage?: string;
}

/**
 * A block as `decision` and a non-empty `reason` (with the extra context
 * appended), a hand-off as `systemMessage`, an allow as `undefined`.
 */
export function encodeBlockOrMessage(decision: StopHookDecision, additionalContext?: string): BlockOrMessageOutput | undefined {
  if (decision === undefined) return undefined;
  if (!('decision' in decision)) return { systemMessage: decision.systemMessage };
  return {
    decision: 'block',
    reason: encodeBlockReason(decision.reason, additionalContext),
    ...(decision.systemMessage === undefined ? {} : { systemMessage: decision.systemMessage }),
  };
}
