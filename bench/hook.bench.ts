// The stop hook's own overhead: process start to decision for `stopwise hook
// claude-code` (judge.client none, a test command that exits at once), next
// to a bare `node -e ""`, measured in the same run, interleaved. A third row
// runs the same hook through the library entry (`runStopHook` from
// dist/hosts.js, its dependencies loaded as separate modules), which is what
// the command's own bundle saves.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { printTable } from './harness.js';

const CLI = join(import.meta.dirname, '../dist/bin/stopwise.js');
const HOSTS = pathToFileURL(join(import.meta.dirname, '../dist/hosts.js')).href;
const RUNS = 40;
const WARMUP = 5;

function time(args: readonly string[], cwd: string, input: string): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd, input, encoding: 'utf8', env: { ...process.env, NODE_TEST_CONTEXT: undefined, CLAUDE_PROJECT_DIR: undefined } });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return elapsed;
}

function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (position - low);
}

export default async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-hook-bench-'));
  try {
    writeFileSync(
      join(dir, 'stopwise.config.json'),
      JSON.stringify({ tests: { command: 'printf', args: ['TAP version 13\n1..1\nok 1 - passes\n'] }, judge: { client: 'none' } }),
    );
    // A new session every run: the first stop of a session always runs the test command (no earlier pass to reuse).
    const input = (run: number) =>
      JSON.stringify({ session_id: `bench-${run}`, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' });
    const probe = spawnSync(process.execPath, [CLI, 'hook', 'claude-code'], { cwd: dir, input: input(-1), encoding: 'utf8' });
    if (probe.status !== 0 || probe.stdout !== '') throw new Error(`the hook did not allow the stop: ${probe.stdout}${probe.stderr}`);

    const library = join(dir, 'library-hook.mjs');
    writeFileSync(
      library,
      `import { readFileSync } from 'node:fs';\nconst { runStopHook } = await import(${JSON.stringify(HOSTS)});\n` +
        `const run = await runStopHook('claude-code', readFileSync(0, 'utf8'));\nprocess.stdout.write(run.stdout);\nprocess.exitCode = run.exitCode;\n`,
    );

    const bare: number[] = [];
    const hook: number[] = [];
    const unbundled: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const b = time(['-e', ''], dir, '');
      const h = time([CLI, 'hook', 'claude-code'], dir, input(2 * i));
      const u = time([library], dir, input(2 * i + 1));
      if (i >= WARMUP) {
        bare.push(b);
        hook.push(h);
        unbundled.push(u);
      }
    }
    for (const values of [bare, hook, unbundled]) values.sort((a, b) => a - b);
    const row = (name: string, values: number[]) => [
      name,
      quantile(values, 0.5).toFixed(1),
      quantile(values, 0.1).toFixed(1),
      quantile(values, 0.9).toFixed(1),
      (quantile(values, 0.5) / quantile(bare, 0.5)).toFixed(2),
    ];
    printTable(`stop hook start-up (${RUNS} interleaved runs, ms)`, ['process', 'median', 'p10', 'p90', '× bare'], [
      row('node -e ""', bare),
      row('stopwise hook claude-code', hook),
      row('runStopHook via dist/hosts.js', unbundled),
    ]);
    const ratio = quantile(hook, 0.5) / quantile(bare, 0.5);
    console.log(`\nratio of medians (hook / bare node): ${ratio.toFixed(2)} (target <= 2.0)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
