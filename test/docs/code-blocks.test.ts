import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AI_SDK_7_NODE,
  compilePrograms,
  docFiles,
  parseDocBlocks,
  programNodeArgs,
  typeCheckPrograms,
  writePrograms,
  type RunnableProgram,
  type WrittenProgram,
} from '../../scripts/doc-blocks.js';

// Every complete program in the README and docs/ is type-checked and run against the built package,
// so an example that drifts from the API fails here. Blocks marked `// fragment` are left out; a program
// for AI SDK 7 is checked against the `ai-v7` alias and runs on Node 22 or later only. The programs are
// type-checked together, in one TypeScript program per group, and run compiled to JavaScript, as many at a
// time as there are cores: each is a process of its own, and each makes its own temporary folders.
const root = resolve(import.meta.dirname, '../..');
mkdirSync(join(root, 'test/.out'), { recursive: true });
// A folder of this run's own inside the project (where "stopwise" resolves to the package), removed afterwards.
const outDir = mkdtempSync(join(root, 'test/.out/doc-blocks-'));
const programs = writePrograms(root, outDir);
const jsonBlocks = docFiles(root).flatMap((file) => parseDocBlocks(file, readFileSync(join(root, file), 'utf8')).filter((block) => block.lang === 'json'));
const nodeMajor = Number(process.versions.node.split('.')[0]);
const runsHere = (written: WrittenProgram): boolean => !written.block.aiSdk7 || nodeMajor >= AI_SDK_7_NODE;
if (programs.some((written) => !runsHere(written))) {
  process.stderr.write(`skipped: running the docs' AI SDK 7 programs needs Node ${AI_SDK_7_NODE} or later; this is Node ${process.versions.node} (they are still type-checked)\n`);
}

interface ProgramRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one compiled program to its end (killed after a minute), collecting what it prints. */
function runProgram(program: RunnableProgram): Promise<ProgramRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, programNodeArgs(root, program), { cwd: root, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolveRun({ status, signal, stdout, stderr });
    });
  });
}

/** Each program's run by its path, started in the background as many at a time as there are cores, in the order of the tests. */
const runs = new Map<string, Promise<ProgramRun>>();

beforeAll(async () => {
  const queue = await compilePrograms(root, programs.filter(runsHere));
  const settlers = new Map<string, { resolve: (run: ProgramRun) => void; reject: (error: unknown) => void }>();
  for (const program of queue) {
    const run = new Promise<ProgramRun>((resolveRun, reject) => settlers.set(program.path, { resolve: resolveRun, reject }));
    // A test that never awaits its run (one that failed before) must not leave a rejection unhandled.
    run.catch(() => undefined);
    runs.set(program.path, run);
  }
  const worker = async (): Promise<void> => {
    for (let program = queue.shift(); program !== undefined; program = queue.shift()) {
      const settle = settlers.get(program.path);
      await runProgram(program).then(settle?.resolve, settle?.reject);
    }
  };
  // Not awaited: each test below waits for its own program's run.
  void Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
}, 60_000);

afterAll(async () => {
  // Every run has ended before the folder of the programs goes.
  await Promise.allSettled(runs.values());
  rmSync(outDir, { recursive: true, force: true });
}, 120_000);

describe('the code blocks of the docs', () => {
  it('has programs to check, among them one for AI SDK 7', () => {
    expect(programs.length).toBeGreaterThan(0);
    expect(programs.some((written) => written.block.aiSdk7)).toBe(true);
  });

  it('type-checks every program against the built package, with strict checking', () => {
    expect(typeCheckPrograms(root, programs)).toEqual([]);
  }, 180_000);

  it.for(programs.map((written) => [`${written.block.file}:${written.block.line}`, written] as const))('runs %s', { timeout: 90_000 }, async ([, written], context) => {
    if (!runsHere(written)) context.skip();
    const run = runs.get(written.path);
    if (run === undefined) throw new Error('the program was not compiled');
    const result = await run;
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    if (written.block.output !== undefined) expect(result.stdout.trimEnd()).toBe(written.block.output.trimEnd());
  });

  it.each(jsonBlocks.map((block) => [`${block.file}:${block.line}`, block] as const))('parses the JSON of %s', (_, block) => {
    expect(() => JSON.parse(block.code)).not.toThrow();
  });
});
