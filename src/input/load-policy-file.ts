import { createStopPolicy, type StopPolicy } from '../core/stop-policy.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import { isStopPolicyDocumentShape, parseStopPolicyAt, policyTaskTypes } from '../core/policy/stop-policy-shape.js';
import { resolve } from 'node:path';
import { readJsonFile } from './read-json-file.js';

/** The top-level keys of a file written by `stopwise calibrate --policy-out`. */
const CALIBRATION_FILE_KEYS: ReadonlySet<string> = new Set(['policy', 'calibration', 'byTaskType']);

/** Options of {@link loadPolicyFile}. */
interface LoadPolicyFileOptions {
  /** Use the `byTaskType` entry of this task type instead of the overall policy. */
  readonly taskType?: string;
}

/** A policy file read: the four numbers of a `StopPolicy`, or a stop policy document. */
export type LoadedPolicyFile =
  | { readonly ok: true; readonly policy: StopPolicy }
  | { readonly ok: true; readonly document: StopPolicyDocument }
  | { readonly ok: false; readonly message: string };

/**
 * Reads a policy file: a stop policy document (an object with `version` and
 * `rules`, as `stopwise calibrate --policy-out` writes; checked by
 * `parseStopPolicy`, the error naming the JSON path; `taskType` must be one
 * its `taskType` conditions name), a JSON object with the `StopPolicy` fields (any left
 * out take the defaults), or a file written by `stopwise calibrate
 * --policy-out` holding one under `policy` (refused when that is null: nothing
 * was certified) and one per task type under `byTaskType`, of which
 * `taskType` picks one (a task type the file does not have is refused, naming
 * the ones it has, and so is an entry that is null). Every message starts
 * with `path`. Every reader of policies (the hook configuration, `stopwise
 * replay --policy`) reads them here.
 *
 * @example
 * await loadPolicyFile('policy.json', process.cwd(), { taskType: 'bugfix' });
 * // { ok: true, policy: { doneThreshold: 0.86, midBandLow: 0.4, maxSteps: 20, stallRounds: 3 } }
 */
export async function loadPolicyFile(
  path: string,
  cwd: string,
  options: LoadPolicyFileOptions = {},
): Promise<LoadedPolicyFile> {
  const read = await readJsonFile(resolve(cwd, path));
  if (read.kind === 'missing') return { ok: false, message: `${path}: no such file or folder` };
  if (read.kind === 'invalid') return { ok: false, message: `${path}: ${read.message}` };
  const value = read.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `${path}: a policy file must hold a JSON object` };
  }
  if (isStopPolicyDocumentShape(value)) return documentFrom(path, value, options.taskType);
  const record = value as Record<string, unknown>;
  const calibrated = Object.hasOwn(record, 'policy');
  if (calibrated) {
    const extra = Object.keys(record).filter((key) => !CALIBRATION_FILE_KEYS.has(key));
    if (extra.length > 0) {
      return {
        ok: false,
        message: `${path}: unknown top-level field "${extra[0]}" next to "policy"; put the policy fields inside "policy"`,
      };
    }
  }
  if (options.taskType !== undefined) {
    if (!calibrated) {
      return { ok: false, message: `${path}: a task type needs a file written by \`stopwise calibrate --policy-out\`, with a policy per task type under "byTaskType"` };
    }
    return taskTypePolicy(path, record.byTaskType, options.taskType);
  }
  if (calibrated && record.policy === null) {
    return {
      ok: false,
      message: `${path}: "policy" is null: the calibration certified no threshold, so there is no policy to stop with (never stop on the decision model's word alone; label more cases and calibrate again)`,
    };
  }
  const fields = calibrated ? record.policy : record;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    return { ok: false, message: `${path}: "policy" must be a JSON object` };
  }
  return policyFrom(path, fields);
}

function documentFrom(path: string, value: unknown, taskType: string | undefined): LoadedPolicyFile {
  const parsed = parseStopPolicyAt('', value);
  if (!parsed.ok) return { ok: false, message: `${path}: ${parsed.message}` };
  if (taskType !== undefined) {
    const known = policyTaskTypes(parsed.policy);
    if (!known.includes(taskType)) {
      return {
        ok: false,
        message: `${path}: no rule reads task type "${taskType}" (a { "taskType": ... } condition); it has ${known.length === 0 ? 'none' : known.join(', ')}`,
      };
    }
  }
  return { ok: true, document: parsed.policy };
}

function taskTypePolicy(path: string, byTaskType: unknown, taskType: string): { ok: true; policy: StopPolicy } | { ok: false; message: string } {
  const entries = typeof byTaskType === 'object' && byTaskType !== null && !Array.isArray(byTaskType) ? (byTaskType as Record<string, unknown>) : {};
  const entry = Object.hasOwn(entries, taskType) ? entries[taskType] : undefined;
  if (entry === undefined) {
    const known = Object.keys(entries);
    return {
      ok: false,
      message: `${path}: no policy for task type "${taskType}" in "byTaskType"; it has ${known.length === 0 ? 'none' : known.join(', ')}`,
    };
  }
  if (entry === null) {
    return {
      ok: false,
      message: `${path}: "byTaskType"."${taskType}" is null: the calibration certified no threshold for this task type, so there is no policy to stop with (label more cases of it and calibrate again)`,
    };
  }
  if (typeof entry !== 'object' || Array.isArray(entry)) return { ok: false, message: `${path}: "byTaskType"."${taskType}" must be a JSON object` };
  return policyFrom(path, entry);
}

function policyFrom(path: string, fields: object): { ok: true; policy: StopPolicy } | { ok: false; message: string } {
  try {
    return { ok: true, policy: createStopPolicy(fields as Partial<StopPolicy>) };
  } catch (error) {
    return { ok: false, message: `${path}: ${(error as Error).message}` };
  }
}
