// The suite's own temporary folder, set up once for a run of vitest: every test file, and every process a test
// starts, gets it as the temporary folder (TMPDIR), so a run can be checked for what it leaves behind whatever
// else runs on the machine. At the end it must hold no `stopwise-*` entry (each test removes what it creates,
// also when it fails); the folder is then removed, and a leftover fails the run with the names.
//
// Vitest calls a global setup once for the root configuration and once more for each project that extends it, all in
// one process: the first call makes the folder, the others find it and leave it to the first. (A folder in a folder
// for each call would make paths too long for some programs: Chromium's socket path, for one, must stay under 108
// characters.)
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Names the folder a global setup of this run made, for the calls after it. */
const MARK = 'STOPWISE_SUITE_TMPDIR';

export default function setup(): () => void {
  const made = process.env[MARK];
  if (made !== undefined && existsSync(made) && process.env.TMPDIR === made) return () => undefined;
  const folder = mkdtempSync(join(tmpdir(), 'stopwise-suite-'));
  process.env[MARK] = folder;
  process.env.TMPDIR = folder;
  process.env.TMP = folder;
  process.env.TEMP = folder;
  return () => {
    const left = readdirSync(folder).filter((name) => name.startsWith('stopwise-'));
    rmSync(folder, { recursive: true, force: true });
    if (left.length > 0) {
      process.exitCode = 1;
      throw new Error(`the suite left ${left.length} temporary folder(s) behind (each test must remove what it creates): ${left.slice(0, 20).join(', ')}`);
    }
  };
}
