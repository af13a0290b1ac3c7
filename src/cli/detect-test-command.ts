import type { TestReportOptions } from '../evidence/run-tests.js';
import type { TestCommandConfig } from '../hosts/stopwise-config.js';

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
/** The TAP report a `node --test` script that sets its own reporter gets beside it. */
const INIT_TAP_PATH = '.stopwise/test-report.tap';
/** The JUnit XML report the proposed pytest commands write. */
export const INIT_JUNIT_PATH = '.stopwise/junit.xml';

const NPM_PLACEHOLDER = /no test specified/;
/** Anything that makes a command line more than one plain invocation: pipes, lists, redirections, substitutions. */
const SHELL_SYNTAX = /[|&;<>()`\n]|\$\(/;
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/;

/**
 * Proposes a test command from a project's `package.json` (parsed JSON).
 * vitest and jest write their JSON report to a file the hook reads. The test
 * script is looked through `npm test`, `npm run`, `pnpm` and `yarn` to the
 * script they run; a `node --test` (or `tsx --test`) script runs as written
 * with a TAP reporter the hook reads: `--test-reporter=tap` right after
 * `--test` when it sets none (after the paths, node would take it for a
 * file), the TAP it already writes, or a TAP reporter to a file beside its
 * own; a mocha script gets `--reporter tap`. Any other test script runs with
 * its exit code as the only evidence, with a warning. `undefined` when there
 * is no test script and no known runner.
 */
export function detectTestCommand(packageJson: unknown): DetectedTestCommand | undefined {
  if (typeof packageJson !== 'object' || packageJson === null || Array.isArray(packageJson)) return undefined;
  const record = packageJson as Record<string, unknown>;
  const deps = { ...asRecord(record.dependencies), ...asRecord(record.devDependencies) };
  const scripts = asRecord(record.scripts);
  const script = scripts.test;
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
  const resolved = resolveScript('test', testScript, scripts);
  const direct = resolved.through.length === 0;
  const base = direct ? undefined : `the ${resolved.name} script of package.json (through ${resolved.through.join(', ')})`;
  const invocation = parseInvocation(resolved.line);
  const node = nodeTestReport(resolved.line);
  if (node !== undefined) {
    return { tests: { command: viaLocalBin(node.command), report: node.report }, source: `${base ?? 'the node --test script of package.json'}, ${node.what}` };
  }
  if (invocation?.program === 'mocha' && !hasOption(invocation.args, ['--reporter', '-R'])) {
    // Arguments after `npm test --` go to the end of the script: fine for mocha, which reads options anywhere.
    if (direct) {
      return {
        tests: { command: 'npm', args: ['test', '--silent', '--', '--reporter', 'tap'], report: { format: 'tap' } },
        source: 'the mocha script of package.json, with its TAP reporter',
      };
    }
    return { tests: { command: viaLocalBin(`${resolved.line} --reporter tap`), report: { format: 'tap' } }, source: `${base}, with its TAP reporter` };
  }
  return exitCodeOnly({ command: 'npm', args: ['test', '--silent'] }, 'the test script of package.json');
}

/**
 * Proposes how to run a test command given as one command line (`init
 * --test-command`, or the answer to init's question): a known runner gets a
 * report the hook reads (`node --test` and `tsx --test`: TAP; mocha: TAP;
 * pytest: JUnit XML; vitest and jest: their JSON report); `npm test`, `pnpm
 * test`, `yarn test` and `npm run <script>` are looked through to the script
 * of `packageJson` they run; anything else, or a line with pipes or lists, is
 * run as it is with its exit code as the only evidence, with a warning.
 */
export function proposeTestCommand(commandLine: string, source: string, packageJson?: unknown): DetectedTestCommand {
  const line = commandLine.trim();
  const scripts = asRecord(asRecord(packageJson).scripts);
  const name = packageManagerScript(line);
  const script = name === undefined ? undefined : scripts[name];
  if (name !== undefined && typeof script === 'string') {
    const resolved = resolveScript(name, script.trim(), scripts);
    const through = [line, ...resolved.through].join(', ');
    const proposed = proposeRunner(resolved.line, `${source}, the ${resolved.name} script of package.json (through ${through})`);
    if (proposed !== undefined) return { ...proposed, tests: { ...proposed.tests, command: viaLocalBin(proposed.tests.command) } };
  }
  return proposeRunner(line, source) ?? exitCodeOnly({ command: line }, source);
}

function proposeRunner(line: string, source: string): DetectedTestCommand | undefined {
  const invocation = parseInvocation(line);
  const withReport = (tests: Omit<TestCommandConfig, 'timeoutMs'>, what: string): DetectedTestCommand => ({ tests, source: `${source}, ${what}` });
  switch (invocation?.program) {
    case 'node':
    case 'tsx': {
      const node = nodeTestReport(line);
      if (node !== undefined) return withReport({ command: node.command, report: node.report }, node.what);
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
  return undefined;
}

/** How many package-manager scripts deep `init` looks. */
const MAX_SCRIPT_DEPTH = 5;

/** Follows a script that only runs another one (`pnpm run test:unit`, `yarn test:node`) to the one that runs something else. */
function resolveScript(name: string, line: string, scripts: Record<string, unknown>): { readonly name: string; readonly line: string; readonly through: readonly string[] } {
  const seen = new Set([name]);
  const through: string[] = [];
  let current = { name, line };
  while (through.length < MAX_SCRIPT_DEPTH) {
    const next = packageManagerScript(current.line);
    const text = next === undefined ? undefined : scripts[next];
    if (next === undefined || typeof text !== 'string' || seen.has(next)) break;
    seen.add(next);
    through.push(current.line);
    current = { name: next, line: text.trim() };
  }
  return { ...current, through };
}

/** The script `npm test`, `npm run <name>`, `pnpm test`, `pnpm run <name>`, `yarn test` or `yarn <name>` runs, with nothing passed to it. */
function packageManagerScript(line: string): string | undefined {
  const invocation = parseInvocation(line);
  if (invocation === undefined || !['npm', 'pnpm', 'yarn'].includes(invocation.program)) return undefined;
  const words = invocation.args.filter((arg) => !/^--?[a-z][\w-]*$/i.test(arg));
  if (words.length === 0 || invocation.args.includes('--')) return undefined;
  const [first, second] = words;
  if (first === 'test' || first === 't' || first === 'tst') return words.length === 1 ? 'test' : undefined;
  if (first === 'run' || first === 'run-script') return words.length === 2 ? second : undefined;
  return invocation.program === 'yarn' && words.length === 1 ? first : undefined;
}

/** Programs a script finds in `node_modules/.bin`, which a command run outside npm reaches through npx (never installing). */
const LOCAL_BINS: ReadonlySet<string> = new Set(['tsx', 'mocha', 'vitest', 'jest']);

function viaLocalBin(line: string): string {
  const words = line.split(/\s+/).filter((word) => word !== '');
  let index = 0;
  while (index < words.length && ENV_ASSIGNMENT.test(words[index] as string)) index++;
  if (!LOCAL_BINS.has(words[index] ?? '')) return line;
  return [...words.slice(0, index), 'npx', '--no-install', ...words.slice(index)].join(' ');
}

function exitCodeOnly(tests: Omit<TestCommandConfig, 'timeoutMs' | 'report'>, source: string): DetectedTestCommand {
  const shown = [tests.command, ...(tests.args ?? [])].join(' ');
  return {
    tests: { ...tests, report: { format: 'exit-code' } },
    source,
    warning:
      `\`${shown}\` writes no test report stopwise can read, so the hook will judge the tests by its exit code alone ` +
      '(tests.report.format "exit-code"), with the counts of the closing summary of node:test, vitest, jest, mocha, pytest, go test or cargo test ' +
      'where its output has one (a summary of zero tests is "no tests ran"); otherwise exit 0 counts as one passing check. That is weak evidence: ' +
      'the hook cannot name the failing tests, and a command that runs no test at all passes unless its summary says so. For real evidence, make the command write a JUnit XML, TAP, vitest or jest JSON report ' +
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

/**
 * A `node --test` (or `tsx --test`) line that writes TAP the hook reads, and
 * where: `--test-reporter=tap` right after `--test` when it sets no reporter;
 * as it is when it already writes TAP (alone on stdout, or to a file); else
 * a TAP reporter to {@link INIT_TAP_PATH} added after its own reporters (node
 * pairs each `--test-reporter` with a `--test-reporter-destination` by
 * position, so a lone reporter gets `stdout` as its own). `undefined` for a
 * line without `--test`, or whose reporters and destinations do not pair up.
 */
function nodeTestReport(line: string): { readonly command: string; readonly report: TestReportOptions; readonly what: string } | undefined {
  const invocation = parseInvocation(line);
  if (invocation?.program !== 'node' && invocation?.program !== 'tsx') return undefined;
  const words = line.split(/\s+/).filter((word) => word !== '');
  const testAt = words.indexOf('--test');
  if (testAt < 0) return undefined;
  const reporters = optionValues(words, '--test-reporter');
  const destinations = optionValues(words, '--test-reporter-destination');
  if (reporters.length === 0) {
    if (destinations.length > 0) return undefined;
    return { command: [...words.slice(0, testAt + 1), '--test-reporter=tap', ...words.slice(testAt + 1)].join(' '), report: { format: 'tap' }, what: 'with a TAP reporter' };
  }
  const lone = reporters.length === 1 && destinations.length === 0;
  if (!lone && reporters.length !== destinations.length) return undefined;
  const targets = reporters.map((reporter, index) => ({ reporter: reporter.value, to: destinations[index]?.value ?? 'stdout' }));
  const onStdout = targets.filter((target) => target.to === 'stdout').length;
  const tap = targets.find((target) => target.reporter === 'tap' && target.to !== 'stderr' && (target.to !== 'stdout' || onStdout === 1));
  if (tap !== undefined) return { command: line, report: tap.to === 'stdout' ? { format: 'tap' } : { format: 'tap', path: tap.to }, what: 'which writes TAP' };
  const after = Math.max(...reporters.map((option) => option.end), ...destinations.map((option) => option.end));
  const added = [...(lone ? ['--test-reporter-destination=stdout'] : []), '--test-reporter=tap', `--test-reporter-destination=${INIT_TAP_PATH}`];
  return {
    command: [...words.slice(0, after + 1), ...added, ...words.slice(after + 1)].join(' '),
    report: { format: 'tap', path: INIT_TAP_PATH },
    what: `with a TAP reporter to ${INIT_TAP_PATH} beside its own`,
  };
}

/** Each `--name=value` or `--name value` in order, with the index of the word that ends it. */
function optionValues(words: readonly string[], name: string): { readonly value: string; readonly end: number }[] {
  const found: { value: string; end: number }[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    if (word === name && index + 1 < words.length) {
      found.push({ value: words[index + 1] as string, end: index + 1 });
      index++;
    } else if (word.startsWith(`${name}=`)) {
      found.push({ value: word.slice(name.length + 1), end: index });
    }
  }
  return found;
}

function hasOption(args: readonly string[], names: readonly string[]): boolean {
  return args.some((arg) => names.some((name) => arg === name || arg.startsWith(`${name}=`)));
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
