import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOOK_STOP_POLICY } from '../../src/core/policy/hook-stop-policy.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { initialStopState } from '../../src/core/policy/decide.js';
import { acquireFileLock } from '../../src/hosts/file-lock.js';
import {
  appendTurnStep,
  ensureStateDir,
  MAX_STEP_CHARS,
  MAX_TURN_STEPS,
  newSessionState,
  parseSessionState,
  SessionBusyError,
  sessionStatePath,
  withSessionState,
  type SessionState,
} from '../../src/hosts/session-state.js';
import { DEFAULT_TOOL_GUARD_OPTIONS, initialToolGuardState } from '../../src/hosts/tool-guard.js';
import { FAKE_CLOCK, onFakeClock } from './fake-clock.js';

const NOW = new Date('2026-12-02T07:00:00.000Z');
const now = () => NOW;
const tools = () => initialToolGuardState(DEFAULT_TOOL_GUARD_OPTIONS.stall);

const folders: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-session-'));
  folders.push(dir);
  return dir;
}

describe('sessionStatePath', () => {
  it('names the file by a digest of the host, the session and the agent: a session id is never a path', () => {
    const dir = '/state';
    for (const id of ['../../etc/passwd', '/etc/passwd', 'a/b\\c', '..', '']) expect(sessionStatePath(dir, 'claude-code', id)).toMatch(/^\/state\/session-[0-9a-f]{32}\.json$/);
    expect(sessionStatePath(dir, 'codex', 's')).toBe(sessionStatePath(dir, 'codex', 's'));
    expect(sessionStatePath(dir, 'codex', 's')).not.toBe(sessionStatePath(dir, 'claude-code', 's'));
    expect(sessionStatePath(dir, 'claude-code', 's', 'agent-1')).not.toBe(sessionStatePath(dir, 'claude-code', 's'));
    expect(sessionStatePath(dir, 'claude-code', 's', 'agent-1')).not.toBe(sessionStatePath(dir, 'claude-code', 's', 'agent-2'));
  });
});

