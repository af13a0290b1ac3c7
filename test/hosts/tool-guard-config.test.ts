import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolders } from '../support/temp-folders.js';
import { loadToolGuardConfig } from '../../src/hosts/tool-guard-config.js';
import { DEFAULT_TOOL_GUARD_OPTIONS } from '../../src/hosts/tool-guard.js';

const tempFolder = tempFolders();
const folder = (): string => tempFolder('stopwise-tool-guard-config-');

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
