// The hooks' own overhead, for exactly what `stopwise init` installs: the package is packed (`npm pack`)
// and installed from the tarball into a new project, `stopwise init` of that install writes each host's
// settings and launcher there, and the hook command it wrote runs through `sh -c` with the host's
// project variable set, as the host runs it (decisionModel.client none, a test command that exits at
// once, a new session each run so the test command always runs). Next to it, interleaved (each round in an
// order of its own): a bare `node -e ""`, the npx fallback, and the same hook through the library entry
// (`runHook` from dist/hosts.js, its dependencies loaded as separate modules), which is what the command's
// own bundle saves.
// With STOPWISE_BENCH_BASELINE=<tarball of another release>, that release's hooks run interleaved with these, for a
// before-and-after figure from one run (see baselineLaunches).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSeededRandom, shuffleInPlace } from '../src/calibrate/seeded-random.js';
import { printTable } from './harness.js';

const ROOT = join(import.meta.dirname, '..');
const RUNS = 60;
const WARMUP = 5;

interface Launch {
  readonly name: string;
  readonly file: string;
  readonly args: readonly string[];
  /** What it reads on stdin: a stop of a new session each run, or a tool call of the bench's one agent session. */
  readonly input: () => string;
  /** What the host reads as "let the agent stop" or "let the call go ahead" on stdout. */
  readonly allows: (stdout: string) => boolean;
  /** Where it runs, and its own environment (a baseline's project), instead of the bench's project. */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

const silent = (stdout: string): boolean => stdout === '';
function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (position - low);
}

/** Installs `tarball` (default: this checkout, packed) into a new project folder `name`; returns the folder. */
function installPackedPackage(work: string, name = 'project', tarball = packThisCheckout(work)): string {
  const project = join(work, name);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'hook-bench-project', version: '1.0.0', private: true }));
  try {
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', tarball], {
      cwd: project,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    throw new Error(`could not install the packed tarball into a new project (npm install needs the registry or its cache for the dependencies): ${(error as Error).message}`);
  }
  return project;
}

