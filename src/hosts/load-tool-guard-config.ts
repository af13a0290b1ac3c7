import { dirname } from 'node:path';
import { readJsonFile } from '../input/read-json-file.js';
import { findConfigFile, MAX_CONFIG_BYTES, missingConfigMessage } from './load-stopwise-config.js';
import { DEFAULT_STATE_DIR } from './stopwise-config-defaults.js';
import { parseToolGuardOptions, type ToolGuardOptions } from './tool-guard-options.js';

/** What the tool guard reads of `stopwise.config.json`, or why it cannot. */
export type LoadedToolGuardConfig =
  | { readonly ok: true; readonly toolGuard: ToolGuardOptions; readonly stateDir: string; readonly projectDir: string }
  | { readonly ok: false; readonly kind: 'missing' | 'invalid'; readonly message: string };

/**
 * Finds `stopwise.config.json` as `loadStopwiseConfig` does and reads the two
 * keys the tool guard uses: `toolGuard` (checked by `parseToolGuardOptions`)
 * and `stateDir`. The rest of the file is the stop hook's, which checks it
 * whole and reports a problem in it at the next stop (and `stopwise doctor`
 * before any): a tool event runs on every tool call, so it neither loads the
 * configuration's schema nor stops guarding over a key it does not read.
 */
export async function loadToolGuardConfig(startDirs: readonly string[]): Promise<LoadedToolGuardConfig> {
  const path = await findConfigFile(startDirs);
  if (path === undefined) return { ok: false, kind: 'missing', message: missingConfigMessage(startDirs) };
  const read = await readJsonFile(path, { maxBytes: MAX_CONFIG_BYTES });
  if (read.kind !== 'found') {
    return { ok: false, kind: 'invalid', message: `${path}: ${read.kind === 'missing' ? 'removed while it was being read' : read.message}` };
  }
  const value = read.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, kind: 'invalid', message: `${path}: the configuration must be a JSON object` };
  }
  const { toolGuard, stateDir } = value as Record<string, unknown>;
  if (stateDir !== undefined && (typeof stateDir !== 'string' || stateDir === '')) {
    return { ok: false, kind: 'invalid', message: `${path}: stateDir must be a non-empty string` };
  }
  const guard = parseToolGuardOptions(toolGuard);
  if (!guard.ok) return { ok: false, kind: 'invalid', message: `${path}: ${guard.message}` };
  return { ok: true, toolGuard: guard.options, stateDir: (stateDir as string | undefined) ?? DEFAULT_STATE_DIR, projectDir: dirname(path) };
}
