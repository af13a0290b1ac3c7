import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_STOP_POLICY } from '../../src/core/policy/hook-stop-policy.js';
import { loadPolicyFile } from '../../src/input/load-policy-file.js';

const folder = mkdtempSync(join(tmpdir(), 'stopwise-policy-doc-'));
const write = (name: string, value: unknown) => writeFileSync(join(folder, name), JSON.stringify(value));
const typed = {
  version: 1,
  rules: [
    { id: 'bugfix.done', when: { all: [{ taskType: 'bugfix' }, { tests: 'passed' }] }, then: { kind: 'stop', exit: 'success', reason: 'done' } },
    { id: 'rest', when: { always: true }, then: { kind: 'retry', reason: 'again' } },
  ],
};

describe('loadPolicyFile with a stop policy document', () => {
  it('reads a document, told from four numbers by its rules', async () => {
    write('hook.json', HOOK_STOP_POLICY);
    expect(await loadPolicyFile('hook.json', folder)).toEqual({ ok: true, document: HOOK_STOP_POLICY });
  });

  it('refuses a bad document with the file and the JSON path', async () => {
    write('bad.json', { ...typed, rules: [...typed.rules, typed.rules[1]] });
    expect(await loadPolicyFile('bad.json', folder)).toEqual({ ok: false, message: 'bad.json: rules[2].id: duplicate rule id "rest" (also rules[1].id)' });
    write('unknown.json', { ...typed, byTaskType: {} });
    expect(await loadPolicyFile('unknown.json', folder)).toMatchObject({ ok: false, message: /^unknown\.json: byTaskType: unknown field/ });
  });

  it('takes a task type only when a rule of the document reads it', async () => {
    write('typed.json', typed);
    expect(await loadPolicyFile('typed.json', folder, { taskType: 'bugfix' })).toMatchObject({ ok: true, document: { rules: [{ id: 'bugfix.done' }, { id: 'rest' }] } });
    expect(await loadPolicyFile('typed.json', folder, { taskType: 'docs' })).toEqual({
      ok: false,
      message: 'typed.json: no rule reads task type "docs" (a { "taskType": ... } condition); it has bugfix',
    });
  });
});
