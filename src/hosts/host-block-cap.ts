import type { HookHost } from './hook-host.js';

/** Claude Code's default cap on consecutive Stop blocks (2.1.143), changed by `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`. */
export const CLAUDE_CODE_DEFAULT_BLOCK_CAP = 8;
/** Copilot CLI ends the turn after this many consecutive `agentStop` blocks (1.0.72 and later). */
export const COPILOT_BLOCK_CAP = 8;
/** Gemini CLI's `MAX_TURNS` per prompt: every `AfterAgent` retry spends one of them. */
export const GEMINI_TURN_CAP = 100;

/**
 * How many consecutive blocks the host itself allows before it ends the turn
 * on its own, or `undefined` when it has no cap the hook can know: Claude
 * Code 8 (or `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`; 0 turns the cap off),
 * Copilot 8, Gemini 100 turns per prompt; Codex has none; Cursor's
 * `loop_limit` lives in its hooks file, which the hook does not read (it
 * sees `loop_count` instead).
 */
export function hostBlockCap(host: HookHost, env: NodeJS.ProcessEnv): number | undefined {
  switch (host) {
    case 'claude-code': {
      const raw = env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP?.trim();
      if (raw === undefined || !/^\d+$/.test(raw)) return CLAUDE_CODE_DEFAULT_BLOCK_CAP;
      const cap = Number(raw);
      return cap === 0 ? undefined : cap;
    }
    case 'copilot':
      return COPILOT_BLOCK_CAP;
    case 'gemini':
      return GEMINI_TURN_CAP;
    case 'codex':
    case 'cursor':
      return undefined;
  }
}

/**
 * The most consecutive blocks the hook gives: the configured
 * `maxConsecutiveBlocks`, and below the host's cap, so that the attempt the
 * cap would end is answered with a hand-off by stopwise instead (at least 1).
 */
export function effectiveMaxConsecutiveBlocks(host: HookHost, configured: number, env: NodeJS.ProcessEnv): number {
  const cap = hostBlockCap(host, env);
  return cap === undefined ? configured : Math.max(1, Math.min(configured, cap - 1));
}
