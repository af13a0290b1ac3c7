// `npm run check:package`: checks the packed file list against scripts/package-files.txt, then packs the
// package once into a folder of its own and lints that tarball with publint and @arethetypeswrong/cli, so that
// no tarball in the project folder is written, overwritten or deleted.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkPackedFiles, readExpectedFiles } from './packed-files.js';

const listed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--silent'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })) as [
  { files: { path: string }[] },
];
const problems = checkPackedFiles(
  listed[0].files.map((file) => file.path),
  readExpectedFiles(readFileSync(join(import.meta.dirname, 'package-files.txt'), 'utf8')),
);
if (problems.length > 0) {
  console.error(`the packed files differ from scripts/package-files.txt:\n${problems.join('\n')}`);
  process.exitCode = 1;
}

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
if (code !== 0) process.exitCode = code;
