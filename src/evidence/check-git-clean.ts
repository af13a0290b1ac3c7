import type { CheckResult } from './check-result.js';
import { gitStatus } from './git-command.js';

const LISTED = 10;

/**
 * Checks that the git checkout around `cwd` has no changed tracked file and
 * no untracked, non-ignored file. Outside a git checkout the check fails.
 *
 * @example
 * await checkGitClean({ cwd }); // { name: 'git-clean', ok: false, detail: '2 changed: M src/a.ts, ?? notes.txt' }
 */
export async function checkGitClean(options: { readonly cwd: string; readonly name?: string }): Promise<CheckResult> {
  const name = options.name ?? 'git-clean';
  const status = await gitStatus(options.cwd);
  if (!status.ok) return { name, ok: false, detail: `not a git checkout or git failed: ${status.message}` };
  const { entries } = status;
  if (entries.length === 0) return { name, ok: true, detail: 'the working tree is clean' };
  const listed = entries.slice(0, LISTED).map((entry) => `${entry.status.trim()} ${entry.path}`);
  const more = entries.length > LISTED ? `, and ${entries.length - LISTED} more` : '';
  return { name, ok: false, detail: `${entries.length} changed: ${listed.join(', ')}${more}` };
}
