import { describe, expect, it } from 'vitest';
import { assertTestEvidence, noTestsRan, testsFailed, type TestEvidence } from '../../src/core/test-evidence.js';

describe('test evidence', () => {
  it('reads ran === 0 as "no tests ran", whatever passed says', () => {
    expect(noTestsRan({ passed: true, failed: [], ran: 0 })).toBe(true);
    expect(testsFailed({ passed: false, failed: ['a'], ran: 0 })).toBe(false);
  });

  it('counts a run as failed when passed is false or a failed name is listed', () => {
    expect(testsFailed({ passed: false, failed: [], ran: 3 })).toBe(true);
    expect(testsFailed({ passed: true, failed: ['x'], ran: 3 })).toBe(true);
    expect(testsFailed({ passed: true, failed: [], ran: 3 })).toBe(false);
  });

  it.each([
    [{ passed: 'yes', failed: [], ran: 1 }, /tests\.passed must be a boolean/],
    [{ passed: true, failed: [], ran: -1 }, /tests\.ran must be a non-negative integer/],
    [{ passed: true, failed: [], ran: 1.5 }, /tests\.ran/],
    [{ passed: true, failed: 'a', ran: 1 }, /tests\.failed must be an array/],
    [{ passed: true, failed: [1], ran: 1 }, /tests\.failed\[0\] must be a string/],
    [null, /tests must be an object/],
  ])('rejects malformed evidence %j', (tests, message) => {
    expect(() => assertTestEvidence(tests as unknown as TestEvidence)).toThrow(message);
  });
});
