import { mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { readJsonFile } from '../input/read-json-file.js';
import { DEFAULT_STATE_DIR, MAX_CONFIG_BYTES, prefixLines, readConfigFile, TOOL_EVENT_KEYS } from './config-file.js';
import type { LoadedStopwiseConfig, StopwiseConfig } from './stopwise-config.js';
import { resolveToolGuardOptions, type ToolGuardOptions } from './tool-guard.js';
import { writeFileWhole } from './write-file-whole.js';

// What the hook reads of `stopwise.config.json`, without loading its schema: a host runs the hook on every tool call
// and stop, and loading and building the configuration's zod schema (stopwise-config.ts) costs more than the rest of a
// tool event. The schema is loaded only when something is left to check: a stop whose configuration changed since a
// stop last validated it (the validated configuration is kept in the state folder with the JSON it came from), or a
// tool event whose configuration sets tool-guard keys no stop has validated yet.

/** The file in the state folder that keeps the last validated configuration. */
export const VALIDATED_CONFIG_FILE = 'validated-config.json';

// Set by the build to the package's version: a kept configuration is used only by the version that validated it.
declare const __STOPWISE_VERSION__: string | undefined;
const VERSION = typeof __STOPWISE_VERSION__ === 'string' ? __STOPWISE_VERSION__ : 'source';

/**
 * `stopwise.config.json` validated as `loadStopwiseConfig` does, for the stop hook: when the file, and the policy file
 * it names, hold the same JSON as when a stop of this version last validated them, the configuration kept then is
 * used and the schema is not loaded; otherwise it is validated afresh and kept for the next stop. A mistake is never
 * kept: it is reported at every stop until it is fixed.
 */
export async function loadHookConfig(startDirs: readonly string[]): Promise<LoadedStopwiseConfig> {
  const found = await readConfigFile(startDirs);
  if (!found.ok) return found;
  const projectDir = dirname(found.path);
  const key = await validationKey(found.value as Record<string, unknown>, projectDir);
  const keptFile = join(keptStateDir(found.value as Record<string, unknown>, projectDir), VALIDATED_CONFIG_FILE);
  const kept = await keptConfig(keptFile, key);
  if (kept !== undefined) return { ok: true, config: kept, path: found.path, projectDir };
  const loaded = await (await import('./stopwise-config.js')).checkConfigFile(found.path, found.value);
  if (loaded.ok) await keepConfig(keptFile, key, loaded.config).catch(() => undefined);
  return loaded;
}

/** What a configuration was validated from: this version, the file's JSON, and the JSON of the policy file it names. */
async function validationKey(value: Record<string, unknown>, projectDir: string): Promise<string> {
  const policy = typeof value.policy === 'string' && value.policy !== '' ? await readJsonFile(resolve(projectDir, value.policy), { maxBytes: MAX_CONFIG_BYTES }).catch(() => undefined) : undefined;
  return JSON.stringify([VERSION, value, policy?.kind === 'found' ? policy.value : (policy?.kind ?? null)]);
}

/** The state folder the file names (unchecked: a kept configuration is found there only if this file was valid). */
function keptStateDir(value: Record<string, unknown>, projectDir: string): string {
  return resolve(projectDir, typeof value.stateDir === 'string' && value.stateDir !== '' ? value.stateDir : DEFAULT_STATE_DIR);
}

/**
 * The kept configuration, when it was kept for `key` by a hook of this user. A file anyone else could have written
 * is not read: a repository can carry a `validated-config.json` of its own, but a checkout never gives a file the
 * owner-only mode a hook writes it with, and the kept configuration names the command the hook runs.
 */
async function keptConfig(file: string, key: string): Promise<StopwiseConfig | undefined> {
  const status = await stat(file).catch(() => undefined);
  if (status === undefined || (status.mode & 0o077) !== 0 || (process.getuid !== undefined && status.uid !== process.getuid())) return undefined;
  const read = await readJsonFile(file, { maxBytes: 4 * MAX_CONFIG_BYTES }).catch(() => undefined);
  if (read?.kind !== 'found' || typeof read.value !== 'object' || read.value === null) return undefined;
  const kept = read.value as { key?: unknown; config?: unknown };
  return kept.key === key && typeof kept.config === 'object' && kept.config !== null ? (kept.config as StopwiseConfig) : undefined;
}

async function keepConfig(file: string, key: string, config: StopwiseConfig): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileWhole(file, JSON.stringify({ key, config }));
}

