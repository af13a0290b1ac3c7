import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { readJsonFile } from '../input/read-json-file.js';
import { readPlainStopwiseConfig } from './read-plain-stopwise-config.js';
import { CONFIG_FILE_NAME } from './stopwise-config-defaults.js';
import type { StopwiseConfig } from './stopwise-config.js';

/** A configuration file found and validated, or why there is none. */
export type LoadedStopwiseConfig =
  | { readonly ok: true; readonly config: StopwiseConfig; readonly path: string; readonly projectDir: string }
  | { readonly ok: false; readonly kind: 'missing' | 'invalid'; readonly message: string; readonly path?: string };

/** The largest configuration file read; anything bigger is refused as invalid. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Looks for `stopwise.config.json` in each start folder and its parents, in
 * order (the hook passes its `cwd`, then `$CLAUDE_PROJECT_DIR`), and returns
 * the first one found, validated. The folder that holds it is the project.
 * A policy file it names (relative to that folder) is read with
 * `loadPolicyFile` (four numbers, a calibration file, or a stop policy
 * document); a problem in it makes the configuration invalid.
 */
export async function loadStopwiseConfig(startDirs: readonly string[]): Promise<LoadedStopwiseConfig> {
  const path = await findConfigFile(startDirs);
  if (path === undefined) return { ok: false, kind: 'missing', message: missingConfigMessage(startDirs) };
  const read = await readJsonFile(path, { maxBytes: MAX_CONFIG_BYTES });
  if (read.kind !== 'found') {
    return { ok: false, kind: 'invalid', path, message: `${path}: ${read.kind === 'missing' ? 'removed while it was being read' : read.message}` };
  }
  const value = read.value;
  const plain = readPlainStopwiseConfig(value);
  if (plain !== undefined) return { ok: true, config: plain, path, projectDir: dirname(path) };
  // Anything but a plain configuration is checked, and explained, by the full schema.
  const { parseStopwiseConfig } = await import('./stopwise-config.js');
  const parsed = parseStopwiseConfig(value);
  if (!parsed.ok) {
    return { ok: false, kind: 'invalid', path, message: `${path}: ${parsed.message.split('\n').join(`\n${path}: `)}` };
  }
  const config = parsed.config;
  if (config.policyFile !== undefined) {
    const policyPath = resolve(dirname(path), config.policyFile);
    const { loadPolicyFile } = await import('../input/load-policy-file.js');
    const policy = await loadPolicyFile(policyPath, dirname(path), config.taskType === undefined ? {} : { taskType: config.taskType });
    if (!policy.ok) return { ok: false, kind: 'invalid', path, message: `${path}: policy: ${policy.message}` };
    const read = 'document' in policy ? { stopPolicy: policy.document } : { policy: policy.policy };
    return { ok: true, config: { ...config, ...read }, path, projectDir: dirname(path) };
  }
  return { ok: true, config, path, projectDir: dirname(path) };
}

/** The first `stopwise.config.json` in each start folder and its parents, in order; `undefined` when there is none. */
export async function findConfigFile(startDirs: readonly string[]): Promise<string | undefined> {
  const seen = new Set<string>();
  for (const start of startDirs) {
    let dir = resolve(start);
    for (;;) {
      if (seen.has(dir)) break;
      seen.add(dir);
      const candidate = join(dir, CONFIG_FILE_NAME);
      try {
        if ((await stat(candidate)).isFile()) return candidate;
      } catch {
        // not here: look in the parent
      }
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return undefined;
}

/** Says where no configuration was found. */
export function missingConfigMessage(startDirs: readonly string[]): string {
  const folders = [...new Set(startDirs.map((dir) => resolve(dir)))];
  const where = folders.length === 0 ? 'the current folder' : folders.join(' or ');
  return `no ${CONFIG_FILE_NAME} in ${where} or any parent folder`;
}
