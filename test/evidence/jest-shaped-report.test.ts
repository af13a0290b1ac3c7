import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EvidenceError } from '../../src/evidence/evidence-error.js';
import { readJestShapedReport } from '../../src/evidence/jest-shaped-report.js';
import { expectInvariants, expectReadOrEvidenceError, fixtureText } from './fixtures.js';

const JEST = { format: 'jest-json', separator: ' › ' } as const;

function shapeError(input: unknown): EvidenceError {
  try {
    readJestShapedReport(input, JEST);
  } catch (error) {
    if (error instanceof EvidenceError) return error;
    throw error;
  }
  throw new Error('expected an EvidenceError');
}

describe('readJestShapedReport', () => {
  it('says where the JSON is broken, and whether it was cut short', () => {
    expect(shapeError('{"testResults": [\n  {"name": "a", }\n]}')).toMatchObject({ kind: 'syntax', line: 2 });
    const text = fixtureText('jest/fail.json');
    expect(shapeError(text.slice(0, text.length / 2))).toMatchObject({ kind: 'truncated' });
    expect(shapeError('')).toMatchObject({ kind: 'empty' });
    expect(shapeError('<?xml version="1.0"?><testsuites/>')).toMatchObject({ kind: 'syntax', format: 'jest-json' });
  });

  it('names the JSON path of a value of the wrong shape', () => {
    expect(shapeError('[]')).toMatchObject({ kind: 'shape', path: '$' });
    expect(shapeError({ numTotalTests: 3 })).toMatchObject({ kind: 'shape', path: 'testResults' });
    expect(shapeError({ testResults: [{ name: 'a.test.js', assertionResults: [{ status: 'passed' }, { status: 'exploded' }] }] })).toMatchObject({
      kind: 'shape',
      path: 'testResults[0].assertionResults[1].status',
    });
    expect(shapeError({ testResults: [{ name: 'a.test.js', assertionResults: [{ status: 'failed', title: 't', ancestorTitles: 'x' }] }] })).toMatchObject({
      path: 'testResults[0].assertionResults[0].ancestorTitles',
    });
    expect(shapeError({ testResults: [{ assertionResults: [] }] })).toMatchObject({ path: 'testResults[0].name' });
    expect(shapeError({ testResults: [{ name: 'a', assertionResults: {} }] }).message).toBe(
      'testResults[0].assertionResults: expected an array of tests, got an object',
    );
  });

  it('names failed tests by the file relative to the common folder', () => {
    const evidence = readJestShapedReport(
      {
        testResults: [
          { name: '/repo/src/a.test.ts', status: 'failed', assertionResults: [{ status: 'failed', title: 't', ancestorTitles: ['d'], failureMessages: ['x'] }] },
          { name: '/repo/test/b.test.ts', status: 'passed', assertionResults: [{ status: 'passed', title: 'u' }] },
        ],
      },
      JEST,
    );
    expect(evidence.failed).toEqual(['src/a.test.ts › d › t']);
  });

  it('never crashes and keeps the invariants on random JSON', async () => {
    const status = fc.constantFrom('passed', 'failed', 'skipped', 'pending', 'todo', 'disabled', 'weird', 3);
    const assertion = fc.record(
      { status, title: fc.oneof(fc.string(), fc.constant(undefined)), ancestorTitles: fc.array(fc.string(), { maxLength: 3 }), failureMessages: fc.array(fc.string(), { maxLength: 2 }) },
      { requiredKeys: ['status'] },
    );
    const file = fc.record(
      { name: fc.oneof(fc.string(), fc.constant('/p/x.test.js')), status: fc.constantFrom('passed', 'failed'), message: fc.string(), assertionResults: fc.array(assertion, { maxLength: 5 }) },
      { requiredKeys: ['name'] },
    );
    const report = fc.oneof(fc.record({ testResults: fc.array(file, { maxLength: 4 }), success: fc.boolean() }), fc.anything());
    await fc.assert(
      fc.asyncProperty(report, async (value) => {
        await expectReadOrEvidenceError(() => readJestShapedReport(value, JEST));
        await expectReadOrEvidenceError(() => readJestShapedReport(JSON.stringify(value) ?? 'undefined', JEST));
      }),
      { numRuns: 400 },
    );
  });

  it('counts every assertion once', () => {
    const evidence = readJestShapedReport(fixtureText('vitest/skip-todo.json'), { format: 'vitest-json', separator: ' > ' });
    expectInvariants(evidence);
    expect(evidence.total).toBe(7);
  });
});
