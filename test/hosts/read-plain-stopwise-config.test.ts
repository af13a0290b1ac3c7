import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readPlainStopwiseConfig } from '../../src/hosts/read-plain-stopwise-config.js';
import { parseStopwiseConfig } from '../../src/hosts/stopwise-config.js';

/** Where readPlainStopwiseConfig answers, parseStopwiseConfig accepts the value and gives the same configuration. */
function expectSameAsSchema(value: unknown): boolean {
  const plain = readPlainStopwiseConfig(value);
  if (plain === undefined) return false;
  const parsed = parseStopwiseConfig(value);
  expect(parsed).toEqual({ ok: true, config: plain });
  return true;
}

const anyValue = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1, 1.5, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER + 2, '', ' ', 'npm', 'x y', [], [''], ['a'], {}),
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.double(),
);
/** A value for `key`: mostly of the right type, sometimes not. */
function field<T>(right: fc.Arbitrary<T>): fc.Arbitrary<T | unknown> {
  return fc.oneof({ weight: 12, arbitrary: right }, { weight: 1, arbitrary: anyValue });
}
const nonEmpty = fc.constantFrom('npm', 'test', 'a', 'node --test', ' x ');
const timeout = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 2_147_483_647 }) }, { weight: 1, arbitrary: fc.constantFrom(0, -5, 1.5, 2_147_483_648) });
const tests = fc.record(
  {
    command: field(nonEmpty),
    args: field(fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 })),
    report: field(fc.record({ format: field(fc.constantFrom('junit', 'tap', 'vitest-json', 'jest-json', 'exit-code', 'xml')), path: field(fc.constantFrom('junit.xml', 'junit.xml', '')) }, { requiredKeys: ['format'] })),
    timeoutMs: field(timeout),
  },
  { requiredKeys: [] },
);
const judge = fc.record(
  {
    client: field(fc.constantFrom('none', 'none', 'none', 'system-one', 'openai-compatible')),
    timeoutMs: field(timeout),
  },
  { requiredKeys: [] },
);
const policy = fc.record(
  {
    doneThreshold: field(fc.oneof(fc.double({ min: 0.5, max: 0.99, noNaN: true }), fc.constantFrom(-0.1, 1.5))),
    midBandLow: field(fc.oneof(fc.double({ min: 0.05, max: 0.5, noNaN: true }), fc.constantFrom(-0.1, 0.995))),
    maxSteps: field(fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(0, -2, 2.5))),
    stallRounds: field(fc.oneof(fc.integer({ min: 2, max: 10 }), fc.constantFrom(0, 1, -2))),
  },
  { requiredKeys: [] },
);
const config = fc.record(
  {
    $schema: field(fc.constant('https://example.com/schema.json')),
    task: field(fc.constantFrom('', ' Fix the parser ', 'Ship it')),
    acceptance: field(fc.array(fc.constantFrom('works', 'works', 'is fast', ''), { maxLength: 3 })),
    tests: field(tests),
    judge: field(judge),
    policy: field(policy),
    maxConsecutiveBlocks: field(fc.integer({ min: 0, max: 5 })),
    stateDir: field(fc.constantFrom('.stopwise/state', 'state', 'state', '')),
    outcomesFile: field(fc.constantFrom('outcomes.jsonl', 'logs/outcomes.jsonl', '', 3)),
  },
  { requiredKeys: [] },
);
/** Now and then a key the schema does not know, or one it knows only with a decision model, somewhere in the value. */
const extraKey = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom(['', 'token'], ['', 'unknown'], ['tests', 'extra'], ['judge', 'apiKey'], ['judge', 'baseURL'], ['judge', 'model'], ['policy', 'other'], ['tests.report', 'other']) },
);
const withExtraKey = fc.tuple(config, extraKey).map(([value, extra]) => {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  if (extra === undefined) return copy;
  const [where, key] = extra;
  let target: unknown = copy;
  for (const part of where === '' ? [] : where.split('.')) target = (target as Record<string, unknown> | undefined)?.[part];
  if (typeof target === 'object' && target !== null && !Array.isArray(target)) (target as Record<string, unknown>)[key] = 'x';
  return copy;
});

describe('readPlainStopwiseConfig', () => {
  it('reads the starter configuration init writes, and the usual shapes, as the schema does', () => {
    for (const value of [
      { task: '', acceptance: [], tests: { command: 'npm', args: ['test'] }, judge: { client: 'none' }, maxConsecutiveBlocks: 1 },
      { tests: { command: 'printf', args: ['TAP version 13\n1..1\nok 1 - passes\n'] }, judge: { client: 'none' } },
      { tests: { command: 'npx vitest run --reporter=junit --outputFile=junit.xml', report: { format: 'junit', path: 'junit.xml' }, timeoutMs: 60_000 } },
      { $schema: 'x', task: ' Fix it ', acceptance: ['works'], tests: { command: 'npm' }, policy: { doneThreshold: 0.9, maxSteps: 20 }, stateDir: 'state' },
      { tests: { command: 'npm' }, outcomesFile: '.stopwise/outcomes.jsonl' },
    ]) {
      expect(expectSameAsSchema(value), JSON.stringify(value)).toBe(true);
    }
  });

  it('leaves the rest to the schema: a decision model, exit-code reports, unknown keys, wrong types', () => {
    for (const value of [
      { tests: { command: 'npm' }, judge: { client: 'system-one' }, task: 'x' },
      { tests: { command: 'npm', report: { format: 'exit-code' } } },
      { tests: { command: 'npm' }, apiKey: 'secret' },
      { tests: { command: '' } },
      { tests: { command: 'npm', timeoutMs: 0 } },
      { tests: { command: 'npm' }, policy: { doneThreshold: 2 } },
      { tests: { command: 'npm' }, acceptance: [''] },
      null,
      [],
    ]) {
      expect(readPlainStopwiseConfig(value), JSON.stringify(value)).toBeUndefined();
    }
  });

  it('never answers differently from the schema on generated configurations', () => {
    let answered = 0;
    let declined = 0;
    fc.assert(
      fc.property(withExtraKey, (value) => {
        if (expectSameAsSchema(value)) answered += 1;
        else declined += 1;
      }),
      { numRuns: 6000 },
    );
    expect(answered).toBeGreaterThan(10);
    expect(declined).toBeGreaterThan(20);
  });
});
