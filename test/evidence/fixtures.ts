import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { ReportEvidence } from '../../src/evidence/report-evidence.js';
import { isEvidenceError } from '../../src/evidence/evidence-error.js';
import type { ReportSource } from '../../src/evidence/report-source.js';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'evidence');

/** The path of a fixture under test/fixtures/evidence. */
export function fixturePath(name: string): string {
  return join(FIXTURES, name);
}

/** The bytes of a fixture. */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(fixturePath(name));
}

/** The text of a fixture. */
export function fixtureText(name: string): string {
  return readFileSync(fixturePath(name), 'utf8');
}

/** One fixture and the counts its runner's own summary line gives. */
export interface FixtureCase {
  readonly file: string;
  /** The runner's summary line(s), quoted from the folder's NOTES.md. */
  readonly summary: string;
  readonly ran: number;
  readonly skipped: number;
  readonly failed: readonly string[];
  readonly passed: boolean;
  readonly reason?: string;
}

/** Asserts the counts of a reader's result and that the summary line is the one recorded in the note. */
export function expectFixture(evidence: ReportEvidence, expected: FixtureCase): void {
  const folder = expected.file.split('/')[0] ?? '';
  const note = fixtureText(`${folder}/NOTES.md`);
  for (const part of expected.summary.split(' / ')) expect(note, `${folder}/NOTES.md quotes "${part}"`).toContain(part);
  expect(evidence.ran).toBe(expected.ran);
  expect(evidence.skipped).toBe(expected.skipped);
  expect(evidence.total).toBe(expected.ran + expected.skipped);
  expect([...evidence.failed].sort()).toEqual([...expected.failed].sort());
  expect(evidence.passed).toBe(expected.passed);
  expect(evidence.reason).toBe(expected.reason);
  expectInvariants(evidence);
}

/** The invariants every reader keeps, whatever the input. */
export function expectInvariants(evidence: ReportEvidence): void {
  expect(Number.isInteger(evidence.ran) && evidence.ran >= 0).toBe(true);
  expect(Number.isInteger(evidence.skipped) && evidence.skipped >= 0).toBe(true);
  expect(evidence.total).toBe(evidence.ran + evidence.skipped);
  if (evidence.passed) {
    expect(evidence.failed).toEqual([]);
    expect(evidence.ran).toBeGreaterThan(0);
    expect(evidence.reason).toBeUndefined();
  }
  expect(evidence.failed.length).toBeLessThanOrEqual(evidence.ran);
  expect(evidence.failures.map((failure) => failure.name)).toEqual(evidence.failed);
  expect(new Set(evidence.failed).size).toBe(evidence.failed.length);
  for (const failure of evidence.failures) expect(failure.message.length).toBeLessThanOrEqual(1000);
  expect(JSON.parse(JSON.stringify(evidence))).toEqual(evidence);
}

/** Runs a reader on input that may be garbage: it either returns evidence that keeps the invariants or throws an EvidenceError. */
export async function expectReadOrEvidenceError(read: () => Promise<ReportEvidence> | ReportEvidence): Promise<void> {
  let evidence: ReportEvidence;
  try {
    evidence = await read();
  } catch (error) {
    if (!isEvidenceError(error)) throw error;
    expect(error.message.length).toBeGreaterThan(0);
    return;
  }
  expectInvariants(evidence);
}

/** A real fixture with random bytes overwritten, inserted or cut away. */
export function mutatedBytes(sources: readonly Buffer[]): fc.Arbitrary<Buffer> {
  const edit = fc.record({
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    kind: fc.constantFrom('overwrite', 'insert', 'delete', 'truncate'),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
    length: fc.integer({ min: 1, max: 64 }),
  });
  return fc.tuple(fc.constantFrom(...sources), fc.array(edit, { minLength: 1, maxLength: 6 })).map(([source, edits]) => {
    let bytes = Buffer.from(source);
    for (const change of edits) {
      const at = Math.floor(change.at * bytes.length);
      if (change.kind === 'overwrite') {
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(change.bytes), bytes.subarray(at + change.bytes.length)]);
      } else if (change.kind === 'insert') {
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(change.bytes), bytes.subarray(at)]);
      } else if (change.kind === 'delete') {
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + change.length)]);
      } else {
        bytes = bytes.subarray(0, at);
      }
    }
    return bytes;
  });
}

type Reader<S> = (source: S) => Promise<ReportEvidence> | ReportEvidence;

/** One test per fixture: the reader's counts against the runner's own summary. */
export function itReadsFixtures(cases: readonly FixtureCase[], read: Reader<string>): void {
  for (const expected of cases) {
    it(`reads ${expected.file} as its runner counted it`, async () => {
      expectFixture(await read(fixtureText(expected.file)), expected);
    });
  }
}

/** Text, bytes and a stream cut into small pieces give the same result. */
export function itReadsEverySource(cases: readonly FixtureCase[], read: Reader<ReportSource>): void {
  it('gives the same result for text, bytes and a stream cut into small pieces', async () => {
    for (const { file } of cases) {
      const fromText = await read(fixtureText(file));
      expect(await read(fixtureBytes(file))).toEqual(fromText);
      expect(await read(createReadStream(fixturePath(file), { highWaterMark: 7 }))).toEqual(fromText);
    }
  });
}

/** The fuzz tests every reader passes: random bytes and mutated real reports never crash it nor break the invariants. */
export function itSurvivesFuzzing(cases: readonly FixtureCase[], read: Reader<Buffer>, runs = 300): void {
  it('never crashes and keeps the invariants on random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (bytes) => {
        await expectReadOrEvidenceError(() => read(Buffer.from(bytes)));
      }),
      { numRuns: runs },
    );
  });

  it('never crashes and keeps the invariants on mutated real reports', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedBytes(cases.map((c) => fixtureBytes(c.file))), async (bytes) => {
        await expectReadOrEvidenceError(() => read(bytes));
      }),
      { numRuns: runs },
    );
  });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a string holds half a surrogate pair. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** Asserts that a message was cut as the readers cut: at most 1000 code units, an ellipsis last, no half of a surrogate pair, and the given start kept. */
export function expectCutMessage(message: string | undefined, start: string): void {
  expect(message?.startsWith(start), `starts with ${JSON.stringify(start.slice(0, 40))}`).toBe(true);
  expect(message?.endsWith('…')).toBe(true);
  expect(message?.length).toBeGreaterThanOrEqual(999);
  expect(message?.length).toBeLessThanOrEqual(1000);
  expect(hasLoneSurrogate(message ?? '')).toBe(false);
}

/** The titles of the tests in every `long-messages` fixture, in the order they ran; all but the last fail. */
export const LONG_MESSAGE_TESTS = [
  'fails with a 100,000-character message',
  'fails with a multi-line message in many scripts',
  'fails with an emoji across the cut',
  'fails with quotes of every kind',
  'fails with a long multi-line message',
  'fails comparing long strings',
] as const;

/** The message of the multi-line, many-scripts failure in the `long-messages` fixtures. */
export const MANY_SCRIPTS_MESSAGE = 'première ligne : café, naïve, Ærøskøbing\n第二行：测试失败了\nthird line 🎉🚀 done';
