import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MemorySaver } from '@langchain/langgraph';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDurableGraph, DURABLE_SCRIPT, threadConfig, type DecidedLine } from '../../fixtures/langgraph/durable-graph.js';
import { findPostgres, startPostgres, type PostgresServer } from '../../support/postgres.js';
import { required, skipWithout } from '../../support/prerequisite.js';

const root = join(import.meta.dirname, '../../..');

/** How many kill-and-resume rounds run in a row, each killing the run at another node and step. */
const ROUNDS = 10;

const postgres = findPostgres();
const skip = skipWithout(postgres, import.meta.filename);

/**
 * The two programs the child processes run, compiled once to JavaScript so that each of the two dozen processes
 * starts on plain Node rather than on a TypeScript loader: the fixture script bundled whole, the example with its
 * imports of packages left as they are, so that it runs against the built package (`stopwise` resolves to dist/).
 * Both go to a folder inside the project, where the packages resolve; it is removed afterwards.
 */
async function compileChildPrograms(folder: string): Promise<{ run: string; example: string }> {
  const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' } as const;
  const run = join(folder, 'durable-run.mjs');
  const example = join(folder, 'durable-langgraph.mjs');
  await Promise.all([
    build({
      ...common,
      entryPoints: [join(root, 'test/fixtures/langgraph/durable-run.ts')],
      outfile: run,
      // pg loads its native binding only when asked to; its CommonJS require()s need a require in the bundle.
      external: ['pg-native'],
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    }),
    build({ ...common, entryPoints: [join(root, 'examples/durable-langgraph.ts')], outfile: example, packages: 'external' }),
  ]);
  return { run, example };
}

interface Child {
  readonly process: ChildProcess;
  readonly lines: string[];
  /** Resolves with the first line that starts with `prefix`; rejects if the process ends first. */
  waitFor(prefix: string): Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function startChild(server: PostgresServer, program: string, args: readonly string[]): Child {
  const child = spawn(process.execPath, [program, ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: server.url },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { prefix: string; resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const waiter of waiters.splice(0)) {
      if (line.startsWith(waiter.prefix)) waiter.resolve(line);
      else waiters.push(waiter);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    // 'close' comes after the output streams have ended, so every line has been read.
    child.on('close', (code, signal) => {
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(`the child ended (${code ?? signal}) before printing "${waiter.prefix}":\n${stderr}`));
      resolve({ code, signal, stderr });
    });
  });
  return {
    process: child,
    lines,
    exited,
    waitFor: (prefix) => {
      const seen = lines.find((line) => line.startsWith(prefix));
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve, reject) => waiters.push({ prefix, resolve, reject }));
    },
  };
}

let compiledIn: string | undefined;
let compiledPrograms: { run: string; example: string } | undefined;
const programs = (): { run: string; example: string } => {
  if (compiledPrograms === undefined) throw new Error('the child programs were not compiled');
  return compiledPrograms;
};

const decided = (lines: readonly string[]): DecidedLine[] =>
  lines.filter((line) => line.startsWith('decided ')).map((line) => JSON.parse(line.slice('decided '.length)) as DecidedLine);

const runScript = (server: PostgresServer, threadId: string, pauseAt?: string): Child =>
  startChild(server, programs().run, [threadId, ...(pauseAt === undefined ? [] : [pauseAt])]);

async function runToEnd(server: PostgresServer, threadId: string): Promise<string[]> {
  const child = runScript(server, threadId);
  const { code, stderr } = await child.exited;
  expect(code, stderr).toBe(0);
  return child.lines;
}

