import type { StopHookDecision } from './decide-stop-hook.js';
import { encodeBlockReason } from './encode-block-reason.js';

/** A Copilot CLI `agentStop` hook answer (JSON on stdout, exit 0): `decision: "block"` makes `reason` the next prompt. */
export interface CopilotStopOutput {
  readonly decision?: 'block';
  readonly reason?: string;
}

/** Options of {@link encodeCopilotOutput}. */
export interface CopilotOutputOptions {
  /** Extra feedback for the agent on a block, appended to the reason. */
  readonly additionalContext?: string;
}

/**
 * Encodes a stop hook decision for GitHub Copilot CLI's `agentStop`: a block
 * as `decision` and a non-empty `reason`; a hand-off and an allow as no
 * output (Copilot has no message for the person on `agentStop`, so the hook
 * writes the hand-off line on stderr). Never exit 2: Copilot 1.0.41 read it
 * as a warning and let the agent stop.
 *
 * @see https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference
 */
export function encodeCopilotOutput(decision: StopHookDecision, options: CopilotOutputOptions = {}): CopilotStopOutput | undefined {
  if (decision === undefined || !('decision' in decision)) return undefined;
  return { decision: 'block', reason: encodeBlockReason(decision.reason, options.additionalContext) };
}
