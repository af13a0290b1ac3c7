import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStopwiseConfig } from '../../src/hosts/load-stopwise-config.js';

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'stopwise-config-'));
  mkdirSync(join(root, 'packages/app/src'), { recursive: true });
  return root;
}

describe('loadStopwiseConfig', () => {
  it('finds the file in a parent folder, and that folder is the project', async () => {
    const root = project();
    writeFileSync(join(root, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'npm test' } }));
    const loaded = await loadStopwiseConfig([join(root, 'packages/app/src')]);
    expect(loaded).toMatchObject({ ok: true, projectDir: root, path: join(root, 'stopwise.config.json') });
  });

  it('prefers the nearest file', async () => {
    const root = project();
    writeFileSync(join(root, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'outer' } }));
    writeFileSync(join(root, 'packages/app/stopwise.config.json'), JSON.stringify({ tests: { command: 'inner' } }));
    const loaded = await loadStopwiseConfig([join(root, 'packages/app/src')]);
    expect(loaded.ok && loaded.config.tests.command).toBe('inner');
  });

  it('falls back to the next start folder', async () => {
    const root = project();
    const elsewhere = mkdtempSync(join(tmpdir(), 'stopwise-elsewhere-'));
    writeFileSync(join(root, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'npm test' } }));
    const loaded = await loadStopwiseConfig([elsewhere, root]);
    expect(loaded.ok).toBe(true);
  });

  it('says the file is missing', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'stopwise-none-'));
    const loaded = await loadStopwiseConfig([elsewhere]);
    expect(loaded).toMatchObject({ ok: false, kind: 'missing' });
    expect(loaded.ok || loaded.message).toMatch(/no stopwise.config.json in .* or any parent folder/);
  });

  it('names each folder it looked in once', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'stopwise-none-'));
    const other = mkdtempSync(join(tmpdir(), 'stopwise-none-'));
    const once = await loadStopwiseConfig([elsewhere, `${elsewhere}/`, join(elsewhere, 'sub', '..')]);
    expect(once.ok || once.message).toBe(`no stopwise.config.json in ${elsewhere} or any parent folder`);
    const twice = await loadStopwiseConfig([elsewhere, other, elsewhere]);
    expect(twice.ok || twice.message).toBe(`no stopwise.config.json in ${elsewhere} or ${other} or any parent folder`);
  });

  it('names the file and the key of an invalid configuration, and reports bad JSON', async () => {
    const root = project();
    const path = join(root, 'stopwise.config.json');
    writeFileSync(path, JSON.stringify({ tests: { command: 3 } }));
    expect(await loadStopwiseConfig([root])).toMatchObject({ ok: false, kind: 'invalid', message: `${path}: tests.command: expected a non-empty string, got 3` });
    writeFileSync(path, '{ "tests": ');
    const bad = await loadStopwiseConfig([root]);
    expect(bad).toMatchObject({ ok: false, kind: 'invalid' });
    expect(bad.ok || bad.message).toMatch(/not valid JSON/);
  });

  describe('a policy file named by the configuration', () => {
    const calibrated = {
      policy: { doneThreshold: 0.81, midBandLow: 0.4, maxSteps: 12, stallRounds: 3 },
      calibration: { certified: true },
      byTaskType: { bugfix: { doneThreshold: 0.9, midBandLow: 0.4, maxSteps: 8, stallRounds: 3 }, docs: null },
    };
    const setUp = (config: Record<string, unknown>, file: unknown = calibrated) => {
      const root = project();
      mkdirSync(join(root, 'ops'));
      writeFileSync(join(root, 'ops/policy.json'), JSON.stringify(file));
      writeFileSync(join(root, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'x' }, policy: 'ops/policy.json', ...config }));
      return root;
    };

    it('reads it relative to the folder of the configuration, wherever the hook starts', async () => {
      const root = setUp({});
      const loaded = await loadStopwiseConfig([join(root, 'packages/app/src')]);
      expect(loaded).toMatchObject({ ok: true, config: { policy: calibrated.policy, policyFile: 'ops/policy.json' } });
    });

    it('picks the entry of the task type', async () => {
      const loaded = await loadStopwiseConfig([setUp({ taskType: 'bugfix' })]);
      expect(loaded).toMatchObject({ ok: true, config: { policy: calibrated.byTaskType.bugfix, taskType: 'bugfix' } });
    });

    it.each([
      ['a task type the file does not have', { taskType: 'feature' }, calibrated, /policy: .*ops\/policy\.json: no policy for task type "feature" in "byTaskType"; it has bugfix, docs$/],
      ['a task type that certified nothing', { taskType: 'docs' }, calibrated, /policy: .*ops\/policy\.json: "byTaskType"\."docs" is null/],
      ['a calibration that certified nothing', {}, { ...calibrated, policy: null }, /policy: .*ops\/policy\.json: "policy" is null: the calibration certified no threshold/],
      ['a file that is not there', { policy: 'ops/missing.json' }, calibrated, /policy: .*ops\/missing\.json: no such file or folder$/],
    ])('is invalid for %s, naming the configuration and the policy file', async (_what, config, file, message) => {
      const root = setUp(config, file);
      const loaded = await loadStopwiseConfig([root]);
      expect(loaded).toMatchObject({ ok: false, kind: 'invalid', path: join(root, 'stopwise.config.json') });
      expect(loaded.ok || loaded.message).toMatch(new RegExp(`^${join(root, 'stopwise.config.json').replace(/[.]/g, '\\.')}: ${message.source}`));
    });
  });

  it('accepts a byte order mark', async () => {
    const root = project();
    writeFileSync(join(root, 'stopwise.config.json'), `\ufeff${JSON.stringify({ tests: { command: 'x' } })}`);
    expect((await loadStopwiseConfig([root])).ok).toBe(true);
  });
});
