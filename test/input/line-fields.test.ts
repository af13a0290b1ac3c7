import { describe, expect, it } from 'vitest';
import {
  forEachJsonLine,
  formatLineError,
  lineError,
  LineFieldError,
  readObject,
  readProbabilities,
  readString,
  readStringArray,
} from '../../src/input/line-fields.js';

describe('line fields', () => {
  it('reads objects, strings and string arrays, naming the field or item that is wrong', () => {
    expect(readObject({ a: 1 }, 'x')).toEqual({ a: 1 });
    expect(() => readObject([1], 'tests')).toThrow(new LineFieldError('must be a JSON object, got an array', 'tests'));
    expect(readString('s', 'f')).toBe('s');
    const error = (() => {
      try {
        readStringArray(['a', 2], 'failed');
      } catch (caught) {
        return caught as LineFieldError;
      }
      return undefined;
    })();
    expect(error?.field).toBe('failed[1]');
    expect(error?.message).toBe('must be a string, got 2');
  });

  it('formats errors with and without a line and field', () => {
    expect(formatLineError(lineError('a.jsonl', 3, 'label', 'is missing'))).toBe('a.jsonl:3: label: is missing');
    expect(formatLineError(lineError('a.jsonl', undefined, undefined, 'empty'))).toBe('a.jsonl: empty');
    expect(lineError('a', undefined, undefined, 'm')).toEqual({ source: 'a', message: 'm' });
  });
});

describe('forEachJsonLine and readProbabilities', () => {
  it('skips blank lines, numbers lines from 1 and stops at the first problem', () => {
    const seen: [unknown, number][] = [];
    expect(forEachJsonLine('{"a":1}\n\n  \n[2]\n', 'f', (value, line) => seen.push([value, line]))).toBeUndefined();
    expect(seen).toEqual([[{ a: 1 }, 1], [[2], 4]]);
    expect(forEachJsonLine('{"a":1}\n{oops\n{"b":2}', 'f', () => undefined)).toMatchObject({ source: 'f', line: 2, message: expect.stringMatching(/^not valid JSON/) });
    const thrown = forEachJsonLine('1\n2\n', 'f', (value) => {
      if (value === 2) throw new LineFieldError('is two', 'n');
    });
    expect(thrown).toEqual({ source: 'f', line: 2, field: 'n', message: 'is two' });
    expect(() => forEachJsonLine('1', 'f', () => { throw new TypeError('a bug'); })).toThrow(TypeError);
  });

  it('reads probabilities and names the criterion that is out of range', () => {
    expect(readProbabilities({ a: 0, b: 1 }, 'probabilities')).toEqual({ a: 0, b: 1 });
    expect(() => readProbabilities({ a: 0.5, b: -0.1 }, 'probabilities')).toThrow(expect.objectContaining({ field: 'probabilities.b' }));
    expect(() => readProbabilities(null, 'probabilities')).toThrow(expect.objectContaining({ field: 'probabilities' }));
  });
});
