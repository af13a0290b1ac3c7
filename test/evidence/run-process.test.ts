import { describe, expect, it } from 'vitest';
import { childEnvironment, describeCommand, runProcess } from '../../src/evidence/run-process.js';

describe('runProcess', () => {
  it('hands stdout to the consumer as a stream and keeps the tail', async () => {
    const { run, consumed } = await runProcess(
      { command: process.execPath, args: ['-e', 'process.stdout.write("a".repeat(100000)); console.error("done")'], cwd: '.', timeoutMs: 30_000, outputTailBytes: 10 },
      async (stdout) => {
        let size = 0;
        for await (const chunk of stdout) size += (chunk as Buffer).length;
        return size;
      },
    );
    expect(consumed).toEqual({ status: 'fulfilled', value: 100000 });
    expect(run).toMatchObject({ exitCode: 0, timedOut: false, outputTruncated: true });
    expect(run.output.length).toBeLessThanOrEqual(10);
  });

  it('keeps draining stdout when the consumer gives up, so the command is not blocked', async () => {
    const { run, consumed } = await runProcess(
      { command: process.execPath, args: ['-e', 'for (let i = 0; i < 2000; i++) console.log("x".repeat(1000))'], cwd: '.', timeoutMs: 30_000 },
      async () => {
        throw new Error('not a report');
      },
    );
    expect(consumed?.status).toBe('rejected');
    expect(run).toMatchObject({ exitCode: 0, timedOut: false });
  });
});

describe('childEnvironment', () => {
  it('applies overrides, removes undefined ones and always drops NODE_TEST_CONTEXT', () => {
    const env = childEnvironment({ NODE_TEST_CONTEXT: 'child-v8', STOPWISE_X: '1', PATH: undefined });
    expect(env['NODE_TEST_CONTEXT']).toBeUndefined();
    expect(env['STOPWISE_X']).toBe('1');
    expect('PATH' in env).toBe(false);
  });
});

describe('describeCommand', () => {
  it('quotes arguments that need it', () => {
    expect(describeCommand('npm test', undefined)).toBe('npm test');
    expect(describeCommand('node', ['-e', "console.log('a b')"])).toBe(`node -e 'console.log('\\''a b'\\'')'`);
  });
});
