// The stop hook's own overhead, for exactly what `stopwise init` installs: the package is packed
// (`npm pack`) and installed from the tarball into a new project, and the hook command init writes
// into .claude/settings.json runs there through `sh -c` with CLAUDE_PROJECT_DIR set, as Claude Code
// runs it (judge.client none, a test command that exits at once, a new session each run so the test
// command always runs). Next to it, interleaved: a bare `node -e ""`, the command init writes for
// Codex and Cursor, the npx fallback, and the same hook through the library entry (`runStopHook`
// from dist/hosts.js, its dependencies loaded as separate modules), which is what the command's own
// bundle saves.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stopHookCommand } from '../src/hosts/install-stop-hook.js';
import { printTable } from './harness.js';

const ROOT = join(import.meta.dirname, '..');
const RUNS = 40;
const WARMUP = 5;

interface Launch {
  readonly name: string;
  readonly file: string;
  readonly args: readonly string[];
  /** Whether it reads a hook input (a new session each run). */
  readonly hook: boolean;
}

function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (position - low);
}

/** Packs this checkout and installs the tarball into a new project folder; returns the folder. */
function installPackedPackage(work: string): string {
  const packs = join(work, 'pack');
  mkdirSync(packs);
  execFileSync('npm', ['pack', '--silent', '--pack-destination', packs], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const [tarball] = readdirSync(packs).filter((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error('npm pack wrote no tarball');
  const project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'hook-bench-project', version: '1.0.0', private: true }));
  try {
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', join(packs, tarball)], {
      cwd: project,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    throw new Error(`could not install the packed tarball into a new project (npm install needs the registry or its cache for the dependencies): ${(error as Error).message}`);
  }
  return project;
}

export default async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'stopwise-hook-bench-'));
  try {
    const project = installPackedPackage(work);
    writeFileSync(
      join(project, 'stopwise.config.json'),
      JSON.stringify({ tests: { command: 'printf', args: ['TAP version 13\n1..1\nok 1 - passes\n'] }, judge: { client: 'none' } }),
    );
    const library = join(project, 'library-hook.mjs');
    const hosts = pathToFileURL(join(project, 'node_modules/stopwise/dist/hosts.js')).href;
    writeFileSync(
      library,
      `import { readFileSync } from 'node:fs';\nconst { runStopHook } = await import(${JSON.stringify(hosts)});\n` +
        `const run = await runStopHook('claude-code', readFileSync(0, 'utf8'));\nprocess.stdout.write(run.stdout);\nprocess.exitCode = run.exitCode;\n`,
    );

    const env = { ...process.env, NODE_TEST_CONTEXT: undefined, CLAUDE_PROJECT_DIR: project };
    const launches: Launch[] = [
      { name: 'node -e ""', file: process.execPath, args: ['-e', ''], hook: false },
      { name: 'init for Claude Code: sh -c <command>', file: 'sh', args: ['-c', stopHookCommand('claude-code', 'linux')], hook: true },
      { name: 'init for Codex and Cursor: sh -c <command>', file: 'sh', args: ['-c', stopHookCommand('codex', 'linux')], hook: true },
      { name: 'npx --offline --no-install stopwise hook claude-code (fallback)', file: 'npx', args: ['--offline', '--no-install', 'stopwise', 'hook', 'claude-code'], hook: true },
      { name: 'runStopHook via dist/hosts.js', file: process.execPath, args: [library], hook: true },
    ];
    let session = 0;
    const time = (launch: Launch): number => {
      const input = launch.hook
        ? JSON.stringify({ session_id: `bench-${session++}`, cwd: project, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' })
        : '';
      const started = process.hrtime.bigint();
      const result = spawnSync(launch.file, launch.args, { cwd: project, input, encoding: 'utf8', env });
      const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
      if (result.status !== 0 || result.stdout !== '') throw new Error(`${launch.name} did not allow the stop (exit ${result.status}): ${result.stdout}${result.stderr}`);
      return elapsed;
    };

    const samples = launches.map(() => [] as number[]);
    for (let i = 0; i < WARMUP + RUNS; i++) {
      launches.forEach((launch, index) => {
        const elapsed = time(launch);
        if (i >= WARMUP) samples[index]?.push(elapsed);
      });
    }
    for (const values of samples) values.sort((a, b) => a - b);
    const bare = quantile(samples[0] ?? [], 0.5);
    printTable(
      `stop hook start-up, stopwise installed from its packed tarball (${RUNS} interleaved runs, ms)`,
      ['process', 'median', 'p10', 'p90', '× bare'],
      launches.map((launch, index) => {
        const values = samples[index] ?? [];
        return [launch.name, quantile(values, 0.5).toFixed(1), quantile(values, 0.1).toFixed(1), quantile(values, 0.9).toFixed(1), (quantile(values, 0.5) / bare).toFixed(2)];
      }),
    );
    const installed = quantile(samples[1] ?? [], 0.5);
    console.log(`\nratio of medians (the command init installs for Claude Code / bare node): ${(installed / bare).toFixed(2)} (target <= 2.0)`);
    console.log(`the hook's own work beyond a bare node start-up: ${(installed - bare).toFixed(1)} ms`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
