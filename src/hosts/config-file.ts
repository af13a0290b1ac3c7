import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describeValue } from '../core/describe-value.js';
import { readJsonFile } from '../input/read-json-file.js';

// `stopwise.config.json`: its name and defaults, where it is found and how it is read (its schema is in
// stopwise-config.ts, and what a tool event reads of it in tool-guard-config.ts).

/** The name of the configuration file the hook looks for. */
export const CONFIG_FILE_NAME = 'stopwise.config.json';
/** Default time the test command may take. */
export const DEFAULT_TEST_TIMEOUT_MS = 240_000;
/** Default time one decision-model request may take. */
export const DEFAULT_DECISION_MODEL_TIMEOUT_MS = 30_000;
/** Default state folder, relative to the project. */
export const DEFAULT_STATE_DIR = '.stopwise/state';
/** The default outcomes file `init` writes, relative to the project. */
export const DEFAULT_OUTCOMES_FILE = '.stopwise/outcomes.jsonl';
/** The longest timeout a configuration may set: 2^31 - 1 ms (about 24.8 days), the longest timer Node can run. */
export const MAX_TIMEOUT_MS = 2_147_483_647;
/** The largest configuration file read; anything bigger is refused as invalid. */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** The keys of the configuration a tool event reads. */
export const TOOL_EVENT_KEYS = ['toolGuard', 'stateDir', 'outcomesFile', 'taskType'] as const;

/** The first configuration file found from `startDirs` (see `findConfigFile`), read as a JSON object, or why there is none. */
export async function readConfigFile(startDirs: readonly string[]): Promise<{ ok: true; path: string; value: object } | { ok: false; kind: 'missing' | 'invalid'; message: string; path?: string }> {
  const path = await findConfigFile(startDirs);
  if (path === undefined) return { ok: false, kind: 'missing', message: missingConfigMessage(startDirs) };
  const read = await readJsonFile(path, { maxBytes: MAX_CONFIG_BYTES });
  if (read.kind !== 'found') return { ok: false, kind: 'invalid', path, message: `${path}: ${read.kind === 'missing' ? 'removed while it was being read' : read.message}` };
  if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) {
    return { ok: false, kind: 'invalid', path, message: `${path}: the configuration must be a JSON object, got ${describeValue(read.value)}` };
  }
  return { ok: true, path, value: read.value };
}

/** Puts `prefix: ` before each line of `text`. */
export function prefixLines(prefix: string, text: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}: ${line}`)
    .join('\n');
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
  return `no ${CONFIG_FILE_NAME} in ${folders.length === 0 ? 'the current folder' : folders.join(' or ')} or any parent folder`;
}

