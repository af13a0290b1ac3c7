// The modules a fresh Node process loads, as the recorder in test/fixtures/cli/record-loaded-modules.mjs writes them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RECORDER = join(import.meta.dirname, '../fixtures/cli/record-loaded-modules.mjs');

/** The URLs of the modules (Node's built-ins aside) that `node <args>` loads, in load order; throws if it fails. */
export function loadedModules(args: readonly string[], options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv }): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-modules-'));
  try {
    const record = join(dir, 'modules.txt');
    writeFileSync(record, '');
    const env = { ...(options.env ?? process.env), STOPWISE_TEST_MODULES_FILE: record };
    const run = spawnSync(process.execPath, ['--import', RECORDER, ...args], { cwd: options.cwd, input: options.input ?? '', encoding: 'utf8', env });
    if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${String(run.status)}: ${run.stderr}`);
    return readFileSync(record, 'utf8').split('\n').filter((line) => line !== '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