/**
 * What a tool event reads of the configuration: `toolGuard`, `stateDir`, and
 * `outcomesFile` and `taskType` (for a hand-off the guard makes itself),
 * validated by their parts of the configuration's schema (loaded only when
 * the file has one of them); and whether the policy has a
 * stall condition over tool steps (`recordSteps`: the session then keeps the
 * turn's steps for the stop). A mistake elsewhere in the file is the stop
 * hook's to report: it does not turn the guard off.
 */
export async function loadToolGuardConfig(startDirs: readonly string[]): Promise<
  | {
      readonly ok: true;
      readonly toolGuard: ToolGuardOptions;
      readonly stateDir: string;
      readonly projectDir: string;
      readonly outcomesFile?: string;
      readonly taskType?: string;
      readonly recordSteps: boolean;
    }
  | { readonly ok: false; readonly message: string }
> {
  const found = await readConfigFile(startDirs);
  if (!found.ok) return found;
  const value = found.value as Record<string, unknown>;
  const projectDir = dirname(found.path);
  const read = Object.fromEntries(TOOL_EVENT_KEYS.filter((key) => value[key] !== undefined).map((key) => [key, value[key]]));
  const parsed = await readToolEventKeys(read, value, projectDir);
  if (!parsed.ok) return { ok: false, message: prefixLines(found.path, parsed.message) };
  const { outcomesFile, taskType } = parsed.keys;
  return {
    ok: true,
    toolGuard: parsed.keys.toolGuard,
    stateDir: parsed.keys.stateDir ?? DEFAULT_STATE_DIR,
    projectDir,
    recordSteps: await policyReadsSteps(value.policy, projectDir),
    ...(outcomesFile === undefined ? {} : { outcomesFile }),
    ...(taskType === undefined ? {} : { taskType }),
  };
}

type ToolEventKeys = { readonly toolGuard: ToolGuardOptions; readonly stateDir?: string; readonly outcomesFile?: string; readonly taskType?: string };

/**
 * The tool event's keys of the configuration, checked: none to check (most projects set none), the configuration a
 * stop validated and kept, or their parts of the schema.
 */
async function readToolEventKeys(
  read: Readonly<Record<string, unknown>>,
  value: Record<string, unknown>,
  projectDir: string,
): Promise<{ readonly ok: true; readonly keys: ToolEventKeys } | { readonly ok: false; readonly message: string }> {
  if (Object.keys(read).length === 0) return { ok: true, keys: { toolGuard: resolveToolGuardOptions(undefined) } };
  const kept = await keptConfig(join(keptStateDir(value, projectDir), VALIDATED_CONFIG_FILE), await validationKey(value, projectDir));
  if (kept !== undefined) return { ok: true, keys: kept };
  const parsed = (await import('./stopwise-config.js')).parseToolEventKeys(read);
  return parsed.ok ? { ok: true, keys: { ...parsed.keys, toolGuard: resolveToolGuardOptions(parsed.keys.toolGuard) } } : parsed;
}

/**
 * True when the configured policy (inline, or the document a path names) has a stall condition over tool steps
 * (`step_history` or `score`) anywhere in its rules. Read without the schema, on every tool event: a policy that
 * cannot be read records nothing (the stop hook reports it).
 */
async function policyReadsSteps(policy: unknown, projectDir: string): Promise<boolean> {
  let document = policy;
  if (typeof policy === 'string') {
    const read = await readJsonFile(resolve(projectDir, policy), { maxBytes: MAX_CONFIG_BYTES });
    if (read.kind !== 'found') return false;
    document = read.value;
  }
  const rules = typeof document === 'object' && document !== null ? (document as { rules?: unknown }).rules : undefined;
  return Array.isArray(rules) && rules.some((rule) => typeof rule === 'object' && rule !== null && readsSteps((rule as { when?: unknown }).when, 0));
}

function readsSteps(condition: unknown, depth: number): boolean {
  if (typeof condition !== 'object' || condition === null || depth > 32) return false;
  const record = condition as Record<string, unknown>;
  const stall = record.stall as { detector?: unknown } | undefined;
  if (typeof stall === 'object' && stall !== null && (stall.detector === 'step_history' || stall.detector === 'score')) return true;
  const children = [record.not, ...(Array.isArray(record.all) ? record.all : []), ...(Array.isArray(record.any) ? record.any : [])];
  const of = (record.atLeast as { of?: unknown } | undefined)?.of;
  if (Array.isArray(of)) children.push(...of);
  return children.some((child) => readsSteps(child, depth + 1));
}
