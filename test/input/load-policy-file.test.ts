import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOK_STOP_POLICY } from '../../src/core/policy/hook-stop-policy.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import { DEFAULT_POLICY } from '../../src/core/stop-policy.js';
import { loadPolicyFile } from '../../src/input/load-policy-file.js';

const folder = mkdtempSync(join(tmpdir(), 'stopwise-policy-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const load = (name: string, text: string, options: { readonly taskType?: string } = {}) => {
  writeFileSync(join(folder, name), text);
  return loadPolicyFile(name, folder, options);
};
const typed = {
  version: 2,
  rules: [
    { id: 'bugfix.done', when: { all: [{ taskType: 'bugfix' }, { tests: 'passed' }] }, then: { kind: 'stop', exit: 'success', reason: 'done' } },
    { id: 'rest', when: { always: true }, then: { kind: 'retry', reason: 'again' } },
  ],
};

describe('loadPolicyFile: the numbers of the presets', () => {
  it('reads some of the four numbers, the rest from the defaults', async () => {
    expect(await load('bare.json', '{"maxSteps": 7}')).toEqual({ ok: true, numbers: { ...DEFAULT_POLICY, maxSteps: 7 } });
    expect(await load('empty.json', '{}')).toEqual({ ok: true, numbers: DEFAULT_POLICY });
  });

  it.each([
    ['null-field.json', '{"doneThreshold": null}', /^null-field\.json: doneThreshold: /],
    ['typo.json', '{"doneTreshold": 0.9}', /^typo\.json: doneTreshold: unknown field \(did you mean "doneThreshold"\?\)/],
    ['band.json', '{"doneThreshold": 0.5, "midBandLow": 0.6}', /^band\.json: midBandLow: must not be above doneThreshold/],
    ['array.json', '[0.7]', /^array\.json: .*\(a policy file holds a stop policy document, or an object with doneThreshold, midBandLow, maxSteps, stallRounds\)$/],
    ['broken.json', '{"maxSteps": ', /^broken\.json: not valid JSON/],
    ['comma.json', '{\n  "version": 2,\n  "rules": [],\n}', /^comma\.json: not valid JSON at line 4, column 1: expected double-quoted property name$/],
  ])('refuses %s, naming the file and the field', async (name, text, message) => {
    const result = await load(name, text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('lists every problem, one a line, each naming the file', async () => {
    const result = await load('two.json', '{"maxSteps": 0, "stallRound": 2}');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const lines = result.message.split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.startsWith('two.json: ')).toBe(true);
    expect(result.message).toMatch(/maxSteps: /);
    expect(result.message).toMatch(/stallRound: unknown field \(did you mean "stallRounds"\?\)/);
  });

  it('reports a missing file', async () => {
    expect(await loadPolicyFile('missing.json', folder)).toEqual({ ok: false, message: 'missing.json: no such file or folder' });
  });
});

describe('loadPolicyFile: a stop policy document', () => {
  it('reads a document, told from the numbers by its rules', async () => {
    expect(await load('hook.json', JSON.stringify(HOOK_STOP_POLICY))).toEqual({ ok: true, document: HOOK_STOP_POLICY });
    expect(await load('seed.json', JSON.stringify(SEED_STOP_POLICY))).toEqual({ ok: true, document: SEED_STOP_POLICY });
  });

  it('refuses a bad document with the file and the JSON path of every problem', async () => {
    expect(await load('bad.json', JSON.stringify({ ...typed, rules: [...typed.rules, typed.rules[1]] }))).toEqual({
      ok: false,
      message: 'bad.json: rules[2].id: duplicate rule id "rest" (also rules[1].id)',
    });
    expect(await load('unknown.json', JSON.stringify({ ...typed, byTaskType: {} }))).toMatchObject({ ok: false, message: /^unknown\.json: byTaskType: unknown field/ });
    const two = await load('two-problems.json', JSON.stringify({ version: 2, rules: [{ id: 'a', when: { testz: 'failed' }, then: { kind: 'halt' } }] }));
    expect(two.ok).toBe(false);
    if (!two.ok) {
      expect(two.message.split('\n').every((line) => line.startsWith('two-problems.json: rules[0].'))).toBe(true);
      expect(two.message).toMatch(/rules\[0\]\.when/);
      expect(two.message).toMatch(/rules\[0\]\.then/);
    }
  });

  it('names the field at the top of a document without a leading dot, and explains a version 1 document', async () => {
    const old = await load('v1.json', JSON.stringify({ ...typed, version: 1 }));
    expect(old).toMatchObject({ ok: false, message: /^v1\.json: version: version 1 is the format of stopwise 0\.1; .*then set "version": 2$/ });
  });

  it('takes a task type only when a rule of the document reads it', async () => {
    expect(await load('typed.json', JSON.stringify(typed), { taskType: 'bugfix' })).toMatchObject({ ok: true, document: { rules: [{ id: 'bugfix.done' }, { id: 'rest' }] } });
    expect(await load('typed.json', JSON.stringify(typed), { taskType: 'docs' })).toEqual({
      ok: false,
      message: 'typed.json: no rule reads task type "docs" (a { "taskType": ... } condition); it has bugfix',
    });
    expect(await load('untyped.json', JSON.stringify(SEED_STOP_POLICY), { taskType: 'docs' })).toMatchObject({ ok: false, message: /it has none$/ });
  });
});
