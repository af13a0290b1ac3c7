import type { HookHost } from '../hosts/hook-host.js';
import { parseToolHookInput } from '../hosts/parse-tool-hook-input.js';
import type { ToolHookRun } from '../hosts/run-tool-hook.js';

/**
 * Runs the tool guard when the hook's stdin is a tool event of the host
 * (loading its modules only then); `undefined` for anything else, which the
 * stop hook answers (an unreadable input included).
 */
export async function runToolEvent(host: HookHost, stdin: string, cwd: string): Promise<ToolHookRun | undefined> {
  let raw: unknown;
  try {
    raw = JSON.parse(stdin);
  } catch {
    return undefined;
  }
  const input = parseToolHookInput(host, raw);
  if (input === undefined) return undefined;
  const { runToolHook } = await import('../hosts/run-tool-hook.js');
  return runToolHook(host, input, { cwd });
}
