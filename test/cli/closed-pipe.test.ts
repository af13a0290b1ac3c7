import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardClosedPipes, type OutputStream } from '../../src/cli/closed-pipe.js';
import { CLI, HOOK_FREE_ENV } from './run-cli.js';

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  readonly received: number;
}

/** Runs the built CLI with its standard output read by a reader that closes after the first chunk, like `| head -1`. */
function runIntoClosingReader(args: readonly string[]): Promise<Ended> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    let received = 0;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.once('data', (chunk: Buffer) => {
      received = chunk.length;
      child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr, received }));
  });
}

const WRITER = join(import.meta.dirname, '../fixtures/cli/closed-pipe-writer.ts');

/** Runs the guarded writer with the `closing` stream read by a reader that closes after the first chunk. */
function runWriter(closing: 'stdout' | 'stderr'): Promise<{ code: number | null; other: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, closing], { stdio: ['ignore', 'pipe', 'pipe'] });
  const [closed, kept] = closing === 'stdout' ? [child.stdout, child.stderr] : [child.stderr, child.stdout];
  return new Promise((resolve, reject) => {
    let other = '';
    kept.setEncoding('utf8').on('data', (text: string) => (other += text));
    closed.once('data', () => closed.destroy());
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, other }));
  });
}

/** Runs `stopwise hook <host>` on a project whose tests fail, with `closing` closed by its reader before the hook answers. */
async function hookIntoClosedStream(host: string, closing: 'stdout' | 'stderr'): Promise<{ code: number | null; signal: NodeJS.Signals | null; other: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-closed-pipe-'));
  try {
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: "printf 'TAP version 13\\n1..1\\nnot ok 1 - breaks\\n'" } }));
    const child = spawn(process.execPath, [CLI, 'hook', host], { cwd: dir, env: HOOK_FREE_ENV, stdio: ['pipe', 'pipe', 'pipe'] });
    const [closed, kept] = closing === 'stdout' ? [child.stdout, child.stderr] : [child.stderr, child.stdout];
    closed.destroy();
    let other = '';
    kept.setEncoding('utf8').on('data', (text: string) => (other += text));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal }));
    });
    const stop = host === 'cursor' ? { conversation_id: 'c', hook_event_name: 'stop', status: 'completed', loop_count: 1, cwd: dir } : { session_id: 's', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false };
    child.stdin.end(JSON.stringify(stop));
    return { ...(await ended), other };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a host that stops reading the hook', () => {
  it('ends stopwise hook quietly when its answer has no reader, and still answers when stderr has none', async () => {
    const noStdout = await hookIntoClosedStream('claude-code', 'stdout');
    expect(noStdout).toMatchObject({ code: 0, signal: null });
    expect(noStdout.other).not.toMatch(/EPIPE|ECONNRESET|\n\s+at /);
    // Cursor's hand-off after a follow-up goes on stderr: without a reader the answer is still printed
    const noStderr = await hookIntoClosedStream('cursor', 'stderr');
    expect(noStderr).toEqual({ code: 0, signal: null, other: '{}\n' });
  });
});

describe('a reader that closes its end of the pipe early', () => {
  it('ends stopwise calibrate --json quietly with exit code 0', async () => {
    const run = await runIntoClosingReader(['calibrate', 'examples/cases/labelled-cases.jsonl', '--json']);
    expect(run.received).toBeGreaterThan(0);
    expect(run.stderr).toBe('');
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
  });

  it('ends stopwise replay --json quietly with exit code 0', async () => {
    // eight copies of the examples print far more than a pipe holds, so the writes outlive the reader
    const run = await runIntoClosingReader(['replay', '--json', ...Array.from({ length: 8 }, () => 'examples/traces')]);
    expect(run.received).toBeGreaterThan(0);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('ends the command with code 0 when standard output closes, before it goes on', async () => {
    const run = await runWriter('stdout');
    expect(run.other).toBe('');
    expect(run.code).toBe(0);
  });

  it('drops messages to a closed standard error and lets the command go on to its own exit code', async () => {
    const run = await runWriter('stderr');
    expect(run.other).toBe('went on\n');
    expect(run.code).toBe(3);
  });

  it('takes a reset socket pair (how a parent spawned by Node closes its end) for a closed pipe', () => {
    const listeners: ((error: NodeJS.ErrnoException) => void)[] = [];
    const written: string[] = [];
    const stream: OutputStream = { on: (_event, listener) => listeners.push(listener), write: (text) => written.push(text) };
    const exits: number[] = [];
    const output = guardClosedPipes(stream, stream, (code) => exits.push(code));
    const reset = Object.assign(new Error('write ECONNRESET'), { code: 'ECONNRESET' });
    listeners[1]?.(reset);
    output.stderr('dropped');
    expect(written).toEqual([]);
    listeners[0]?.(reset);
    expect(exits).toEqual([0]);
  });

  it('rethrows write errors other than a closed pipe', () => {
    const listeners: ((error: NodeJS.ErrnoException) => void)[] = [];
    const stream: OutputStream = { on: (_event, listener) => listeners.push(listener), write: () => true };
    guardClosedPipes(stream, stream, () => undefined);
    expect(listeners).toHaveLength(2);
    const failure = Object.assign(new Error('no space left'), { code: 'ENOSPC' });
    for (const listener of listeners) expect(() => listener(failure)).toThrow('no space left');
  });
});
