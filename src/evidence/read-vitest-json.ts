import { readJestShapedReport } from './jest-shaped-report.js';
import type { ReportEvidence } from './report-evidence.js';

/**
 * Reads the report of vitest's JSON reporter (`--reporter=json`), as text or
 * as the parsed object. Failed tests are named the way vitest prints them:
 * the file relative to the common folder of all test files, the describe
 * blocks and the title, joined by ` > `. Throws an {@link EvidenceError} for
 * text that is not JSON or JSON of the wrong shape, with the JSON path.
 *
 * @example
 * const evidence = readVitestJson(await readFile('vitest-report.json', 'utf8'));
 * evidence.failed; // ['math.test.ts > math > division > rounds down']
 */
export function readVitestJson(json: string | object): ReportEvidence {
  return readJestShapedReport(json, { format: 'vitest-json', separator: ' > ' });
}
