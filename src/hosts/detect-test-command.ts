import type { TestCommandConfig } from './stopwise-config.js';

/** A test command `stopwise init` proposes, how it found it, and what its evidence is worth. */
export interface DetectedTestCommand {
  readonly tests: Omit<TestCommandConfig, 'timeoutMs'>;
  readonly source: string;
  /**
   * Set when no machine-readable report could be arranged: the hook then
   * reads the exit code alone (`tests.report.format: 'exit-code'`), and this
   * says so for the person running `init`.
   */
  readonly warning?: string;
}

/** The JSON report the proposed vitest and jest commands write, inside the ignored `.stopwise` folder. */
export const INIT_REPORT_PATH = '.stopwise/test-report.json';
/** The JUnit XML report the proposed pytest commands write. */
export const INIT_JUNIT_PATH = '.stopwise/junit.xml';

const NPM_PLACEHOLDER = /no test specified/;
/** Anything that makes a command line more than one plain invocation: pipes, lists, redirections, substitutions. */
const SHELL_SYNTAX = /[|&;<>()`\n]|\$\(/;
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/;

/**
 * Proposes a test command from a project's `package.json` (parsed JSON).
 * vitest and jest write their JSON report to a file the hook reads; a `node
 * --test` script runs as written with `--test-reporter=tap` put right after
 * `--test` (after the paths, node would take it for a file); a mocha script
 * gets `--reporter tap` through `npm test --`. Any other test script runs
 * with its exit code as the only evidence, with a warning. `undefined` when
 * there is no test script and no known runner.
 */
export function detectTestCommand(packageJson: unknown): DetectedTestCommand | undefined {
  if (typeof packageJson !== 'object' || packageJson === null || Array.isArray(packageJson)) return undefined;
  const record = packageJson as Record<string, unknown>;
  const deps = { ...asRecord(record.dependencies), ...asRecord(record.devDependencies) };
  const script = asRecord(record.scripts).test;
  const testScript = typeof script === 'string' && !NPM_PLACEHOLDER.test(script) ? script.trim() : undefined;

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
  if (testScript === undefined || testScript === '') return undefined;
  const invocation = parseInvocation(testScript);
  if (invocation?.program === 'node') {
    const withReporter = insertNodeTestReporter(testScript);
    if (withReporter !== undefined) {
      return { tests: { command: withReporter, report: { format: 'tap' } }, source: 'the node --test script of package.json, with a TAP reporter' };
    }
  }
  // Arguments after `npm test --` go to the end of the script: fine for mocha, which reads options anywhere.
  if (invocation?.program === 'mocha' && !hasOption(invocation.args, ['--reporter', '-R'])) {
    return {
      tests: { command: 'npm', args: ['test', '--silent', '--', '--reporter', 'tap'], report: { format: 'tap' } },
      source: 'the mocha script of package.json, with its TAP reporter',
    };
  }
  return exitCodeOnly({ command: 'npm', args: ['test', '--silent'] }, 'the test script of package.json');
}

/**
 * Proposes how to run a test command given as one command line (`init
 * --test-command`, or the answer to init's question): a known runner gets a
 * report the hook reads (`node --test`: TAP; mocha: TAP; pytest: JUnit XML;
 * vitest and jest: their JSON report); anything else, or a line with pipes or
 * lists, is run as it is with its exit code as the only evidence, with a
 * warning.
 */
export function proposeTestCommand(commandLine: string, source: string): DetectedTestCommand {
  const line = commandLine.trim();
  const invocation = parseInvocation(line);
  const withReport = (tests: Omit<TestCommandConfig, 'timeoutMs'>, what: string): DetectedTestCommand => ({ tests, source: `${source}, ${what}` });
  switch (invocation?.program) {
    case 'node': {
      const withReporter = insertNodeTestReporter(line);
      if (withReporter !== undefined) return withReport({ command: withReporter, report: { format: 'tap' } }, 'with a TAP reporter');
      break;
    }
    case 'mocha':
      if (!hasOption(invocation.args, ['--reporter', '-R'])) return withReport({ command: `${line} --reporter tap`, report: { format: 'tap' } }, 'with its TAP reporter');
      break;
    case 'pytest': {
      const given = invocation.args.find((arg) => arg.startsWith('--junitxml='))?.slice('--junitxml='.length);
      if (given !== undefined && given !== '') return withReport({ command: line, report: { format: 'junit', path: given } }, 'reading its JUnit XML report');
      if (given === undefined && !invocation.args.includes('--junitxml') && !invocation.args.includes('--junit-xml')) {
        return withReport({ command: `${line} --junitxml=${INIT_JUNIT_PATH}`, report: { format: 'junit', path: INIT_JUNIT_PATH } }, 'with a JUnit XML report');
      }
      break;
    }
    case 'vitest':
      if (!hasOption(invocation.args, ['--reporter', '--outputFile'])) {
        const run = invocation.args.includes('run') || invocation.args.includes('--run') ? '' : ' --run';
        return withReport(
          { command: `${line}${run} --reporter=json --outputFile=${INIT_REPORT_PATH}`, report: { format: 'vitest-json', path: INIT_REPORT_PATH } },
          'with its JSON report',
        );
      }
      break;
    case 'jest':
      if (!hasOption(invocation.args, ['--json', '--outputFile'])) {
        return withReport(
          { command: `${line} --ci --json --outputFile=${INIT_REPORT_PATH}`, report: { format: 'jest-json', path: INIT_REPORT_PATH } },
          'with its JSON report',
        );
      }
      break;
  }
  return exitCodeOnly({ command: line }, source);
}

function exitCodeOnly(tests: Omit<TestCommandConfig, 'timeoutMs' | 'report'>, source: string): DetectedTestCommand {
  const shown = [tests.command, ...(tests.args ?? [])].join(' ');
  return {
    tests: { ...tests, report: { format: 'exit-code' } },
    source,
    warning:
      `\`${shown}\` writes no test report stopwise can read, so the hook will judge the tests by its exit code alone ` +
      '(tests.report.format "exit-code"): exit 0 counts as one passing check. That is weak evidence: the hook cannot name the failing tests, ' +
      'and a command that runs no test at all passes. For real evidence, make the command write a JUnit XML, TAP, vitest or jest JSON report ' +
      'and set tests.report in stopwise.config.json to read it.',
  };
}

