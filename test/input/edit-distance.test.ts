import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/input/edit-distance.js';

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

describe('closestName', () => {
  const top = ['task', 'acceptance', 'tests', 'judge', 'policy', 'maxConsecutiveBlocks', 'stateDir'];

  it('suggests the nearest known name for a misspelling', () => {
    expect(closestName('maxConsecutiveBlock', top)).toBe('maxConsecutiveBlocks');
    expect(closestName('test', top)).toBe('tests');
    expect(closestName('jugde', top)).toBe('judge');
    expect(closestName('comand', ['command', 'args', 'report', 'timeoutMs'])).toBe('command');
    expect(closestName('timeout', ['command', 'args', 'report', 'timeoutMs'])).toBe('timeoutMs');
  });

  it('ignores case', () => {
    expect(closestName('baseUrl', ['client', 'baseURL', 'model', 'apiKeyEnv', 'timeoutMs'])).toBe('baseURL');
    expect(closestName('Task', top)).toBe('task');
  });

  it('suggests nothing when no name is close enough', () => {
    expect(closestName('colour', top)).toBeUndefined();
    expect(closestName('url', ['client', 'baseURL', 'model', 'apiKeyEnv', 'timeoutMs'])).toBeUndefined();
    expect(closestName('ab', ['cd'])).toBeUndefined();
    expect(closestName('anything', [])).toBeUndefined();
  });

  it('prefers the closer of two candidates, the first on a tie', () => {
    expect(closestName('comand', ['comma', 'command'])).toBe('command');
    expect(closestName('abcdef', ['abcdeX', 'abcdeY'])).toBe('abcdeX');
  });
});