function packThisCheckout(work: string): string {
  const packs = join(work, 'pack');
  mkdirSync(packs);
  execFileSync('npm', ['pack', '--silent', '--pack-destination', packs], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const [tarball] = readdirSync(packs).filter((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error('npm pack wrote no tarball');
  return join(packs, tarball);
}

/** The command of the first stopwise hook entry `init` wrote for `event` in a settings file. */
function installedCommand(project: string, settingsFile: string, event: string): string {
  const settings = JSON.parse(readFileSync(join(project, settingsFile), 'utf8')) as { hooks: Record<string, unknown[]> };
  const entries = settings.hooks[event] ?? [];
  for (const entry of entries as { command?: string; hooks?: { command?: string }[] }[]) {
    const command = entry.command ?? entry.hooks?.[0]?.command;
    if (command !== undefined && command.includes('stopwise')) return command;
  }
  throw new Error(`${settingsFile} has no stopwise hook on ${event}`);
}

export default async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'stopwise-hook-bench-'));
  try {
    const project = installPackedPackage(work);
    // no decision model (the default), in words an earlier release reads too
    const config = JSON.stringify({ tests: { command: 'printf', args: ['TAP version 13\n1..1\nok 1 - passes\n'] } });
    writeFileSync(join(project, 'stopwise.config.json'), config);
    const bin = join(project, 'node_modules/stopwise/dist/bin/stopwise.js');
    for (const host of ['claude-code', 'codex', 'cursor']) execFileSync(process.execPath, [bin, 'init', host], { cwd: project, stdio: ['ignore', 'ignore', 'inherit'] });
    const claude = installedCommand(project, '.claude/settings.json', 'Stop');
    const codex = installedCommand(project, '.codex/hooks.json', 'Stop');
    const cursor = installedCommand(project, '.cursor/hooks.json', 'stop');
    const library = join(project, 'library-hook.mjs');
    const hosts = pathToFileURL(join(project, 'node_modules/stopwise/dist/hosts.js')).href;
    writeFileSync(
      library,
      `import { readFileSync } from 'node:fs';\nconst { runHook } = await import(${JSON.stringify(hosts)});\n` +
        `const run = await runHook('claude-code', readFileSync(0, 'utf8'));\nprocess.stdout.write(run.stdout);\nprocess.exitCode = run.exitCode;\n`,
    );

    const env = { ...process.env, NODE_TEST_CONTEXT: undefined, CLAUDE_PROJECT_DIR: project, CURSOR_PROJECT_DIR: project };
    const guarded = subProject(project, 'guarded', { toolGuard: { ladder: { nudges: 2 } } });
    let session = 0;
    const claudeStop = (): string => JSON.stringify({ session_id: `bench-${session++}`, cwd: project, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' });
    const cursorStop = (): string =>
      JSON.stringify({ conversation_id: `bench-${session++}`, generation_id: 'g', workspace_roots: [project], hook_event_name: 'stop', status: 'completed', loop_count: 0 });
    const launches: Launch[] = [
      { name: 'node -e ""', file: process.execPath, args: ['-e', ''], input: () => '', allows: silent },
      { name: 'init for Claude Code, Stop: sh -c <command>', file: 'sh', args: ['-c', claude], input: claudeStop, allows: silent },
      { name: 'init for Codex, Stop: sh -c <command>', file: 'sh', args: ['-c', codex], input: claudeStop, allows: silent },
      { name: 'init for Cursor, stop: sh -c <command>', file: 'sh', args: ['-c', cursor], input: cursorStop, allows: (stdout) => stdout.trim() === '{}' },
      { name: 'npx --offline --no-install stopwise hook claude-code (fallback)', file: 'npx', args: ['--offline', '--no-install', 'stopwise', 'hook', 'claude-code'], input: claudeStop, allows: silent },
      { name: 'runHook via dist/hosts.js', file: process.execPath, args: [library], input: claudeStop, allows: silent },
      { name: 'init for Claude Code, PostToolUse (tool guard)', file: 'sh', args: ['-c', installedCommand(project, '.claude/settings.json', 'PostToolUse')], input: () => toolInput(project, 'post'), allows: silent },
      { name: 'init for Claude Code, PreToolUse (tool guard)', file: 'sh', args: ['-c', installedCommand(project, '.claude/settings.json', 'PreToolUse')], input: () => toolInput(project, 'pre'), allows: silent },
      // What the configuration's schema costs a tool event whose configuration sets tool-guard keys (it is loaded then).
      { name: 'PostToolUse, with tool-guard settings', file: 'sh', args: ['-c', installedCommand(project, '.claude/settings.json', 'PostToolUse')], input: () => toolInput(guarded, 'post'), allows: silent },
    ];
    launches.push(...baselineLaunches(work, config));
    const time = (launch: Launch): number => {
      const input = launch.input();
      const started = process.hrtime.bigint();
      const result = spawnSync(launch.file, launch.args, { cwd: launch.cwd ?? project, input, encoding: 'utf8', env: { ...env, ...launch.env } });
      const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
      if (result.status !== 0 || !launch.allows(result.stdout)) throw new Error(`${launch.name} did not let the agent go on (exit ${result.status}): ${result.stdout}${result.stderr}`);
      return elapsed;
    };

    const samples = launches.map(() => [] as number[]);
    // Each round runs every launch once, in an order of its own: in a fixed order each launch would always follow the
    // same one, and what a launch leaves behind (a busy disk, a cold cache) would always weigh on the same next one.
    const random = createSeededRandom(RUNS);
    for (let i = 0; i < WARMUP + RUNS; i++) {
      for (const index of shuffleInPlace(launches.map((_, k) => k), random)) {
        const elapsed = time(launches[index] as Launch);
        if (i >= WARMUP) samples[index]?.push(elapsed);
      }
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
    const median = (name: string): number => quantile(samples[launches.findIndex((launch) => launch.name === name)] ?? [], 0.5);
    const installed = median('init for Claude Code, Stop: sh -c <command>');
    console.log(`\nratio of medians (the command init installs for Claude Code, Stop / bare node): ${(installed / bare).toFixed(2)} (target <= 2.0)`);
    console.log(`the hook's own work beyond a bare node start-up: ${(installed - bare).toFixed(1)} ms`);
    for (const event of ['PostToolUse', 'PreToolUse']) {
      const tool = median(`init for Claude Code, ${event} (tool guard)`);
      console.log(`ratio of medians (${event}, the command init installs / bare node): ${(tool / bare).toFixed(2)} (goal <= 1.5); beyond bare node: ${(tool - bare).toFixed(1)} ms`);
    }
    for (const [event, ours] of [['Stop', installed], ['PostToolUse', median('init for Claude Code, PostToolUse (tool guard)')], ['PreToolUse', median('init for Claude Code, PreToolUse (tool guard)')]] as const) {
      const baseline = launches.find((launch) => launch.name.startsWith('baseline') && launch.name.endsWith(event));
      if (baseline !== undefined) console.log(`${event}, in the same run: this checkout ${(ours / bare).toFixed(2)}× bare node, ${baseline.name.replace(/, \w+$/, '')} ${(median(baseline.name) / bare).toFixed(2)}×`);
    }
    const guardedTool = median('PostToolUse, with tool-guard settings');
    console.log(`the configuration's schema on a tool event with tool-guard settings: ${(guardedTool - median('init for Claude Code, PostToolUse (tool guard)')).toFixed(1)} ms more than one without`);
    await toolStateSize(project);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

let toolCall = 0;

/**
 * With `STOPWISE_BENCH_BASELINE` set to the tarball of another release (`npm pack` of its checkout), its Stop and tool
 * events as `init claude-code` of that release installs them, interleaved with this checkout's: the same machine and
 * load, for a before-and-after figure. Without it, none.
 */
function baselineLaunches(work: string, config: string): Launch[] {
  const tarball = process.env.STOPWISE_BENCH_BASELINE;
  if (tarball === undefined || tarball === '') return [];
  const project = installPackedPackage(work, 'baseline', tarball);
  writeFileSync(join(project, 'stopwise.config.json'), config);
  const { version } = JSON.parse(readFileSync(join(project, 'node_modules/stopwise/package.json'), 'utf8')) as { version: string };
  execFileSync(process.execPath, [join(project, 'node_modules/stopwise/dist/bin/stopwise.js'), 'init', 'claude-code'], { cwd: project, stdio: ['ignore', 'ignore', 'inherit'] });
  const command = (event: string): string[] => ['-c', installedCommand(project, '.claude/settings.json', event)];
  const env = { CLAUDE_PROJECT_DIR: project };
  let session = 0;
  const stop = (): string => JSON.stringify({ session_id: `baseline-${session++}`, cwd: project, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' });
  return [
    { name: `baseline ${version}, Stop`, file: 'sh', args: command('Stop'), input: stop, allows: silent, cwd: project, env },
    { name: `baseline ${version}, PostToolUse`, file: 'sh', args: command('PostToolUse'), input: () => toolInput(project, 'post'), allows: silent, cwd: project, env },
    { name: `baseline ${version}, PreToolUse`, file: 'sh', args: command('PreToolUse'), input: () => toolInput(project, 'pre'), allows: silent, cwd: project, env },
  ];
}
/** A folder of the project with a configuration of its own (the project's, with `extra`): a hook run there reads it. */
function subProject(project: string, name: string, extra: Record<string, unknown>): string {
  const dir = join(project, name);
  mkdirSync(dir, { recursive: true });
  const config = JSON.parse(readFileSync(join(project, 'stopwise.config.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ ...config, ...extra }));
  return dir;
}


/**
 * A Claude Code tool hook input of the bench's one agent session: every call
 * is a new command failing with a 2 KB output, so the state holds as many
 * distinct calls as it keeps and the guard lets each one go ahead (a cycle of
 * the same calls and results would be a stall the guard acts on).
 */
function toolInput(project: string, phase: 'pre' | 'post'): string {
  const n = toolCall++;
  const command = `npm test -- --grep case-${n}`;
  const common = { session_id: 'bench-tools', cwd: project, transcript_path: join(project, 't.jsonl'), permission_mode: 'default', tool_name: 'Bash', tool_use_id: `call-${n}` };
  if (phase === 'pre') return JSON.stringify({ ...common, hook_event_name: 'PreToolUse', tool_input: { command } });
  const output = `${'x'.repeat(2048)}\nError: case ${n} failed`;
  return JSON.stringify({ ...common, hook_event_name: 'PostToolUse', tool_input: { command }, tool_response: { stdout: output, stderr: '', interrupted: false } });
}

/**
 * The size of a session's state after 1,000 tool calls (a PreToolUse and a
 * PostToolUseFailure each, 100 KB outputs, 60 distinct commands failing in
 * turn), run through `runHook` of the installed package in this process: the
 * figure is the session's state file on disk.
 */
async function toolStateSize(project: string): Promise<void> {
  const hosts = (await import(pathToFileURL(join(project, 'node_modules/stopwise/dist/hosts.js')).href)) as typeof import('../src/hosts/index.js');
  const stateDir = join(project, '.stopwise/state');
  const before = new Set(readdirSync(stateDir));
  const big = 'y'.repeat(100 * 1024);
  for (let n = 0; n < 1000; n++) {
    const command = `make check-${n % 60}`;
    const base = { session_id: 'bench-size', cwd: project, tool_name: 'Bash', tool_input: { command } };
    for (const raw of [
      { ...base, hook_event_name: 'PreToolUse' },
      { ...base, hook_event_name: 'PostToolUseFailure', error: `Exit code 2\n${big}\nmake: *** [check-${n % 60}] Error ${n % 7}` },
    ]) {
      const run = await hosts.runHook('claude-code', JSON.stringify(raw), { cwd: project });
      if (run.exitCode !== 0) throw new Error(run.stderr);
    }
  }
  const files = readdirSync(stateDir).filter((name) => name.endsWith('.json') && !before.has(name));
  if (files.length !== 1) throw new Error(`expected one new session state file, found ${files.length}`);
  console.log(`session state after 1,000 tool calls (100 KB outputs): ${statSync(join(stateDir, files[0] as string)).size} bytes (goal <= 16384)`);
}
