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
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Looks for `stopwise.config.json` in each start folder and its parents, in
 * order (the hook passes its `cwd`, then `$CLAUDE_PROJECT_DIR`), and returns
 * the first one found, validated. The folder that holds it is the project.
 */
export async function loadStopwiseConfig(startDirs: readonly string[]): Promise<LoadedStopwiseConfig> {
  const path = await findConfigFile(startDirs);
  if (path === undefined) {
    const where = startDirs.length === 0 ? 'the current folder' : startDirs.join(' or ');
    return { ok: false, kind: 'missing', message: `no ${CONFIG_FILE_NAME} in ${where} or any parent folder` };
  }
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
  return { ok: true, config: parsed.config, path, projectDir: dirname(path) };
}

async function findConfigFile(startDirs: readonly string[]): Promise<string | undefined> {
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
