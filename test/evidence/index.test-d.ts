import { expectTypeOf, test } from 'vitest';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import type { RunTestsOptions, TestRunResult } from '../../src/evidence/index.js';
import type { ReportEvidence } from '../../src/evidence/report-evidence.js';
import type { TestReportOptions } from '../../src/evidence/run-tests.js';
import { readJUnitXml, readJestJson, readTap, readVitestJson, runTests } from '../../src/evidence/index.js';

test('the shapes the stop hook relies on', () => {
  expectTypeOf<TestReportOptions['format']>().toEqualTypeOf<'junit' | 'tap' | 'vitest-json' | 'jest-json' | 'exit-code'>();
  expectTypeOf<TestReportOptions['path']>().toEqualTypeOf<string | undefined>();
  expectTypeOf<RunTestsOptions>().toHaveProperty('timeoutMs').toEqualTypeOf<number>();
  expectTypeOf<TestRunResult>().toMatchTypeOf<TestEvidence>();
  expectTypeOf<TestRunResult['exitCode']>().toEqualTypeOf<number | null>();
  expectTypeOf(runTests).returns.resolves.toEqualTypeOf<TestRunResult>();
  expectTypeOf(readJUnitXml).returns.resolves.toEqualTypeOf<ReportEvidence>();
  expectTypeOf(readTap).returns.resolves.toEqualTypeOf<ReportEvidence>();
  expectTypeOf(readVitestJson).returns.toEqualTypeOf<ReportEvidence>();
  expectTypeOf(readJestJson).parameter(0).toEqualTypeOf<string | object>();
});
