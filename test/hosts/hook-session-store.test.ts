import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initialHookSessionState } from '../../src/hosts/hook-session-state.js';
import {
  ensureStateDir,
  pruneHookSessionStates,
  readHookSessionState,
  sessionStateFileName,
  writeHookSessionState,
} from '../../src/hosts/hook-session-store.js';

const now = new Date('2026-03-01T00:00:00Z');

describe('hook session store', () => {
  it('names a state file by a digest: a session id never becomes a path', () => {
    const name = sessionStateFileName('claude-code', '../../etc/passwd');
    expect(name).toMatch(/^session-[0-9a-f]{32}\.json$/);
    expect(sessionStateFileName('claude-code', 's', 'agent-1')).not.toBe(sessionStateFileName('claude-code', 's'));
    expect(sessionStateFileName('codex', 's')).not.toBe(sessionStateFileName('claude-code', 's'));
    expect(sessionStateFileName('codex', 's')).toBe(sessionStateFileName('codex', 's'));
  });

  it('writes atomically and reads back, leaving no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-store-'));
    const path = join(dir, sessionStateFileName('codex', 's'));
    const state = initialHookSessionState(now);
    await writeHookSessionState(path, state);
    expect(readdirSync(dir)).toEqual([sessionStateFileName('codex', 's')]);
    expect(await readHookSessionState(path, now)).toEqual({ state });
  });

  it('starts a new session when there is no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-store-'));
    expect(await readHookSessionState(join(dir, 'session-x.json'), now)).toEqual({ state: initialHookSessionState(now) });
  });

  it('resets a corrupt file with a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-store-'));
    const path = join(dir, 'session-x.json');
    for (const text of ['{"version": 1, "step": ', '[]', '{"version":1}', '\u0000\u0001garbage']) {
      writeFileSync(path, text);
      const read = await readHookSessionState(path, now);
      expect(read.state).toEqual(initialHookSessionState(now));
      expect(read.warning).toMatch(/was corrupt .* it was reset/);
    }
  });

  it('prunes old sessions and leftovers, at most once an hour', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-store-'));
    await ensureStateDir(join(dir, 'nested/state'));
    const old = join(dir, 'session-old.json');
    const recent = join(dir, 'session-new.json');
    const tmp = join(dir, 'session-new.json.1.ab.tmp');
    const other = join(dir, 'notes.txt');
    for (const path of [old, recent, tmp, other]) writeFileSync(path, '{}');
    const eightDaysAgo = new Date(now.getTime() - 8 * 24 * 3600 * 1000);
    const twoHoursAgo = new Date(now.getTime() - 2 * 3600 * 1000);
    utimesSync(old, eightDaysAgo, eightDaysAgo);
    utimesSync(tmp, twoHoursAgo, twoHoursAgo);
    utimesSync(other, eightDaysAgo, eightDaysAgo);
    utimesSync(recent, twoHoursAgo, twoHoursAgo);
    expect(await pruneHookSessionStates(dir, now)).toEqual({ pruned: 2 });
    expect([existsSync(old), existsSync(recent), existsSync(tmp), existsSync(other)]).toEqual([false, true, false, true]);
    writeFileSync(old, '{}');
    utimesSync(old, eightDaysAgo, eightDaysAgo);
    expect(await pruneHookSessionStates(dir, new Date(now.getTime() + 60_000))).toEqual({ pruned: 0 });
    expect(readFileSync(old, 'utf8')).toBe('{}');
  });
});
