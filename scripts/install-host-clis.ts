// `tsx scripts/install-host-clis.ts`: installs the coding-agent CLIs the host end-to-end suite runs (Claude Code,
// Codex, Gemini CLI, Copilot CLI) at the exact versions pinned in test/e2e/hosts/clis/package-lock.json, with
// `npm ci --ignore-scripts` (no install script of theirs is needed, and nothing but the npm registry is asked).
// It does nothing when the installed tree was made from the same lockfile and every CLI has its pinned version.
// A failed install is an error under CI=true; elsewhere it is one line on stderr, and the suite skips the hosts
// it cannot run, saying why.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const folder = join(import.meta.dirname, '../test/e2e/hosts/clis');
/** Written after a successful install: the digest of the lockfile it installed. */
const STAMP = join(folder, 'node_modules/.stopwise-installed.json');

const lockText = readFileSync(join(folder, 'package-lock.json'), 'utf8');
const digest = createHash('sha256').update(lockText).digest('hex');
const pinned = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;

/** The pinned CLIs whose installed version differs from the pin, or that are not installed. */
function outdated(): string[] {
  return Object.entries(pinned).flatMap(([name, version]) => {
    const manifest = join(folder, 'node_modules', name, 'package.json');
    const installed = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version : undefined;
    return installed === version ? [] : [`${name} ${installed ?? 'missing'} (pinned ${version})`];
  });
}

function installedFromThisLock(): boolean {
  if (!existsSync(STAMP)) return false;
  try {
    return (JSON.parse(readFileSync(STAMP, 'utf8')) as { lockfile?: string }).lockfile === digest && outdated().length === 0;
  } catch {
    return false;
  }
}

if (installedFromThisLock()) {
  console.log(`host CLIs: installed at the pinned versions (${Object.entries(pinned).map(([name, version]) => `${name}@${version}`).join(', ')})`);
} else {
  const started = Date.now();
  try {
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: ['ignore', 'inherit', 'inherit'] });
    const left = outdated();
    if (left.length > 0) throw new Error(`npm ci left ${left.join(', ')}`);
    writeFileSync(STAMP, `${JSON.stringify({ lockfile: digest }, null, 2)}\n`);
    console.log(`host CLIs: installed in ${((Date.now() - started) / 1000).toFixed(1)} s (${Object.keys(pinned).join(', ')})`);
  } catch (error) {
    const message = `host CLIs: the install failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
    if (process.env.CI === 'true') {
      console.error(message);
      process.exitCode = 1;
    } else {
      console.error(`${message}; the host suite skips the hosts it cannot run`);
    }
  }
}
