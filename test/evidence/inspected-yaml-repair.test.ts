import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InspectedYamlRepair } from '../../src/evidence/inspected-yaml-repair.js';
import { readTap } from '../../src/evidence/read-tap.js';
import { trimMessage } from '../../src/evidence/report-evidence.js';

function repairBlock(lines: readonly string[]): string[] {
  const repair = new InspectedYamlRepair();
  return lines.map((line) => repair.line(line));
}

describe('InspectedYamlRepair', () => {
  it('turns a string that util.inspect cut into a double-quoted scalar ending in an ellipsis', () => {
    const out = repairBlock(['  ---', "  error: 'LLLL'... 90000 more characters", '  ...']);
    expect(out[1]).toBe('  error: "LLLL…"');
  });

  it('turns a backtick-quoted string into a double-quoted scalar with the same text', () => {
    const out = repairBlock(['---', '  error: `it\'s "both" \\\\ \\n \\x41\\u00e9\\u{1F389}`', '...']);
    expect(out[1]).toBe(`  error: ${JSON.stringify('it\'s "both" \\ \n Aé🎉')}`);
  });

  it('keeps YAML that parses, lines outside a block and the lines of a block scalar', () => {
    const lines = [
      "error: 'outside'... 3 more characters",
      '  ---',
      "  error: 'short'",
      '  stack: |-',
      "    actual: 'in the text'... 3 more characters",
      '',
      '    `quoted` text',
      "  actual: 'after the block'... 3 more characters",
      '  ...',
      "  error: 'after the end'... 3 more characters",
    ];
    const out = repairBlock(lines);
    expect(out).toEqual([...lines.slice(0, 7), '  actual: "after the block…"', ...lines.slice(8)]);
  });

  it('leaves the block at a test point or a line less indented than its ---, even without ...', () => {
    const lines = ['  ---', '  error: |-', '    boom', 'ok 2 - reads `a`: `b`', "  error: 'x'... 1 more character", '    ---', 'not ok 3 - c: `d`'];
    expect(repairBlock(lines)).toEqual(lines);
  });

  it('keeps a carriage return at the end of a line it does not change', () => {
    expect(repairBlock(['---\r', "  error: 'x'\r"])).toEqual(['---\r', "  error: 'x'\r"]);
    expect(repairBlock(['---\r', "  error: 'x'... 1 more character\r"])).toEqual(['---\r', '  error: "x…"']);
  });

  it('keeps a line or paragraph separator of a cut string, which JavaScript and YAML 1.1 read as a line break', async () => {
    for (const separator of ['\u2028', '\u2029']) {
      const evidence = await readTap(['TAP version 13', 'not ok 1 - t', '  ---', `  error: ${JSON.stringify(`a${separator}b`)}... 3 more characters`, '  ...', '1..1'].join('\n'));
      expect(evidence.failures[0]?.message).toBe(`a${separator}b…`);
    }
  });

  it('lets readTap read back the inspected string, cut as every reader cuts, for any string', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.nat(99_999), async (text, more) => {
        const inspected = JSON.stringify(text);
        const backticked = `\`${inspected.slice(1, -1).replace(/\\"/g, '"')}\``;
        for (const [value, expected] of [
          [`${inspected}... ${more} more characters`, `${text}…`],
          [backticked, text],
        ] as const) {
          const evidence = await readTap(['TAP version 13', 'not ok 1 - t', '  ---', `  error: ${value}`, '  ...', '1..1'].join('\n'));
          expect(evidence.failures[0]?.message).toBe(trimMessage(expected));
        }
      }),
      { numRuns: 300 },
    );
  });
});
