import { describe, expect, it } from 'vitest';
import { detectTestCommand, proposeTestCommand } from '../../src/cli/detect-test-command.js';

describe('detectTestCommand', () => {
  it('runs vitest with its JSON report', () => {
    expect(detectTestCommand({ devDependencies: { vitest: '^4' }, scripts: { test: 'vitest' } })).toEqual({
      tests: {
        command: 'npx',
        args: ['vitest', 'run', '--reporter=json', '--outputFile=.stopwise/test-report.json'],
        report: { format: 'vitest-json', path: '.stopwise/test-report.json' },
      },
      source: 'vitest in package.json',
    });
  });

  it('runs jest with its JSON report', () => {
    expect(detectTestCommand({ scripts: { test: 'jest --coverage' } })?.tests).toMatchObject({ command: 'npx', report: { format: 'jest-json' } });
  });

  it('keeps a node --test script as written and puts the TAP reporter right after --test', () => {
    expect(detectTestCommand({ scripts: { test: 'node --import tsx --test test/*.test.ts' } })).toEqual({
      tests: { command: 'node --import tsx --test --test-reporter=tap test/*.test.ts', report: { format: 'tap' } },
      source: 'the node --test script of package.json, with a TAP reporter',
    });
    expect(detectTestCommand({ scripts: { test: 'NODE_ENV=test node --test' } })?.tests).toEqual({
      command: 'NODE_ENV=test node --test --test-reporter=tap',
      report: { format: 'tap' },
    });
  });

  it('falls back to the exit code, with a warning, for a node --test script it cannot safely change', () => {
    for (const test of ['npm run build && node --test', 'c8 node --test', 'node --test-only test/', 'node --test --test-reporter=dot --test-reporter=spec']) {
      const detected = detectTestCommand({ scripts: { test } });
      expect(detected?.tests, test).toEqual({ command: 'npm', args: ['test', '--silent'], report: { format: 'exit-code' } });
      expect(detected?.warning).toMatch(/^`npm test --silent` writes no test report stopwise can read, so the hook will judge the tests by its exit code alone/);
    }
  });

  it('reads the TAP a node --test script already writes, on stdout or in its own file', () => {
    for (const test of ['node --test --test-reporter=tap', 'node --test --test-reporter tap test/', 'node --test --test-reporter=tap --test-reporter-destination=stdout']) {
      expect(detectTestCommand({ scripts: { test } }), test).toEqual({
        tests: { command: test, report: { format: 'tap' } },
        source: 'the node --test script of package.json, which writes TAP',
      });
    }
    const own = 'node --test --test-reporter=junit --test-reporter-destination=out/junit.xml --test-reporter=tap --test-reporter-destination=out/run.tap';
    expect(detectTestCommand({ scripts: { test: own } })?.tests).toEqual({ command: own, report: { format: 'tap', path: 'out/run.tap' } });
  });

  it('adds a TAP reporter to a file beside the reporter a node --test script sets', () => {
    expect(detectTestCommand({ scripts: { test: 'node --test --test-reporter=spec' } })).toEqual({
      tests: {
        command: 'node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=.stopwise/test-report.tap',
        report: { format: 'tap', path: '.stopwise/test-report.tap' },
      },
      source: 'the node --test script of package.json, with a TAP reporter to .stopwise/test-report.tap beside its own',
    });
    expect(detectTestCommand({ scripts: { test: 'node --test --test-reporter spec --test-reporter-destination stdout test/' } })?.tests).toEqual({
      command: 'node --test --test-reporter spec --test-reporter-destination stdout --test-reporter=tap --test-reporter-destination=.stopwise/test-report.tap test/',
      report: { format: 'tap', path: '.stopwise/test-report.tap' },
    });
  });

  it('runs tsx --test as node\'s runner, through npx without installing anything', () => {
    expect(detectTestCommand({ scripts: { test: 'tsx --test test/*.test.ts' } })?.tests).toEqual({
      command: 'npx --no-install tsx --test --test-reporter=tap test/*.test.ts',
      report: { format: 'tap' },
    });
    expect(detectTestCommand({ scripts: { test: 'node --test test/' } })?.tests).toEqual({ command: 'node --test --test-reporter=tap test/', report: { format: 'tap' } });
  });

  it('looks through npm, pnpm and yarn to the script they run', () => {
    const pkg = { scripts: { test: 'pnpm run test:unit', 'test:unit': 'yarn test:node', 'test:node': 'node --test --test-reporter=spec' } };
    expect(detectTestCommand(pkg)).toEqual({
      tests: {
        command: 'node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=.stopwise/test-report.tap',
        report: { format: 'tap', path: '.stopwise/test-report.tap' },
      },
      source: 'the test:node script of package.json (through pnpm run test:unit, yarn test:node), with a TAP reporter to .stopwise/test-report.tap beside its own',
    });
    expect(detectTestCommand({ scripts: { test: 'npm run spec', spec: 'mocha test/' } })?.tests).toEqual({
      command: 'npx --no-install mocha test/ --reporter tap',
      report: { format: 'tap' },
    });
    for (const loop of [{ test: 'npm test' }, { test: 'yarn a', a: 'pnpm run test' }, { test: 'npm run missing' }]) {
      expect(detectTestCommand({ scripts: loop })?.tests.report, JSON.stringify(loop)).toEqual({ format: 'exit-code' });
    }
  });

  it('asks mocha for TAP through npm test', () => {
    expect(detectTestCommand({ scripts: { test: 'mocha --require ./setup.js "test/**/*.spec.js"' } })?.tests).toEqual({
      command: 'npm',
      args: ['test', '--silent', '--', '--reporter', 'tap'],
      report: { format: 'tap' },
    });
    expect(detectTestCommand({ scripts: { test: 'mocha -R dot' } })?.tests.report).toEqual({ format: 'exit-code' });
  });

  it('reads any other test script by its exit code with a warning, and ignores the npm placeholder', () => {
    const other = detectTestCommand({ scripts: { test: 'ava' } });
    expect(other?.tests).toEqual({ command: 'npm', args: ['test', '--silent'], report: { format: 'exit-code' } });
    expect(other?.warning).toMatch(/cannot name the failing tests, and a command that runs no test at all passes unless its summary says so/);
    expect(other?.warning).toMatch(/closing summary of node:test, vitest, jest, mocha, pytest, go test or cargo test/);
    expect(detectTestCommand({ scripts: { test: 'echo "Error: no test specified" && exit 1' } })).toBeUndefined();
    expect(detectTestCommand({})).toBeUndefined();
    expect(detectTestCommand([])).toBeUndefined();
  });
});