describe('parseSessionState', () => {
  it('reads back what it wrote, the stop state, the evidence and the tool guard state among it', () => {
    const state: SessionState = {
      ...newSessionState(NOW),
      stop: { ...initialStopState(HOOK_STOP_POLICY), step: 1, retries: 1 },
      lastEvidence: { passed: false, failed: ['a > b'], ran: 2 },
      lastStop: { kind: 'block', at: NOW.toISOString() },
      tools: tools(),
    };
    expect(parseSessionState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(parseSessionState(newSessionState(NOW))).toEqual({ version: 2, stop: null, tools: null, updatedAt: NOW.toISOString() });
  });

  it('refuses a file that is not session state: another version, another program, a part that is not its own', () => {
    const good = newSessionState(NOW);
    for (const bad of [
      null,
      [],
      'state',
      { ...good, version: 1 },
      { version: 1, step: 0, consecutiveBlocks: 0 },
      { ...good, updatedAt: 7 },
      { ...good, tools: { version: 1 } },
      { ...good, stop: { version: 9 } },
      { ...good, lastEvidence: { passed: 'no', failed: [], ran: 1 } },
      { ...good, lastEvidence: { passed: true, failed: [], ran: 1.5 } },
      { ...good, steps: [{ tool: 'bash', exit_code: 1 }] },
      { ...good, steps: Array.from({ length: MAX_TURN_STEPS + 1 }, () => ({ tool: 'bash' })) },
    ]) {
      expect(parseSessionState(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});

describe('appendTurnStep', () => {
  it('keeps the newest steps, each output cut to its end and a large input kept as its digest, and reads back as session state', () => {
    let steps = appendTurnStep(undefined, { phase: 'post', tool: 'Bash', input: { command: 'npm test' }, output: 'ok', exitCode: 0 });
    expect(steps).toEqual([{ tool: 'Bash', input: { command: 'npm test' }, output: 'ok', exitCode: 0 }]);
    const long = `${'x'.repeat(10_000)}\nError: the end`;
    const big = { content: 'y'.repeat(10_000) };
    for (let n = 0; n < MAX_TURN_STEPS + 5; n++) steps = appendTurnStep(steps, { phase: 'post', tool: 'Write', input: big, output: long, error: true });
    expect(steps).toHaveLength(MAX_TURN_STEPS);
    const last = steps.at(-1);
    expect(last?.output).toHaveLength(MAX_STEP_CHARS);
    expect(last?.output?.endsWith('Error: the end')).toBe(true);
    expect(last?.input).toEqual({ digest: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(steps.at(-2)?.input).toEqual(last?.input);
    const state = { ...newSessionState(NOW), steps };
    expect(parseSessionState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });
});

describe('withSessionState', () => {
  it('starts a new session, writes the next state atomically for this user alone, and leaves no lock or temporary file', async () => {
    const dir = stateDir();
    const path = sessionStatePath(dir, 'codex', 's');
    const run = await withSessionState(path, { now, lockTimeoutMs: 1_000 }, async (state) => {
      expect(state).toEqual(newSessionState(NOW));
      return { state: { ...state, tools: tools() }, result: 'done' };
    });
    expect(run).toEqual({ result: 'done', warnings: [] });
    expect(readdirSync(dir)).toEqual([path.slice(dir.length + 1)]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(parseSessionState(JSON.parse(readFileSync(path, 'utf8')))).toEqual({ ...newSessionState(NOW), tools: tools() });
  });

  it('writes nothing when the work hands back the state it was given', async () => {
    const dir = stateDir();
    const path = sessionStatePath(dir, 'codex', 's');
    await withSessionState(path, { now, lockTimeoutMs: 1_000 }, async (state) => ({ state, result: undefined }));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('resets a file that is not valid state, with a warning naming it, and goes on', async () => {
    const dir = stateDir();
    const path = sessionStatePath(dir, 'claude-code', 's');
    for (const text of ['{"version": 2, "stop": ', '[]', JSON.stringify({ version: 1, step: 3 }), '\u0000garbage']) {
      writeFileSync(path, text);
      const run = await withSessionState(path, { now, lockTimeoutMs: 1_000 }, async (state) => ({ state: { ...state, tools: tools() }, result: state }));
      expect(run.result).toEqual(newSessionState(NOW));
      expect(run.warnings).toEqual([`stopwise: the state file ${path} was not valid session state; it was reset and this session's counts start again.`]);
      expect(parseSessionState(JSON.parse(readFileSync(path, 'utf8')))).toBeDefined();
    }
  });

  it("resets alone a tool guard state an earlier version wrote (or one not valid), with a warning, and keeps the stop state", async () => {
    const dir = stateDir();
    const path = sessionStatePath(dir, 'claude-code', 's');
    const stop = { ...initialStopState(HOOK_STOP_POLICY), step: 2, retries: 1 };
    const current = tools();
    // The stall counts of the earlier version had no pair window and no index of the last new step.
    const { pairs: _pairs, lastNew: _lastNew, ...olderStall } = current.stall;
    writeFileSync(path, JSON.stringify({ ...newSessionState(NOW), stop, tools: { ...current, stall: { ...olderStall, version: 1 } } }));
    const run = await withSessionState(path, { now, lockTimeoutMs: 1_000 }, async (state) => ({ state, result: state }));
    expect(run.result).toMatchObject({ stop, tools: null });
    expect(run.warnings).toEqual([
      `stopwise: the tool guard's state in ${path} was written by an earlier version of stopwise or is not valid; it was reset and the guard's counts start again.`,
    ]);
  });

  it('resets alone a stop state this version cannot read (an earlier version of its stall counts), saying why, and keeps the rest', async () => {
    const dir = stateDir();
    const path = sessionStatePath(dir, 'claude-code', 's');
    const policy = parseStopPolicy({ version: 2, rules: [{ id: 'looping', when: { stall: { detector: 'step_history' } }, then: { kind: 'stop', exit: 'need_help', reason: 'looping' } }] });
    const stop = initialStopState(policy);
    const stall = { ...(stop.stall?.[0] as object), version: 1 };
    const evidence = { passed: false, failed: ['a'], ran: 1 };
    writeFileSync(path, JSON.stringify({ ...newSessionState(NOW), stop: { ...stop, stall: [stall] }, lastEvidence: evidence, tools: tools() }));
    const run = await withSessionState(path, { now, lockTimeoutMs: 1_000 }, async (state) => ({ state, result: state }));
    expect(run.result).toMatchObject({ stop: null, lastEvidence: evidence, tools: tools() });
    expect(run.warnings).toHaveLength(1);
    expect(run.warnings[0]).toMatch(/^stopwise: the stop state in .* could not be read \(state\.stall\[0\] is a stall detector state of version 1, saved by an earlier stopwise; .*\); it was reset and this span's blocks count from zero\.$/);
  });

  it('keeps every update of concurrent work on one session, stop and tool parts alike, under its one lock', async () => {
    const dir = stateDir();
    const path = sessionStatePath(dir, 'cursor', 's');
    const bump = (part: 'tools' | 'stop') =>
      withSessionState(path, { now, lockTimeoutMs: 20_000 }, async (state) => {
        // a turn of the event loop between the read and the write, where another update could slip in without the lock
        await new Promise((resolve) => setImmediate(resolve));
        if (part === 'tools') {
          const current = state.tools ?? tools();
          return { state: { ...state, tools: { ...current, totals: { ...current.totals, recorded: current.totals.recorded + 1 } } }, result: undefined };
        }
        const current = state.stop ?? initialStopState(HOOK_STOP_POLICY);
        return { state: { ...state, stop: { ...current, step: current.step + 1 } }, result: undefined };
      });
    await Promise.all(Array.from({ length: 24 }, (_, index) => bump(index % 2 === 0 ? 'tools' : 'stop')));
    const state = parseSessionState(JSON.parse(readFileSync(path, 'utf8')));
    expect(state?.tools?.totals.recorded).toBe(12);
    expect(state?.stop?.step).toBe(12);
    expect(readdirSync(dir).filter((name) => name !== path.slice(dir.length + 1))).toEqual([]);
  });

  it('gives up with SessionBusyError after lockTimeoutMs while another holds the lock, and the work never runs', async () => {
    const dir = stateDir();
    const path = sessionStatePath(dir, 'claude-code', 's');
    vi.useFakeTimers(FAKE_CLOCK);
    const held = await acquireFileLock(path);
    try {
      let ran = false;
      const started = Date.now();
      const waiting = withSessionState(path, { now, lockTimeoutMs: 5_000 }, async (state) => {
        ran = true;
        return { state, result: undefined };
      });
      await expect(onFakeClock(waiting, vi.getTimerCount())).rejects.toBeInstanceOf(SessionBusyError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
      expect(ran).toBe(false);
    } finally {
      await held.release();
    }
  });

  it('does not save its update when another hook took the lock over while it ran, and says so', async () => {
    const dir = stateDir();
    const path = sessionStatePath(dir, 'claude-code', 's');
    const run = await withSessionState(path, { now, lockTimeoutMs: 1_000 }, async (state) => {
      writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), token: 'another-hook' }));
      return { state: { ...state, tools: tools() }, result: 'ran' };
    });
    expect(run.result).toBe('ran');
    expect(run.warnings).toEqual([expect.stringMatching(/^stopwise: another hook of this session took over the lock on .* this one's update of the session state was not saved/)]);
    expect(existsSync(path)).toBe(false);
    // the other holder's lock is left to it
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).token).toBe('another-hook');
  });
});

describe('ensureStateDir', () => {
  it('makes the folder and its parents, for this user alone, and accepts one that is there', async () => {
    const dir = join(stateDir(), 'a/b/state');
    await ensureStateDir(dir);
    await ensureStateDir(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});
