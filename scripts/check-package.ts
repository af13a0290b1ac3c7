// `npm run check:package`: packs the package once into a folder of its own and lints that tarball with publint
// and @arethetypeswrong/cli, so that no tarball in the project folder is written, overwritten or deleted.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const folder = mkdtempSync(join(tmpdir(), 'stopwise-pack-'));
let code = 0;
try {
  execFileSync('npm', ['pack', '--pack-destination', folder, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = readdirSync(folder).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error('npm pack wrote no tarball');
  const path = join(folder, tarball);
  for (const [command, ...args] of [
    ['publint', 'run', path, '--strict'],
    ['attw', path, '--profile', 'esm-only'],
  ] as const) {
    try {
      execFileSync(command, args, { stdio: 'inherit' });
    } catch {
      code = 1;
    }
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
process.exitCode = code;
