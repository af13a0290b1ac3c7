import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOOK_FREE_ENV, runCli } from '../cli/run-cli.js';

const SETUP = join(import.meta.dirname, '../fixtures/otel/hook-telemetry-setup.mjs');

interface Recorded {
  spans: { name: string; attributes: Record<string, unknown>; events: string[] }[];
  metrics: { name: string; points: { attributes: Record<string, unknown>; value: unknown }[] }[];
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Runs `stopwise hook claude-code` as a child process with the SDK set up by `--import`, and reads what it recorded. */
async function hookWithTelemetry(tests: string): Promise<{ stdout: string; recorded: Recorded }> {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-otel-hook-'));
  folders.push(dir);
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'sh run-tests.sh' }, decisionModel: { client: 'none' } }));
  writeFileSync(join(dir, 'run-tests.sh'), `${tests}\n`);
  const out = join(dir, 'telemetry.json');
  const input = JSON.stringify({ session_id: 'otel', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Fixed.' });
  const run = await runCli(['hook', 'claude-code'], {
    cwd: dir,
    input,
    env: { ...HOOK_FREE_ENV, NODE_OPTIONS: `--import ${SETUP}`, STOPWISE_OTEL_OUT: out },
    timeoutMs: 60_000,
  });
  expect(run.code, run.stderr).toBe(0);
  return { stdout: run.stdout, recorded: JSON.parse(readFileSync(out, 'utf8')) as Recorded };
}

describe('stop telemetry in the `stopwise hook` command', () => {
  it('reaches the command through the observer slot its bundle shares with stopwise/otel', async () => {
    const green = await hookWithTelemetry("printf 'TAP version 13\\n1..1\\nok 1 - login works\\n'");
    expect(green.stdout).toBe('');
    expect(green.recorded.spans).toEqual([
      {
        name: 'stopwise.stop',
        attributes: expect.objectContaining({ 'stopwise.driver': 'stop-hook', 'stopwise.exit': 'success', 'stopwise.task_type': 'hook-task', 'gen_ai.agent.finish_reason': 'completed' }),
        events: [],
      },
    ]);
    expect(green.recorded.metrics.find((metric) => metric.name === 'stopwise.stops')?.points).toEqual([
      { attributes: { 'stopwise.exit': 'success', 'stopwise.reason': 'tests_passed', 'stopwise.task_type': 'hook-task' }, value: 1 },
    ]);

    const red = await hookWithTelemetry("printf 'TAP version 13\\n1..1\\nnot ok 1 - login works\\n'; exit 1");
    expect(JSON.parse(red.stdout)).toMatchObject({ decision: 'block' });
    expect(red.recorded.spans.map((span) => [span.name, span.attributes['stopwise.decision.kind'], span.attributes['stopwise.reason']])).toEqual([
      ['stopwise.stop', 'retry', 'tests_failed'],
    ]);
    expect(red.recorded.metrics.find((metric) => metric.name === 'stopwise.stops')?.points ?? []).toEqual([]);
  });
});
