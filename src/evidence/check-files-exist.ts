import { access } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { CheckResult } from './check-result.js';

/**
 * Checks that every path exists (files or folders), relative to `cwd`. The
 * detail names the missing ones.
 *
 * @example
 * await checkFilesExist(['dist/index.js', 'CHANGELOG.md'], { cwd });
 * // { name: 'files-exist', ok: false, detail: 'missing: CHANGELOG.md' }
 */
export async function checkFilesExist(
  paths: readonly string[],
  options: { readonly cwd: string; readonly name?: string },
): Promise<CheckResult> {
  if (!Array.isArray(paths) || paths.some((path) => typeof path !== 'string' || path === '')) {
    throw new TypeError('checkFilesExist: paths must be an array of non-empty strings');
  }
  const name = options.name ?? 'files-exist';
  const missing: string[] = [];
  for (const path of paths) {
    try {
      await access(isAbsolute(path) ? path : join(options.cwd, path));
    } catch {
      missing.push(path);
    }
  }
  if (paths.length === 0) return { name, ok: true, detail: 'no paths to check' };
  if (missing.length === 0) return { name, ok: true, detail: `all ${paths.length} exist` };
  return { name, ok: false, detail: `missing: ${missing.join(', ')}` };
}
