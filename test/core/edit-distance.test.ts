import { describe, expect, it } from 'vitest';
import { editDistance } from '../../src/core/edit-distance.js';
import { nearestName } from '../../src/core/nearest-name.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('comand', 'command')).toBe(1);
    expect(editDistance('commands', 'command')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('task', 'task')).toBe(0);
  });

  it('counts a swap of two adjacent characters as one edit', () => {
    expect(editDistance('tset', 'test')).toBe(1);
    expect(editDistance('jugde', 'judge')).toBe(1);
    expect(editDistance('ab', 'ba')).toBe(1);
  });

  it('is symmetric', () => {
    for (const [a, b] of [['stateDir', 'statDir'], ['timeoutMs', 'timeout'], ['baseUrl', 'baseURL'], ['ca', 'abc']] as const) {
      expect(editDistance(a, b)).toBe(editDistance(b, a));
    }
  });

  it('edits each substring once (optimal string alignment): "ca" to "abc" takes 3', () => {
    expect(editDistance('ca', 'abc')).toBe(3);
  });
});

describe('nearestName on configuration keys', () => {
  const top = ['task', 'acceptance', 'tests', 'judge', 'policy', 'maxConsecutiveBlocks', 'stateDir'];

  it('suggests the nearest known name for a misspelling', () => {
    expect(nearestName('maxConsecutiveBlock', top)).toBe('maxConsecutiveBlocks');
    expect(nearestName('test', top)).toBe('tests');
    expect(nearestName('jugde', top)).toBe('judge');
    expect(nearestName('comand', ['command', 'args', 'report', 'timeoutMs'])).toBe('command');
    expect(nearestName('timeout', ['command', 'args', 'report', 'timeoutMs'])).toBe('timeoutMs');
  });

  it('ignores case', () => {
    expect(nearestName('baseUrl', ['client', 'baseURL', 'model', 'apiKeyEnv', 'timeoutMs'])).toBe('baseURL');
    expect(nearestName('Task', top)).toBe('task');
  });

  it('suggests nothing when no name is close enough', () => {
    expect(nearestName('colour', top)).toBeUndefined();
    expect(nearestName('url', ['client', 'baseURL', 'model', 'apiKeyEnv', 'timeoutMs'])).toBeUndefined();
    expect(nearestName('ab', ['cd'])).toBeUndefined();
    expect(nearestName('anything', [])).toBeUndefined();
  });

  it('prefers the closer of two candidates, the first on a tie', () => {
    expect(nearestName('comand', ['comma', 'command'])).toBe('command');
    expect(nearestName('abcdef', ['abcdeX', 'abcdeY'])).toBe('abcdeX');
  });
});
