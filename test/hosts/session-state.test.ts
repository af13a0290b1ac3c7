import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOOK_STOP_POLICY } from '../../src/core/policy/hook-stop-policy.js';
import { initialStopState } from '../../src/core/policy/stop-state.js';
import { acquireFileLock } from '../../src/hosts/file-lock.js';
import {
  ensureStateDir,
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
    ]) {
      expect(parseSessionState(bad), JSON.stringify(bad)).toBeUndefined();
    }
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
