import { describe, expect, it } from 'vitest';
import { detectTestCommand, proposeTestCommand } from '../../src/hosts/detect-test-command.js';

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
    for (const test of ['node --test --test-reporter=spec', 'npm run build && node --test', 'c8 node --test', 'node --test-only test/']) {
      const detected = detectTestCommand({ scripts: { test } });
      expect(detected?.tests, test).toEqual({ command: 'npm', args: ['test', '--silent'], report: { format: 'exit-code' } });
      expect(detected?.warning).toMatch(/^`npm test --silent` writes no test report stopwise can read, so the hook will judge the tests by its exit code alone/);
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
    expect(other?.warning).toMatch(/cannot name the failing tests, and a command that runs no test at all passes/);
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

  it('runs anything else as it is, by its exit code, with a warning', () => {
    for (const line of ['make test', 'cargo test', 'pytest -q | tee log', 'pytest --junitxml out.xml', 'npx vitest --reporter=dot']) {
      const proposed = proposeTestCommand(`  ${line} `, '--test-command');
      expect(proposed.tests, line).toEqual({ command: line, report: { format: 'exit-code' } });
      expect(proposed.warning).toContain(`\`${line}\` writes no test report stopwise can read`);
    }
  });
});
