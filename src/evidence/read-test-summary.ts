/** A test runner whose closing summary {@link readTestSummary} knows. */
export type TestSummaryRunner = 'node-test' | 'vitest' | 'jest' | 'mocha' | 'pytest' | 'go' | 'cargo';

/**
 * What the closing summaries in a run's output say, summed over all of them:
 * `ran` counts tests that ran (passed or failed), `failed` those that failed
 * (errors and cancelled tests included), `skipped` skipped and todo tests.
 */
export interface TestSummary {
  readonly runners: readonly TestSummaryRunner[];
  /** How many summaries were read (several go packages or cargo test binaries give several). */
  readonly summaries: number;
  readonly ran: number;
  readonly failed: number;
  readonly skipped: number;
}

interface Count {
  readonly runner: TestSummaryRunner;
  readonly summaries: number;
  readonly ran: number;
  readonly failed: number;
  readonly skipped: number;
}

/** A line that looked like a summary but could not be read: the whole output is then left unread. */
class Ambiguous extends Error {}

// CSI sequences (colours, cursor moves), OSC sequences, and the charset selections some terminals get (`ESC ( B`).
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[()][A-Za-z0-9]|[@-Z\\-_])/g;

const NODE_LINE = /^(ℹ|#) (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/;
const VITEST_TESTS = /^Tests {2,}(.+) \((\d+)\)$/;
const VITEST_NONE = /^No test files found, exiting with code \d+$/;
const JEST_TESTS = /^Tests: +(.+)$/;
const JEST_NONE = /^No tests found, exiting with code \d+$/;
const MOCHA_PASSING = /^(\d+) passing \(\d+(?:\.\d+)?(?:ms|s|m|h)\)$/;
const MOCHA_MORE = /^(\d+) (failing|pending)$/;
const MOCHA_NONE = /^Error: No test files found/;
const PYTEST_DECORATED = /^=+ (.+) =+$/;
const PYTEST_RESULT = /^(.+?) in \d+(?:\.\d+)?s(?: \([\d:]+\))?$/;
const PYTEST_NONE = /^no tests ran in \d+(?:\.\d+)?s(?: \([\d:]+\))?$/;
const CARGO = /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out/;
const GO_OK = /^ok {2}\t?\s*(\S+)\s+(?:\(cached\)|\d+(?:\.\d+)?s)(.*)$/;
const GO_FAIL = /^FAIL\s+(\S+)\s+(\d+(?:\.\d+)?s|\[build failed\]|\[setup failed\])/;
const GO_NONE = /^\? {3}\t?\s*\S+\s+\[no test files\]$/;
const GO_TEST = /^--- (PASS|FAIL|SKIP): /;

/**
 * Reads the closing summaries a test runner prints (node:test `ℹ tests N` or
 * `# tests N`, vitest `Tests  N passed (N)`, jest `Tests: N passed, N total`,
 * mocha `N passing`, pytest `N passed in 0.1s`, go test's package lines,
 * cargo test's `test result:` lines, and each one's "no tests" line) from a
 * run's captured output, colours and all, and sums them. `undefined` when
 * the output holds none, or a line that looks like one but cannot be read:
 * an output it cannot read never becomes a count.
 *
 * @example
 * readTestSummary('Tests:       1 failed, 3 passed, 4 total\n');
 * // { runners: ['jest'], summaries: 1, ran: 4, failed: 1, skipped: 0 }
 */
export function readTestSummary(output: string): TestSummary | undefined {
  if (typeof output !== 'string') throw new TypeError('readTestSummary: output must be a string');
  const lines = output.replace(ANSI, '').split(/\r?\n|\r/).map((line) => line.trimEnd());
  let counts: Count[];
  try {
    counts = [...nodeTest(lines), ...lineByLine(lines), ...mocha(lines), ...goTest(lines)];
  } catch (error) {
    if (error instanceof Ambiguous) return undefined;
    throw error;
  }
  if (counts.length === 0) return undefined;
  const runners = [...new Set(counts.map((count) => count.runner))];
  const sum = (key: 'summaries' | 'ran' | 'failed' | 'skipped') => counts.reduce((total, count) => total + count[key], 0);
  return { runners, summaries: sum('summaries'), ran: sum('ran'), failed: sum('failed'), skipped: sum('skipped') };
}

/** node:test's block of `tests`, `pass`, `fail`, ... lines, with `ℹ` (spec) or `#` (TAP), at the start of the line. */
function nodeTest(lines: readonly string[]): Count[] {
  const counts: Count[] = [];
  let block: Map<string, number> | undefined;
  const close = () => {
    const found = block;
    block = undefined;
    if (found === undefined) return;
    const [tests, pass, fail] = [found.get('tests'), found.get('pass'), found.get('fail')];
    if (tests === undefined || pass === undefined || fail === undefined) {
      if (found.size >= 3) throw new Ambiguous();
      return;
    }
    const cancelled = found.get('cancelled') ?? 0;
    const skipped = (found.get('skipped') ?? 0) + (found.get('todo') ?? 0);
    if (tests !== pass + fail + cancelled + skipped) throw new Ambiguous();
    counts.push({ runner: 'node-test', summaries: 1, ran: pass + fail + cancelled, failed: fail + cancelled, skipped });
  };
  for (const line of lines) {
    const match = NODE_LINE.exec(line);
    if (match === null) {
      close();
      continue;
    }
    const key = match[2] as string;
    if (block?.has(key) === true) close();
    block ??= new Map();
    block.set(key, Number(match[3]));
  }
  close();
  return counts;
}

/** The runners whose summary is one line: vitest, jest, pytest, cargo, and their "no tests" lines. */
function lineByLine(lines: readonly string[]): Count[] {
  const counts: Count[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (VITEST_NONE.test(line)) counts.push({ runner: 'vitest', summaries: 1, ran: 0, failed: 0, skipped: 0 });
    else if (JEST_NONE.test(line)) counts.push({ runner: 'jest', summaries: 1, ran: 0, failed: 0, skipped: 0 });
    else if (MOCHA_NONE.test(line)) counts.push({ runner: 'mocha', summaries: 1, ran: 0, failed: 0, skipped: 0 });
    else if (line.startsWith('Tests ') && /^Tests {2,}\d/.test(line)) counts.push(vitest(line));
    else if (line.startsWith('Tests:')) counts.push(jest(line));
    else if (line.startsWith('test result: ')) counts.push(cargo(line));
    else {
      const pytestCount = pytest(line);
      if (pytestCount !== undefined) counts.push(pytestCount);
    }
  }
  return counts;
}

/** Parts such as `1 failed`, `2 passed`, split on `separator`; every part must be a count of a known word. */
function parts(text: string, separator: string, words: ReadonlySet<string>): Map<string, number> {
  const found = new Map<string, number>();
  for (const part of text.split(separator)) {
    const match = /^(\d+) ([a-z]+)$/.exec(part.trim());
    if (match === null || !words.has(match[2] as string) || found.has(match[2] as string)) throw new Ambiguous();
    found.set(match[2] as string, Number(match[1]));
  }
  return found;
}

const VITEST_WORDS: ReadonlySet<string> = new Set(['passed', 'failed', 'skipped', 'todo']);

function vitest(line: string): Count {
  const match = VITEST_TESTS.exec(line);
  if (match === null) throw new Ambiguous();
  const found = parts(match[1] as string, ' | ', VITEST_WORDS);
  const [passed, failed, skipped] = [found.get('passed') ?? 0, found.get('failed') ?? 0, (found.get('skipped') ?? 0) + (found.get('todo') ?? 0)];
  if (passed + failed + skipped !== Number(match[2])) throw new Ambiguous();
  return { runner: 'vitest', summaries: 1, ran: passed + failed, failed, skipped };
}

const JEST_WORDS: ReadonlySet<string> = new Set(['passed', 'failed', 'skipped', 'todo', 'pending', 'total']);

function jest(line: string): Count {
  const match = JEST_TESTS.exec(line);
  if (match === null) throw new Ambiguous();
  const found = parts(match[1] as string, ', ', JEST_WORDS);
  const total = found.get('total');
  const [passed, failed] = [found.get('passed') ?? 0, found.get('failed') ?? 0];
  const skipped = (found.get('skipped') ?? 0) + (found.get('todo') ?? 0) + (found.get('pending') ?? 0);
  if (total === undefined || passed + failed + skipped !== total) throw new Ambiguous();
  return { runner: 'jest', summaries: 1, ran: passed + failed, failed, skipped };
}

const PYTEST_WORDS: ReadonlySet<string> = new Set([
  'passed', 'failed', 'skipped', 'xfailed', 'xpassed', 'error', 'errors', 'deselected', 'warning', 'warnings', 'rerun', 'subtests',
]);

function pytest(line: string): Count | undefined {
  const decorated = PYTEST_DECORATED.exec(line);
  const text = decorated === null ? line : (decorated[1] as string);
  if (PYTEST_NONE.test(text)) return { runner: 'pytest', summaries: 1, ran: 0, failed: 0, skipped: 0 };
  const result = PYTEST_RESULT.exec(text);
  if (result === null) return undefined;
  const body = result[1] as string;
  if (!/^\d+ [a-z]+(?:, \d+ [a-z]+)*$/.test(body)) {
    if (decorated !== null && /\b(passed|failed|errors?)\b/.test(body)) throw new Ambiguous();
    return undefined;
  }
  const words = body.split(', ').map((part) => part.split(' ')[1] as string);
  if (!words.some((word) => ['passed', 'failed', 'error', 'errors', 'skipped', 'xfailed', 'xpassed', 'deselected'].includes(word))) return undefined;
  const found = parts(body, ', ', PYTEST_WORDS);
  const get = (word: string) => found.get(word) ?? 0;
  const failed = get('failed') + get('error') + get('errors');
  return { runner: 'pytest', summaries: 1, ran: get('passed') + get('xfailed') + get('xpassed') + failed, failed, skipped: get('skipped') };
}

function cargo(line: string): Count {
  const match = CARGO.exec(line);
  if (match === null) throw new Ambiguous();
  const [passed, failed, ignored] = [Number(match[2]), Number(match[3]), Number(match[4])];
  const failing = match[1] === 'FAILED' ? Math.max(failed, 1) : failed;
  if (match[1] === 'ok' && failed > 0) throw new Ambiguous();
  return { runner: 'cargo', summaries: 1, ran: passed + failing, failed: failing, skipped: ignored };
}

/** mocha's `N passing (T)` line and the `N failing` / `N pending` lines right under it. */
function mocha(lines: readonly string[]): Count[] {
  const counts: Count[] = [];
  for (let index = 0; index < lines.length; index++) {
    const passing = MOCHA_PASSING.exec((lines[index] as string).trim());
    if (passing === null) continue;
    let failed = 0;
    let pending = 0;
    while (index + 1 < lines.length) {
      const more = MOCHA_MORE.exec((lines[index + 1] as string).trim());
      if (more === null) break;
      if (more[2] === 'failing') failed += Number(more[1]);
      else pending += Number(more[1]);
      index++;
    }
    counts.push({ runner: 'mocha', summaries: 1, ran: Number(passing[1]) + failed, failed, skipped: pending });
  }
  return counts;
}

/**
 * go test's package lines (`ok`, `FAIL`, `?`), one summary a package. Without
 * `-v` go lists failing tests only, so a passing package counts as one test
 * that ran (at least one did); with `-v` the top-level `--- PASS` and `---
 * FAIL` lines are counted (subtests, indented, are not).
 */
function goTest(lines: readonly string[]): Count[] {
  let packages = 0;
  let okWithTests = 0;
  let failedPackages = 0;
  let brokenPackages = 0;
  const tests = { PASS: 0, FAIL: 0, SKIP: 0 };
  for (const line of lines) {
    const test = GO_TEST.exec(line);
    if (test !== null) {
      tests[test[1] as 'PASS' | 'FAIL' | 'SKIP']++;
      continue;
    }
    const ok = GO_OK.exec(line);
    if (ok !== null) {
      packages++;
      if (!(ok[2] as string).includes('[no tests to run]')) okWithTests++;
      continue;
    }
    const failed = GO_FAIL.exec(line);
    if (failed !== null) {
      packages++;
      if ((failed[2] as string).startsWith('[')) brokenPackages++;
      else failedPackages++;
      continue;
    }
    if (GO_NONE.test(line)) packages++;
  }
  if (packages === 0) return [];
  const failed = Math.max(tests.FAIL, failedPackages) + brokenPackages;
  const passed = tests.PASS > 0 ? tests.PASS : okWithTests;
  return [{ runner: 'go', summaries: packages, ran: passed + failed, failed, skipped: tests.SKIP }];
}
