// The stop hook's own overhead, for exactly what `stopwise init` installs: the package is packed
// (`npm pack`) and installed from the tarball into a new project, and the hook command init writes
// into .claude/settings.json runs there through `sh -c` with CLAUDE_PROJECT_DIR set, as Claude Code
// runs it (judge.client none, a test command that exits at once, a new session each run so the test
// command always runs). Next to it, interleaved: a bare `node -e ""`, the command init writes for
// Codex and Cursor, the npx fallback, and the same hook through the library entry (`runStopHook`
// from dist/hosts.js, its dependencies loaded as separate modules), which is what the command's own
// bundle saves.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stopHookCommand } from '../src/hosts/install-stop-hook.js';
import { printTable } from './harness.js';

const ROOT = join(import.meta.dirname, '..');
const RUNS = 60;
const WARMUP = 5;

interface Launch {
  readonly name: string;
  readonly file: string;
  readonly args: readonly string[];
  /** Whether it reads a Stop hook input (a new session each run). */
  readonly hook: boolean;
  /** A tool hook input instead (one session for every run, as the calls of one agent). */
  readonly tool?: () => string;
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
      { name: 'init for Claude Code, PostToolUse (tool guard)', file: 'sh', args: ['-c', stopHookCommand('claude-code', 'linux')], hook: false, tool: () => toolInput(project, 'post') },
      { name: 'init for Claude Code, PreToolUse (tool guard)', file: 'sh', args: ['-c', stopHookCommand('claude-code', 'linux')], hook: false, tool: () => toolInput(project, 'pre') },
    ];
    let session = 0;
    const time = (launch: Launch): number => {
      const input = launch.tool?.() ?? (launch.hook
        ? JSON.stringify({ session_id: `bench-${session++}`, cwd: project, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' })
        : '');
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
    for (const [index, event] of [[launches.length - 2, 'PostToolUse'], [launches.length - 1, 'PreToolUse']] as const) {
      const median = quantile(samples[index] ?? [], 0.5);
      console.log(`ratio of medians (${event}, the command init installs / bare node): ${(median / bare).toFixed(2)} (goal <= 1.5); beyond bare node: ${(median - bare).toFixed(1)} ms`);
    }
    await toolStateSize(project);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

let toolCall = 0;

/**
 * A Claude Code tool hook input of the bench's one agent session: the calls
 * cycle through 40 commands, each failing with a 2 KB output, so the state
 * holds as many distinct calls as it keeps.
 */
function toolInput(project: string, phase: 'pre' | 'post'): string {
  const n = toolCall++;
  const command = `npm test -- --grep case-${n % 40}`;
  const common = { session_id: 'bench-tools', cwd: project, transcript_path: join(project, 't.jsonl'), permission_mode: 'default', tool_name: 'Bash', tool_use_id: `call-${n}` };
  if (phase === 'pre') return JSON.stringify({ ...common, hook_event_name: 'PreToolUse', tool_input: { command } });
  const output = `${'x'.repeat(2048)}\nError: case ${n % 40} failed`;
  return JSON.stringify({ ...common, hook_event_name: 'PostToolUse', tool_input: { command }, tool_response: { stdout: output, stderr: '', interrupted: false } });
}

/**
 * The size of a session's tool guard state after 1,000 tool calls (a
 * PreToolUse and a PostToolUse each, 100 KB outputs, 60 distinct commands
 * failing in turn), run through `runToolHook` of the installed package in
 * this process: the figure is the file on disk.
 */
async function toolStateSize(project: string): Promise<void> {
  const hosts = (await import(pathToFileURL(join(project, 'node_modules/stopwise/dist/hosts.js')).href)) as typeof import('../src/hosts/index.js');
  const big = 'y'.repeat(100 * 1024);
  for (let n = 0; n < 1000; n++) {
    const command = `make check-${n % 60}`;
    const base = { session_id: 'bench-size', cwd: project, tool_name: 'Bash', tool_input: { command } };
    for (const raw of [
      { ...base, hook_event_name: 'PreToolUse' },
      { ...base, hook_event_name: 'PostToolUseFailure', error: `Exit code 2\n${big}\nmake: *** [check-${n % 60}] Error ${n % 7}` },
    ]) {
      const input = hosts.parseToolHookInput('claude-code', raw);
      if (input === undefined) throw new Error('the bench input is not a tool event');
      const run = await hosts.runToolHook('claude-code', input, { cwd: project });
      if (run.exitCode !== 0) throw new Error(run.stderr);
    }
  }
  const stateDir = join(project, '.stopwise/state');
  const files = readdirSync(stateDir).filter((name) => name.endsWith('.tools.json'));
  const sizes = files.map((name) => statSync(join(stateDir, name)).size);
  console.log(`tool guard state after 1,000 tool calls (100 KB outputs): ${Math.max(...sizes)} bytes (goal <= 16384)`);
}
