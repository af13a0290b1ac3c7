// `npm run check:package`: packs the package once, into a folder of its own, so that no tarball in the project folder
// is written, overwritten or deleted; checks the packed file list npm reports against scripts/package-files.txt, then
// lints that same tarball with publint and @arethetypeswrong/cli.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkPackedFiles, readExpectedFiles } from './packed-files.js';

const folder = mkdtempSync(join(tmpdir(), 'stopwise-pack-'));
let code = 0;
try {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--silent', '--pack-destination', folder], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
  ) as [{ filename: string; files: { path: string }[] }];
  const problems = checkPackedFiles(
    packed[0].files.map((file) => file.path),
    readExpectedFiles(readFileSync(join(import.meta.dirname, 'package-files.txt'), 'utf8')),
  );
  if (problems.length > 0) {
    console.error(`the packed files differ from scripts/package-files.txt:\n${problems.join('\n')}`);
    code = 1;
  }
  const path = join(folder, packed[0].filename);
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
if (code !== 0) process.exitCode = code;
