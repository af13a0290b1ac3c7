import type { StopHookDecision } from './decide-stop-hook.js';
import { encodeBlockOrMessage } from './encode-block-reason.js';

/**
 * A Codex `Stop` hook answer. Codex rejects any key outside `continue`,
 * `decision`, `reason`, `stopReason`, `suppressOutput` and `systemMessage`,
 * and a block without a non-empty reason.
 */
export interface CodexStopOutput {
  readonly decision?: 'block';
  readonly reason?: string;
  readonly systemMessage?: string;
}

/** Options of {@link encodeCodexOutput}. */
export interface CodexOutputOptions {
  /** Extra feedback for the agent on a block; Codex has no field for it, so it is appended to the reason. */
  readonly additionalContext?: string;
}

/**
 * Encodes a stop hook decision for the Codex CLI: a block as `decision` and a
 * non-empty trimmed `reason`, a hand-off as `systemMessage`, an allow as no
 * output (`undefined`). Never writes a key Codex does not know.
 *
 * @see https://developers.openai.com/codex/hooks
 */
export function encodeCodexOutput(decision: StopHookDecision, options: CodexOutputOptions = {}): CodexStopOutput | undefined {
  return encodeBlockOrMessage(decision, options.additionalContext);
}
