import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadToolGuardConfig } from '../../src/hosts/load-tool-guard-config.js';
import { DEFAULT_TOOL_GUARD_OPTIONS } from '../../src/hosts/tool-guard-options.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function projectWith(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-tool-guard-config-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'stopwise.config.json'), text);
  return dir;
}

describe('loadToolGuardConfig', () => {
  it('reads toolGuard and stateDir of any configuration, a decision model or a policy file included', async () => {
    const dir = projectWith(
      JSON.stringify({ tests: { command: 'npm test' }, judge: { client: 'system-one', model: 'm' }, policyFile: 'policy.json', stateDir: 'var/state', toolGuard: { enabled: false } }),
    );
    expect(await loadToolGuardConfig([join(dir, 'sub')])).toEqual({ ok: true, toolGuard: { ...DEFAULT_TOOL_GUARD_OPTIONS, enabled: false }, stateDir: 'var/state', projectDir: dir });
    const defaults = projectWith('{"tests":{"command":"npm test"}}');
    expect(await loadToolGuardConfig([defaults])).toMatchObject({ ok: true, toolGuard: DEFAULT_TOOL_GUARD_OPTIONS, stateDir: '.stopwise/state' });
  });

  it('leaves the keys it does not read to the stop hook, and refuses what it reads when it is wrong', async () => {
    expect(await loadToolGuardConfig([projectWith('{"tests":{"command":""},"bogus":1}')])).toMatchObject({ ok: true });
    const badGuard = await loadToolGuardConfig([projectWith('{"toolGuard":{"enabled":"yes"}}')]);
    expect(badGuard).toMatchObject({ ok: false, kind: 'invalid' });
    expect(badGuard.ok ? '' : badGuard.message).toContain('toolGuard.enabled');
    expect(await loadToolGuardConfig([projectWith('{"stateDir":""}')])).toMatchObject({ ok: false, kind: 'invalid', message: expect.stringContaining('stateDir') });
    expect(await loadToolGuardConfig([projectWith('[1]')])).toMatchObject({ ok: false, kind: 'invalid', message: expect.stringContaining('JSON object') });
    expect(await loadToolGuardConfig([projectWith('{"toolGuard":')])).toMatchObject({ ok: false, kind: 'invalid' });
    const none = mkdtempSync(join(tmpdir(), 'stopwise-tool-guard-none-'));
    dirs.push(none);
    expect(await loadToolGuardConfig([none])).toMatchObject({ ok: false, kind: 'missing', message: expect.stringContaining('stopwise.config.json') });
  });
});