describe('proposeTestCommand', () => {
  it('adds a report the hook reads to the runners it knows', () => {
    const proposed = (line: string) => proposeTestCommand(line, '--test-command');
    expect(proposed('pytest -q')).toEqual({
      tests: { command: 'pytest -q --junitxml=.stopwise/junit.xml', report: { format: 'junit', path: '.stopwise/junit.xml' } },
      source: '--test-command, with a JUnit XML report',
    });
    expect(proposed('python3 -m pytest tests/ --junitxml=out/junit.xml').tests).toEqual({
      command: 'python3 -m pytest tests/ --junitxml=out/junit.xml',
      report: { format: 'junit', path: 'out/junit.xml' },
    });
    expect(proposed('node --test').tests).toEqual({ command: 'node --test --test-reporter=tap', report: { format: 'tap' } });
    expect(proposed('npx mocha test/').tests).toEqual({ command: 'npx mocha test/ --reporter tap', report: { format: 'tap' } });
    expect(proposed('npx vitest').tests).toEqual({
      command: 'npx vitest --run --reporter=json --outputFile=.stopwise/test-report.json',
      report: { format: 'vitest-json', path: '.stopwise/test-report.json' },
    });
    expect(proposed('npx jest').tests).toEqual({
      command: 'npx jest --ci --json --outputFile=.stopwise/test-report.json',
      report: { format: 'jest-json', path: '.stopwise/test-report.json' },
    });
    for (const line of ['pytest -q', 'node --test', 'npx mocha', 'npx vitest run', 'npx jest']) expect(proposed(line).warning).toBeUndefined();
  });

  it('looks through pnpm test and yarn test to the test script of package.json', () => {
    const pkg = { scripts: { test: 'node --test' } };
    for (const line of ['pnpm test', 'yarn test', 'npm test', 'npm run test', 'pnpm run test --silent']) {
      expect(proposeTestCommand(line, '--test-command', pkg), line).toEqual({
        tests: { command: 'node --test --test-reporter=tap', report: { format: 'tap' } },
        source: `--test-command, the test script of package.json (through ${line}), with a TAP reporter`,
      });
    }
    expect(proposeTestCommand('yarn test', '--test-command', { scripts: { test: 'ava' } }).tests).toEqual({ command: 'yarn test', report: { format: 'exit-code' } });
    expect(proposeTestCommand('pnpm test', '--test-command').tests).toEqual({ command: 'pnpm test', report: { format: 'exit-code' } });
  });

  it('runs anything else as it is, by its exit code, with a warning', () => {
    for (const line of ['make test', 'cargo test', 'pytest -q | tee log', 'pytest --junitxml out.xml', 'npx vitest --reporter=dot']) {
      const proposed = proposeTestCommand(`  ${line} `, '--test-command');
      expect(proposed.tests, line).toEqual({ command: line, report: { format: 'exit-code' } });
      expect(proposed.warning).toContain(`\`${line}\` writes no test report stopwise can read`);
    }
  });
});
