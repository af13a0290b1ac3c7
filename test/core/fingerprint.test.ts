import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FINGERPRINT_LENGTH, fingerprintProgress } from '../../src/core/fingerprint.js';
import { testEvidence } from './arbitraries.js';

const tests = { passed: false, failed: ['a > b', 'c'], ran: 7 };

describe('fingerprintProgress', () => {
  it('has the same fixed size for a 1-byte and a 10 MB output', () => {
    const small = fingerprintProgress(tests, 'x');
    const large = fingerprintProgress(tests, 'y'.repeat(10 * 1024 * 1024));
    expect(small).toHaveLength(FINGERPRINT_LENGTH);
    expect(large).toHaveLength(FINGERPRINT_LENGTH);
    expect(small).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is stable for equal inputs and ignores the order of failed names', () => {
    expect(fingerprintProgress(tests, 'out')).toBe(fingerprintProgress({ ...tests }, 'out'));
    expect(fingerprintProgress({ ...tests, failed: ['c', 'a > b'] }, 'out')).toBe(fingerprintProgress(tests, 'out'));
  });

  it('changes with each part of the progress', () => {
    const base = fingerprintProgress(tests, 'out');
    expect(fingerprintProgress({ ...tests, passed: true }, 'out')).not.toBe(base);
    expect(fingerprintProgress({ ...tests, ran: 8 }, 'out')).not.toBe(base);
    expect(fingerprintProgress({ ...tests, failed: ['a > b'] }, 'out')).not.toBe(base);
    expect(fingerprintProgress(tests, 'out ')).not.toBe(base);
  });

  it('cannot be fooled by moving text between the failed names and the output', () => {
    const a = fingerprintProgress({ passed: false, failed: ['ab'], ran: 1 }, 'c');
    const b = fingerprintProgress({ passed: false, failed: ['a'], ran: 1 }, 'bc');
    const c = fingerprintProgress({ passed: false, failed: ['a', 'b'], ran: 1 }, 'c');
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('gives equal fingerprints for equal inputs and different ones for different outputs', () => {
    fc.assert(
      fc.property(testEvidence, fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ maxLength: 300 }), (t, x, y) => {
        expect(fingerprintProgress(t, x)).toBe(fingerprintProgress(structuredClone(t), `${x}`));
        if (x !== y) expect(fingerprintProgress(t, x)).not.toBe(fingerprintProgress(t, y));
      }),
      { numRuns: 2000 },
    );
  });
});
