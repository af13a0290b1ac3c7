import { isStopHookBlock, type StopHookDecision } from './decide-stop-hook.js';
import type { HookHost } from './hook-host.js';

/**
 * A host's cap on consecutive stop blocks: on the `blocks`-th block in a row
 * the host ends the run itself, whatever the hook said. `source` says where
 * the number comes from, for the message.
 */
export interface HostBlockCap {
  readonly blocks: number;
  readonly source: string;
}

/** Claude Code's cap when `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` is not set (2.1.143). */
export const CLAUDE_CODE_DEFAULT_BLOCK_CAP = 8;
/** Cursor's `loop_limit` when the hook entry sets none. */
export const CURSOR_DEFAULT_LOOP_LIMIT = 5;
/** Copilot CLI ends the turn after this many consecutive `agentStop` blocks (1.0.72 and later). */
export const COPILOT_BLOCK_CAP = 8;
/** Gemini CLI's `MAX_TURNS` per prompt: every `AfterAgent` retry spends one of them. */
export const GEMINI_TURN_CAP = 100;

/**
 * The cap of `host`, when it is known: Claude Code 8, or
 * `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` (0 turns it off); Cursor the stop hook
 * entry's `loop_limit` (follow-ups past it are dropped, so the block after the
 * last one it sends is where the host ends the run); Copilot 8; Gemini 100
 * turns per prompt (each retry spends one); Codex has none.
 * `undefined` when there is none.
 */
export function hostBlockCap(host: HookHost, env: NodeJS.ProcessEnv, cursorLoopLimit?: number): HostBlockCap | undefined {
  switch (host) {
    case 'claude-code': {
      const raw = env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP?.trim();
      if (raw === undefined || raw === '' || !/^\d+$/.test(raw)) return { blocks: CLAUDE_CODE_DEFAULT_BLOCK_CAP, source: "Claude Code's default cap" };
      const blocks = Number(raw);
      return blocks === 0 ? undefined : { blocks, source: 'CLAUDE_CODE_STOP_HOOK_BLOCK_CAP' };
    }
    case 'cursor': {
      const limit = cursorLoopLimit ?? CURSOR_DEFAULT_LOOP_LIMIT;
      return { blocks: limit + 1, source: cursorLoopLimit === undefined ? "Cursor's default loop_limit" : 'the loop_limit in .cursor/hooks.json' };
    }
    case 'copilot':
      return { blocks: COPILOT_BLOCK_CAP, source: "Copilot CLI's cap" };
    case 'gemini':
      return { blocks: GEMINI_TURN_CAP, source: "Gemini CLI's turn cap" };
    case 'codex':
      return undefined;
  }
}

/** Who ended the run a stop decision concerns: stopwise (it let the agent stop, or handed off), or the host's cap. */
export type RunEndedBy = 'stopwise' | 'host';

/** A stop decision after the cap is applied, and who ends the run with it (`undefined`: a block within the cap, the run goes on). */
export interface CappedStopDecision {
  readonly decision: StopHookDecision;
  readonly endedBy?: RunEndedBy;
  /** True when a block was turned into a hand-off because the host's cap would end the run on it. */
  readonly capped: boolean;
}

/**
 * Applies a host's cap to a stop decision: a block that would be the
 * `cap.blocks`-th in a row, the one on which the host ends the run, hands off
 * instead, so the person learns why the agent stopped (the host's own end of
 * a capped run reads as a normal completion). `blocksSoFar` is the session's
 * own count of blocks in a row (or Cursor's `loop_count`, whichever is larger).
 */
export function applyHostBlockCap(decision: StopHookDecision, blocksSoFar: number, cap: HostBlockCap | undefined, hostName: string): CappedStopDecision {
  if (!isStopHookBlock(decision)) return { decision, endedBy: 'stopwise', capped: false };
  if (cap === undefined || blocksSoFar + 1 < cap.blocks) return { decision, capped: false };
  const reason = decision.reason.trim();
  return {
    decision: {
      systemMessage:
        `stopwise: ${hostName} ends the run after ${cap.blocks} blocks in a row (${cap.source}) and this would be block ${blocksSoFar + 1}, ` +
        `so stopwise hands the run to you instead: a person should look. What the block would have told the agent: ${reason}`,
    },
    endedBy: 'stopwise',
    capped: true,
  };
}