const title = 'durable stop state: a LangGraph graph on PostgreSQL, killed with SIGKILL and resumed in a new process';
describe.skipIf(skip)(title, () => {
  let server: PostgresServer | undefined;
  let reference: DecidedLine[] = [];

  beforeAll(async () => {
    mkdirSync(join(root, 'test/.out'), { recursive: true });
    compiledIn = mkdtempSync(join(root, 'test/.out/durable-postgres-'));
    // Outside CI a missing PostgreSQL skipped this block; in CI it fails here with the reason.
    const [started, compiled] = await Promise.allSettled([startPostgres(required(postgres)), compileChildPrograms(compiledIn)]);
    if (started.status === 'fulfilled') server = started.value;
    if (compiled.status === 'fulfilled') compiledPrograms = compiled.value;
    for (const settled of [started, compiled]) if (settled.status === 'rejected') throw settled.reason;
  }, 120_000);

  afterAll(async () => {
    try {
      await server?.stop();
    } finally {
      if (compiledIn !== undefined) rmSync(compiledIn, { recursive: true, force: true });
    }
  }, 60_000);

  const db = (): PostgresServer => {
    if (server === undefined) throw new Error('the PostgreSQL server did not start');
    return server;
  };

  it('runs the script uninterrupted in a child process, deciding as the same graph in process with MemorySaver', async () => {
    const lines = await runToEnd(db(), 'reference');
    expect(lines[0]).toBe('started');
    reference = decided(lines);
    expect(reference.map((line) => `${line.step} ${line.kind} ${line.reason}`)).toEqual([
      '1 continue no_rule_fired',
      '2 retry done_on_red',
      '3 retry done_on_red',
      '4 continue no_rule_fired',
      '5 continue no_rule_fired',
      '6 continue no_rule_fired',
      '7 continue no_rule_fired',
      '8 retry done_on_red',
      '9 retry done_on_red',
      '10 stop blocked_three_times',
    ]);
    expect(lines.slice(-2)).toEqual(['ended human', 'final {"outcome":"human","next":[]}']);
    const last = reference.at(-1) as DecidedLine;
    expect(last.state.totals.cost).toBeCloseTo(0.95, 10);
    expect(last.state.retries).toBe(0);
    expect(reference[8]?.state.retries).toBe(2);

    const inProcess: string[] = [];
    await buildDurableGraph(new MemorySaver(), { log: (line) => inProcess.push(line) }).invoke({}, threadConfig('memory'));
    expect(decided(inProcess)).toEqual(reference);
  }, 120_000);

  it.for(Array.from({ length: ROUNDS }, (_, round) => round))(
    'round %i: the counters go on from the checkpoint and the decisions equal the uninterrupted run',
    { timeout: 180_000 },
    async (round) => {
      expect(reference).toHaveLength(DURABLE_SCRIPT.length);
      const node = round % 2 === 0 ? 'turn' : 'stop';
      const step = 1 + (round % DURABLE_SCRIPT.length);
      const thread = `round-${round}`;

      const first = runScript(db(), thread, `${node}:${step}`);
      await first.waitFor(`paused ${node} ${step}`);
      first.process.kill('SIGKILL');
      const killed = await first.exited;
      expect(killed.signal).toBe('SIGKILL');
      const before = decided(first.lines);
      // The run was cut in the middle: every step before the pause was decided, the paused one was not.
      expect(before.map((line) => line.step)).toEqual(Array.from({ length: step - 1 }, (_, i) => i + 1));

      const lines = await runToEnd(db(), thread);
      expect(lines[0]).toMatch(/^resumed /);
      const resumed = JSON.parse(lines[0]?.slice('resumed '.length) ?? 'null') as DecidedLine['state'] | null;
      // The checkpoint holds the engine state of the last step decided before the kill: step, spend, stall window, retries.
      expect(resumed).toEqual(before.at(-1)?.state ?? null);
      const after = decided(lines);
      expect(after[0]?.step).toBe(step);
      if (resumed !== null) {
        expect(after[0]?.state.step).toBe(resumed.step + 1);
        expect(after[0]?.state.totals.cost).toBeCloseTo(resumed.totals.cost + 0.095, 10);
        // The stall window slides on from the checkpointed one: its older entries are the newest it had.
        const window = after[0]?.state.fingerprints ?? [];
        expect(window.length).toBeGreaterThan(1);
        expect(window.slice(0, -1)).toEqual(resumed.fingerprints.slice(-(window.length - 1)));
      }
      expect([...before, ...after]).toEqual(reference);
      expect(lines.at(-1)).toBe('final {"outcome":"human","next":[]}');
    },
  );

  it('runs examples/durable-langgraph.ts against the built package: it crashes at turn 3, resumes, and ends as a whole run does', async () => {
    const runExample = async (...args: string[]) => {
      const child = startChild(db(), programs().example, args);
      return { ...(await child.exited), lines: child.lines };
    };
    const whole = await runExample('example-whole');
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.lines[0]).toBe('thread example-whole: starting');
    expect(whole.lines.filter((line) => / at step \d+ /.test(line))).toEqual([
      'retry at step 1 by rule no_tests_ran: no tests ran',
      'retry at step 2 by rule tests_failed: 1 test failed: paginate > last page',
      'retry at step 3 by rule tests_failed: 1 test failed: paginate > last page',
      'retry at step 4 by rule not_yet (criteria_unmet)',
      'stop (success) at step 5 by rule done (tests_and_criteria_passed): lowest criterion noOpenQuestions = 0.9 >= 0.8',
    ]);
    expect(whole.lines.filter((line) => line.startsWith('  so far: '))).toEqual([
      '  so far: cost 0.12, decision model calls 0, retries in a row 1',
      '  so far: cost 0.24, decision model calls 0, retries in a row 2',
      '  so far: cost 0.36, decision model calls 0, retries in a row 3',
      '  so far: cost 0.482, decision model calls 1, retries in a row 4',
      '  so far: cost 0.604, decision model calls 2, retries in a row 0',
    ]);
    expect(whole.lines.at(-1)).toBe('ended: success after 5 steps');

    const crashed = await runExample('example', '--crash-at', '3');
    expect(crashed.signal).toBe('SIGKILL');
    const resumed = await runExample('example');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.lines[0]).toBe('thread example: resuming after step 2 (cost 0.24, retries in a row 2)');
    const body = (lines: readonly string[]) => lines.filter((line) => !line.startsWith('thread '));
    expect([...body(crashed.lines), ...body(resumed.lines)]).toEqual(body(whole.lines));
    const again = await runExample('example');
    expect(again.lines).toEqual(['thread example already ended: success']);
  }, 180_000);

  it('keeps one stop state per decided step in the checkpoint tables, a few hundred bytes each', async () => {
    const rows = await db().query(
      "select channel, count(*), min(octet_length(blob)), max(octet_length(blob)), round(avg(octet_length(blob))) from checkpoint_blobs where thread_id = 'reference' and channel like 'stop%' group by channel order by channel",
    );
    const [checkpoints] = await db().query(
      "select count(*), min(pg_column_size(checkpoint)), max(pg_column_size(checkpoint)), round(avg(pg_column_size(checkpoint) + pg_column_size(metadata))) from checkpoints where thread_id = 'reference'",
    );
    const [blobs] = await db().query("select count(*), sum(octet_length(blob)) from checkpoint_blobs where thread_id = 'reference'");
    const byChannel: Record<string, { versions: number; min: number; max: number; avg: number }> = Object.fromEntries(
      rows.map(([channel, count, min, max, avg]) => [channel, { versions: Number(count), min: Number(min), max: Number(max), avg: Number(avg) }]),
    );
    console.log(
      [
        `stop state per checkpoint, thread "reference" (${DURABLE_SCRIPT.length} decisions):`,
        ...Object.entries(byChannel).map(([channel, size]) => `  ${channel}: ${size.versions} versions, ${size.min}-${size.max} bytes (mean ${size.avg})`),
        `  checkpoint rows: ${checkpoints?.[0]} rows, checkpoint jsonb ${checkpoints?.[1]}-${checkpoints?.[2]} bytes, with metadata mean ${checkpoints?.[3]} bytes`,
        `  all channel blobs of the thread: ${blobs?.[0]} blobs, ${blobs?.[1]} bytes`,
      ].join('\n'),
    );
    // One new engine state and one decision per decided step, one event per turn: each is written when it changes.
    expect(byChannel.stopState?.versions).toBe(DURABLE_SCRIPT.length);
    expect(byChannel.stopDecision?.versions).toBe(DURABLE_SCRIPT.length);
    expect(byChannel.stopEvent?.versions).toBe(DURABLE_SCRIPT.length);
    expect(byChannel.stopState?.max).toBeLessThanOrEqual(4096);
  });
});
