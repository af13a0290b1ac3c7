import { describe, expect, it } from 'vitest';
import { callKey, canonicalJson } from '../../../src/core/stall-detection/call-key.js';

describe('callKey', () => {
  it('ignores key order and keeps only declared arguments', () => {
    expect(callKey('t', { a: 1, b: { d: 2, c: 3 } }, undefined)).toBe(callKey('t', { b: { c: 3, d: 2 }, a: 1 }, undefined));
    expect(callKey('t', { id: 1, timeout: 5 }, { arguments: ['id'] })).toBe(callKey('t', { id: 1, timeout: 9 }, { arguments: ['id'] }));
    expect(callKey('t', { id: 1 }, undefined)).not.toBe(callKey('u', { id: 1 }, undefined));
  });

  it('leaves out progress notes that change while the call does not (Cline drops task_progress), unless arguments are declared', () => {
    const ignored = ['task_progress'];
    expect(callKey('read_file', { path: 'a', task_progress: '- [x] 1' }, undefined, ignored)).toBe(callKey('read_file', { path: 'a', task_progress: '- [x] 2' }, undefined, ignored));
    expect(callKey('read_file', { path: 'a', task_progress: 'x' }, undefined, ignored)).toBe(callKey('read_file', { path: 'a' }, undefined, ignored));
    expect(callKey('read_file', { path: 'a', task_progress: 'x' }, undefined)).not.toBe(callKey('read_file', { path: 'a' }, undefined));
    // Declared arguments decide alone.
    expect(callKey('t', { id: 1, task_progress: 'x' }, { arguments: ['id', 'task_progress'] }, ignored)).not.toBe(callKey('t', { id: 1 }, { arguments: ['id', 'task_progress'] }, ignored));
  });

  it('leaves out only top-level progress notes, and keeps an input that is not an object whole', () => {
    const ignored = ['task_progress'];
    expect(callKey('t', { args: { task_progress: 1 } }, undefined, ignored)).not.toBe(callKey('t', { args: { task_progress: 2 } }, undefined, ignored));
    expect(callKey('bash', 'npm test', { arguments: ['command'] }, ignored)).toBe('4:bash\n"npm test"');
    expect(callKey('t', [{ task_progress: 1 }], undefined, ignored)).not.toBe(callKey('t', [{ task_progress: 2 }], undefined, ignored));
  });

  it('writes canonical JSON: keys sorted at every level, arrays in order, undefined fields left out', () => {
    expect(canonicalJson({ b: [2, 1], a: undefined, c: { z: 1, y: 'q"' } })).toBe('{"b":[2,1],"c":{"y":"q\\"","z":1}}');
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson(undefined)).toBe('undefined');
    expect(canonicalJson(null)).toBe('null');
  });

  it('survives deep inputs', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = { x: deep };
    expect(callKey('t', deep, undefined)).toContain('<deep>');
  });
});
