import { readJestShapedReport } from './jest-shaped-report.js';
import type { ReportEvidence } from './report-evidence.js';

/**
 * Reads the report of `jest --json`, as text or as the parsed object. Failed
 * tests are named the way jest prints them, with the file first: the file
 * relative to the common folder of all test files, the describe blocks and
 * the title, joined by ` › `. A todo counts as skipped. Throws an
 * {@link EvidenceError} for text that is not JSON or JSON of the wrong shape,
 * with the JSON path.
 *
 * @example
 * const evidence = readJestJson(await readFile('jest-report.json', 'utf8'));
 * evidence.failed; // ['math.test.js › math › division › rounds down']
 */
export function readJestJson(json: string | object): ReportEvidence {
  return readJestShapedReport(json, { format: 'jest-json', separator: ' › ' });
}
