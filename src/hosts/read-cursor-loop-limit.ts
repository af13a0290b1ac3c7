import { join } from 'node:path';
import { readJsonFile } from '../input/read-json-file.js';
import { HOOK_SETTINGS_PATHS, isStopwiseHookCommand } from './install-stop-hook.js';

/**
 * The `loop_limit` of the stopwise stop hook in a project's
 * `.cursor/hooks.json`; `undefined` when the file, the entry or the number is
 * not there (or not a whole number), and the host's default applies.
 */
export async function readCursorLoopLimit(projectDir: string): Promise<number | undefined> {
  const file = await readJsonFile(join(projectDir, HOOK_SETTINGS_PATHS.cursor), { maxBytes: 1024 * 1024 }).catch(() => undefined);
  if (file?.kind !== 'found') return undefined;
  const hooks = (file.value as { hooks?: { stop?: unknown } } | null)?.hooks;
  const entries = typeof hooks === 'object' && hooks !== null ? hooks.stop : undefined;
  if (!Array.isArray(entries)) return undefined;
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null || !isStopwiseHookCommand(entry as Record<string, unknown>, 'cursor')) continue;
    const limit = (entry as Record<string, unknown>).loop_limit;
    if (typeof limit === 'number' && Number.isInteger(limit) && limit >= 0) return limit;
  }
  return undefined;
}
