import { dirname, resolve } from 'node:path';
import { readJsonFile } from '../input/read-json-file.js';
import { DEFAULT_STATE_DIR, MAX_CONFIG_BYTES, prefixLines, readConfigFile, TOOL_EVENT_KEYS } from './config-file.js';
import { resolveToolGuardOptions, type ToolGuardOptions } from './tool-guard.js';

// What a tool event reads of `stopwise.config.json`, without loading its schema unless there is something to check: a
// host runs the hook on every tool call, and loading and building the configuration's zod schema (stopwise-config.ts)
// costs more than the rest of a tool event. Most configurations set none of the keys a tool event reads.

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
  // A file without these keys has nothing to check: the schema is loaded only for one that has some.
  const parsed = Object.keys(read).length === 0 ? { ok: true as const, keys: {} } : (await import('./stopwise-config.js')).parseToolEventKeys(read);
  if (!parsed.ok) return { ok: false, message: prefixLines(found.path, parsed.message) };
  const { outcomesFile, taskType } = parsed.keys;
  return {
    ok: true,
    toolGuard: resolveToolGuardOptions(parsed.keys.toolGuard),
    stateDir: parsed.keys.stateDir ?? DEFAULT_STATE_DIR,
    projectDir,
    recordSteps: await policyReadsSteps(value.policy, projectDir),
    ...(outcomesFile === undefined ? {} : { outcomesFile }),
    ...(taskType === undefined ? {} : { taskType }),
  };
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
