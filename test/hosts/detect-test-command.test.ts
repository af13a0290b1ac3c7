import { describe, expect, it } from 'vitest';
import { detectTestCommand } from '../../src/hosts/detect-test-command.js';

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

  it('runs node --test with TAP', () => {
    expect(detectTestCommand({ scripts: { test: 'node --test test/' } })?.tests).toEqual({ command: 'node', args: ['--test', '--test-reporter=tap'] });
  });

  it('runs any other test script as it is, and ignores the npm placeholder', () => {
    expect(detectTestCommand({ scripts: { test: 'mocha' } })?.tests).toEqual({ command: 'npm', args: ['test', '--silent'] });
    expect(detectTestCommand({ scripts: { test: 'echo "Error: no test specified" && exit 1' } })).toBeUndefined();
    expect(detectTestCommand({})).toBeUndefined();
    expect(detectTestCommand([])).toBeUndefined();
  });
});
