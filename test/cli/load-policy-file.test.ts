import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicyFile } from '../../src/cli/load-policy-file.js';
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

  it('reports a missing file', async () => {
    expect(await loadPolicyFile('missing.json', folder)).toEqual({ ok: false, message: 'missing.json: no such file or folder' });
  });
});