/**
 * A command line that is one plain invocation: the program (the test runner,
 * seen through `npx` and `python -m`) and its arguments, after any leading
 * `NAME=value` assignments. `undefined` for anything with shell syntax beyond
 * that, or a program run through a wrapper.
 */
function parseInvocation(line: string): { readonly program: string; readonly args: readonly string[] } | undefined {
  if (SHELL_SYNTAX.test(line)) return undefined;
  const words = line.split(/\s+/).filter((word) => word !== '');
  let index = 0;
  while (index < words.length && ENV_ASSIGNMENT.test(words[index] as string)) index++;
  let program = words[index];
  if (program === 'npx') program = words[++index];
  if ((program === 'python' || program === 'python3') && words[index + 1] === '-m') {
    index += 2;
    program = words[index];
  }
  if (program === undefined) return undefined;
  return { program, args: words.slice(index + 1) };
}

/** A `node ... --test ...` line with `--test-reporter=tap` put right after `--test`; `undefined` when it has no `--test` or sets its own reporter. */
function insertNodeTestReporter(line: string): string | undefined {
  const invocation = parseInvocation(line);
  if (invocation?.program !== 'node' || hasOption(invocation.args, ['--test-reporter'])) return undefined;
  const flag = /(^|\s)--test(?=\s|$)/.exec(line);
  if (flag === null) return undefined;
  const end = flag.index + flag[0].length;
  return `${line.slice(0, end)} --test-reporter=tap${line.slice(end)}`;
}

function hasOption(args: readonly string[], names: readonly string[]): boolean {
  return args.some((arg) => names.some((name) => arg === name || arg.startsWith(`${name}=`)));
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
