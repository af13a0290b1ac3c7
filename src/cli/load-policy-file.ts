import { createStopPolicy, type StopPolicy } from '../core/stop-policy.js';
import { readTextFile } from './read-inputs.js';

/**
 * Reads a policy file: a JSON object with the `StopPolicy` fields (any left
 * out take the defaults), or an object holding one under `policy`.
 */
export async function loadPolicyFile(
  path: string,
  cwd: string,
): Promise<{ ok: true; policy: StopPolicy } | { ok: false; message: string }> {
  const read = await readTextFile(path, cwd);
  if (!read.ok) return { ok: false, message: `${path}: ${read.message}` };
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch (error) {
    return { ok: false, message: `${path}: not valid JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `${path}: a policy file must hold a JSON object` };
  }
  const record = value as Record<string, unknown>;
  const fields = 'policy' in record ? record.policy : record;
  try {
    return { ok: true, policy: createStopPolicy(fields as Partial<StopPolicy>) };
  } catch (error) {
    return { ok: false, message: `${path}: ${(error as Error).message}` };
  }
}
