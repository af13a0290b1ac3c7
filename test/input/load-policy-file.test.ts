import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicyFile } from '../../src/input/load-policy-file.js';
import { DEFAULT_POLICY } from '../../src/core/stop-policy.js';

const folder = mkdtempSync(join(tmpdir(), 'stopwise-policy-'));
const load = (name: string, text: string) => {
  writeFileSync(join(folder, name), text);
  return loadPolicyFile(name, folder);
};

describe('loadPolicyFile', () => {
  it('reads bare policy fields, the rest from the defaults', async () => {
    expect(await load('bare.json', '{"maxSteps": 7}')).toEqual({ ok: true, policy: { ...DEFAULT_POLICY, maxSteps: 7 } });
  });

  it('reads the policy of a calibration file', async () => {
    const file = { policy: { ...DEFAULT_POLICY, doneThreshold: 0.81 }, calibration: { certified: true }, byTaskType: { bugfix: null } };
    expect(await load('calibrated.json', JSON.stringify(file))).toEqual({ ok: true, policy: file.policy });
  });

  it.each([
    ['null-policy.json', '{"policy": null, "calibration": {"certified": false}}', /"policy" is null: the calibration certified no threshold/],
    ['mixed.json', '{"doneThreshold": 0.9, "policy": {"maxSteps": 5}}', /unknown top-level field "doneThreshold" next to "policy"/],
    ['null-field.json', '{"doneThreshold": null}', /policy\.doneThreshold must be a number in \[0, 1\], got null/],
    ['typo.json', '{"doneTreshold": 0.9}', /unknown policy field "doneTreshold"/],
    ['array.json', '[0.7]', /must hold a JSON object/],
    ['policy-array.json', '{"policy": [1]}', /"policy" must be a JSON object/],
    ['broken.json', '{"maxSteps": ', /not valid JSON/],
  ])('refuses %s with a clear message', async (name, text, message) => {
    const result = await load(name, text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
    if (!result.ok) expect(result.message.startsWith(`${name}: `)).toBe(true);
  });

  describe('with a task type', () => {
    const calibrated = {
      policy: { ...DEFAULT_POLICY, doneThreshold: 0.81 },
      calibration: { certified: true },
      byTaskType: { bugfix: { ...DEFAULT_POLICY, doneThreshold: 0.9 }, docs: null },
    };
    const loadType = (name: string, file: unknown, taskType: string) => {
      writeFileSync(join(folder, name), JSON.stringify(file));
      return loadPolicyFile(name, folder, { taskType });
    };

    it('picks the byTaskType entry', async () => {
      expect(await loadType('typed.json', calibrated, 'bugfix')).toEqual({ ok: true, policy: { ...DEFAULT_POLICY, doneThreshold: 0.9 } });
    });

    it('uses an entry even when the overall policy was not certified', async () => {
      expect(await loadType('typed-only.json', { ...calibrated, policy: null }, 'bugfix')).toMatchObject({ ok: true, policy: { doneThreshold: 0.9 } });
    });

    it.each([
      ['a task type the file does not have', calibrated, 'feature', /typed-missing\.json: no policy for task type "feature" in "byTaskType"; it has bugfix, docs/],
      ['a file without byTaskType', { policy: DEFAULT_POLICY }, 'bugfix', /no policy for task type "bugfix" in "byTaskType"; it has none/],
      ['an entry that certified nothing', calibrated, 'docs', /"byTaskType"\."docs" is null: the calibration certified no threshold for this task type/],
      ['a bare policy file', DEFAULT_POLICY, 'bugfix', /a task type needs a file written by `stopwise calibrate --policy-out`/],
      ['an entry that is not a policy', { ...calibrated, byTaskType: { bugfix: [1] } }, 'bugfix', /"byTaskType"\."bugfix" must be a JSON object/],
    ])('refuses %s', async (_what, file, taskType, message) => {
      const result = await loadType('typed-missing.json', file, taskType);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toMatch(message);
    });
  });

  it('reports a missing file', async () => {
    expect(await loadPolicyFile('missing.json', folder)).toEqual({ ok: false, message: 'missing.json: no such file or folder' });
  });
});
