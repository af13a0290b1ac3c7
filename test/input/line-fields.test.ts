import { describe, expect, it } from 'vitest';
import { formatLineError, lineError, LineFieldError, readObject, readString, readStringArray } from '../../src/input/line-fields.js';

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
