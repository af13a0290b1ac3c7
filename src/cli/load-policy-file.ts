import { createStopPolicy, type StopPolicy } from '../core/stop-policy.js';
import { resolve } from 'node:path';
import { readJsonFile } from '../input/read-json-file.js';

/** The top-level keys of a file written by `stopwise calibrate --policy-out`. */
const CALIBRATION_FILE_KEYS: ReadonlySet<string> = new Set(['policy', 'calibration', 'byTaskType']);

/**
 * Reads a policy file: a JSON object with the `StopPolicy` fields (any left
 * out take the defaults), or a file written by `stopwise calibrate
 * --policy-out` holding one under `policy` (refused when that is null: nothing
 * was certified).
 */
export async function loadPolicyFile(
  path: string,
  cwd: string,
): Promise<{ ok: true; policy: StopPolicy } | { ok: false; message: string }> {
  const read = await readJsonFile(resolve(cwd, path));
  if (read.kind === 'missing') return { ok: false, message: `${path}: no such file or folder` };
  if (read.kind === 'invalid') return { ok: false, message: `${path}: ${read.message}` };
  const value = read.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `${path}: a policy file must hold a JSON object` };
  }
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, 'policy')) {
    const extra = Object.keys(record).filter((key) => !CALIBRATION_FILE_KEYS.has(key));
    if (extra.length > 0) {
      return {
        ok: false,
        message: `${path}: unknown top-level field "${extra[0]}" next to "policy"; put the policy fields inside "policy"`,
      };
    }
    if (record.policy === null) {
      return {
        ok: false,
        message: `${path}: "policy" is null: the calibration certified no threshold, so there is no policy to stop with (never stop on the decision model's word alone; label more cases and calibrate again)`,
      };
    }
  }
  const fields = Object.hasOwn(record, 'policy') ? record.policy : record;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    return { ok: false, message: `${path}: "policy" must be a JSON object` };
  }
  try {
    return { ok: true, policy: createStopPolicy(fields as Partial<StopPolicy>) };
  } catch (error) {
    return { ok: false, message: `${path}: ${(error as Error).message}` };
  }
}
