import type { StopHookDecision } from './decide-stop-hook.js';
import { encodeBlockReason } from './encode-block-reason.js';

/**
 * A Gemini CLI `AfterAgent` hook answer (JSON on stdout, exit 0):
 * `decision: "deny"` rejects the response and sends `reason` to the agent as
 * a new prompt; `systemMessage` is shown to the person.
 */
export interface GeminiStopOutput {
  readonly decision?: 'deny';
  readonly reason?: string;
  readonly systemMessage?: string;
}

/** Options of {@link encodeGeminiOutput}. */
export interface GeminiOutputOptions {
  /** Extra feedback for the agent on a block, appended to the reason. */
  readonly additionalContext?: string;
}

/**
 * Encodes a stop hook decision for Gemini CLI's `AfterAgent`: a block as
 * `decision: "deny"` with a non-empty `reason` (the retry prompt), a hand-off
 * as `systemMessage`, an allow as no output. Never `continue: false`, which
 * would end the whole session.
 *
 * @see https://geminicli.com/docs/hooks/reference
 */
export function encodeGeminiOutput(decision: StopHookDecision, options: GeminiOutputOptions = {}): GeminiStopOutput | undefined {
  if (decision === undefined) return undefined;
  if (!('decision' in decision)) return { systemMessage: decision.systemMessage };
  return {
    decision: 'deny',
    reason: encodeBlockReason(decision.reason, options.additionalContext),
    ...(decision.systemMessage === undefined ? {} : { systemMessage: decision.systemMessage }),
  };
}
