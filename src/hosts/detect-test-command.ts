import type { TestCommandConfig } from './stopwise-config.js';

/** A test command `stopwise init` proposes, and how it found it. */
export interface DetectedTestCommand {
  readonly tests: Omit<TestCommandConfig, 'timeoutMs'>;
  readonly source: string;
}

/** The report the proposed commands write, inside the ignored `.stopwise` folder. */
export const INIT_REPORT_PATH = '.stopwise/test-report.json';

const NPM_PLACEHOLDER = /no test specified/;

/**
 * Proposes a test command from a project's `package.json` (parsed JSON):
 * vitest and jest write their JSON report to a file the hook reads, `node
 * --test` prints TAP, and any other `test` script runs as it is (its exit code
 * and any TAP on stdout then decide). `undefined` when nothing fits.
 */
export function detectTestCommand(packageJson: unknown): DetectedTestCommand | undefined {
  if (typeof packageJson !== 'object' || packageJson === null || Array.isArray(packageJson)) return undefined;
  const record = packageJson as Record<string, unknown>;
  const deps = { ...asRecord(record.dependencies), ...asRecord(record.devDependencies) };
  const script = asRecord(record.scripts).test;
  const testScript = typeof script === 'string' && !NPM_PLACEHOLDER.test(script) ? script : undefined;

  if ('vitest' in deps || /\bvitest\b/.test(testScript ?? '')) {
    return {
      tests: {
        command: 'npx',
        args: ['vitest', 'run', '--reporter=json', `--outputFile=${INIT_REPORT_PATH}`],
        report: { format: 'vitest-json', path: INIT_REPORT_PATH },
      },
      source: 'vitest in package.json',
    };
  }
  if ('jest' in deps || /\bjest\b/.test(testScript ?? '')) {
    return {
      tests: {
        command: 'npx',
        args: ['jest', '--ci', '--json', `--outputFile=${INIT_REPORT_PATH}`],
        report: { format: 'jest-json', path: INIT_REPORT_PATH },
      },
      source: 'jest in package.json',
    };
  }
  if (testScript !== undefined && /\bnode\s+(?:[^|&;]*\s)?--test\b/.test(testScript)) {
    return { tests: { command: 'node', args: ['--test', '--test-reporter=tap'] }, source: 'node --test in the test script' };
  }
  if (testScript !== undefined) return { tests: { command: 'npm', args: ['test', '--silent'] }, source: 'the test script of package.json' };
  return undefined;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
