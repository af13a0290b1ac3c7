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
