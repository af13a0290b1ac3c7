import { describe, expect, it } from 'vitest';
import { HOOK_HOSTS, HOSTS, isHookHost } from '../../src/hosts/host.js';

describe('HOSTS and HOOK_HOSTS', () => {
  it('list the five hosts in the order the CLI lists them, each description under its own name', () => {
    expect(HOOK_HOSTS).toEqual(['claude-code', 'codex', 'cursor', 'copilot', 'gemini']);
    for (const name of HOOK_HOSTS) expect(HOSTS[name].name).toBe(name);
    expect(Object.isFrozen(HOSTS) && Object.isFrozen(HOOK_HOSTS)).toBe(true);
  });

  it('give every host a settings file of its own, a stop event, and an exit code for unreadable input that blocks nothing', () => {
    const files = HOOK_HOSTS.map((name) => HOSTS[name].settingsFile);
    expect(new Set(files).size).toBe(files.length);
    for (const name of HOOK_HOSTS) {
      const host = HOSTS[name];
      expect(host.events.stop).toMatch(/\S/);
      expect(host.events.tools).not.toContain(host.events.stop);
      expect([0, 1]).toContain(host.unreadableExitCode);
    }
  });
});

describe('isHookHost', () => {
  it('recognises only the names of the hosts', () => {
    expect(HOOK_HOSTS.every(isHookHost)).toBe(true);
    for (const value of ['Codex', 'claude', 'vscode', '', 'toString', 'constructor', undefined, null, 7]) expect(isHookHost(value), String(value)).toBe(false);
  });
});
