import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readPlainTap } from '../../src/evidence/read-plain-tap.js';
import { readTap } from '../../src/evidence/read-tap.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/evidence');

/** readTap's result, or the error it throws. */
async function tapResult(text: string): Promise<unknown> {
  try {
    return await readTap(text);
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Where readPlainTap answers, it answers what readTap does. */
async function expectSameAsReadTap(text: string): Promise<boolean> {
  const plain = readPlainTap(text);
  if (plain !== undefined) expect(plain).toEqual(await tapResult(text));
  return plain !== undefined;
}

const description = fc.oneof(
  fc.stringMatching(/^[\w,.:;'"()/<>=+*!?@$%&|~][\w ,.:;'"()/<>=+*!?@$%&|~-]{0,12}[\w.)'"]$/),
  fc.stringMatching(/^[\w.)'"]$/),
);

/** A passing test point as a runner prints it: `ok N`, `ok N - name` or `ok N name`. */
function passingPoint(id: number, name: string | undefined, dash: boolean): string {
  if (name === undefined) return `ok ${id}`;
  return dash ? `ok ${id} - ${name}` : `ok ${id} ${name}`;
}

describe('readPlainTap', () => {
  it('reads a plan and passing test points as readTap does, with the plan first or last and an optional version line', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.option(description, { nil: undefined }), fc.boolean()), { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        fc.constantFrom('', 'TAP version 13\n', 'TAP version 14\n'),
        fc.boolean(),
        async (points, planFirst, version, finalNewline) => {
          const lines = points.map(([name, dash], index) => passingPoint(index + 1, name, dash));
          const plan = `1..${points.length}`;
          const text = version + (planFirst ? [plan, ...lines] : [...lines, plan]).join('\n') + (finalNewline ? '\n' : '');
          expect(await expectSameAsReadTap(text)).toBe(true);
          expect(readPlainTap(text)).toMatchObject({ passed: true, ran: points.length, failed: [], skipped: 0 });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves everything else to readTap, and never disagrees with it on mutated streams', async () => {
    const line = fc.oneof(
      fc.constantFrom('TAP version 13', 'TAP version 12', '1..1', '1..2', '1..0', '1..3 # skip', 'Bail out!', '# Subtest: s', '# tests 1', '  ---', '  ...', 'pragma +strict', ''),
      fc.tuple(fc.constantFrom('ok', 'not ok', 'ok  ', ' ok'), fc.nat(4), description, fc.constantFrom('', ' ', ' # SKIP', ' # TODO x', ' {', ' \\# x', '-')).map(
        ([status, id, name, tail]) => `${status} ${id} - ${name}${tail}`,
      ),
      fc.string({ maxLength: 12 }),
    );
    const plainLines = fc.integer({ min: 1, max: 6 }).map((count) => [...Array.from({ length: count }, (_, index) => `ok ${index + 1} - t${index}`), `1..${count}`]);
    let answered = 0;
    let declined = 0;
    await fc.assert(
      fc.asyncProperty(
        plainLines,
        fc.array(fc.tuple(fc.nat(8), fc.constantFrom('insert', 'replace', 'delete'), line), { maxLength: 3 }),
        fc.constantFrom('\n', '\r\n'),
        async (base, edits, newline) => {
          const lines = [...base];
          for (const [at, edit, text] of edits) {
            const index = at % (lines.length + 1);
            if (edit === 'insert') lines.splice(index, 0, text);
            else if (edit === 'replace') lines.splice(index, 1, text);
            else lines.splice(index, 1);
          }
          if (await expectSameAsReadTap(lines.join(newline))) answered += 1;
          else declined += 1;
        },
      ),
      { numRuns: 1500 },
    );
    expect(answered).toBeGreaterThan(0);
    expect(declined).toBeGreaterThan(0);
  });

  it('declines failures, skips, todos, a wrong count or order, and output around the TAP', () => {
    for (const text of [
      '1..1\nnot ok 1 - fails\n',
      '1..1\nok 1 - later # SKIP\n',
      '1..1\nok 1 - later # TODO\n',
      '1..2\nok 1 - one\n',
      '1..2\nok 2 - two\nok 1 - one\n',
      '1..1\nok 1 - one\n1..1\n',
      '> project@1.0.0 test\n1..1\nok 1 - one\n',
      '1..1\nok 1 - one\n# duration_ms 3\n',
      '1..1\r\nok 1 - one\r\n',
      '1..0\n',
      '',
    ]) {
      expect(readPlainTap(text), text).toBeUndefined();
    }
  });

  it('agrees with readTap on every TAP fixture from real runners', async () => {
    for (const folder of ['tap', 'node-test']) {
      for (const file of readdirSync(join(FIXTURES, folder)).filter((name) => name.endsWith('.tap'))) {
        await expectSameAsReadTap(readFileSync(join(FIXTURES, folder, file), 'utf8'));
      }
    }
  });
});
