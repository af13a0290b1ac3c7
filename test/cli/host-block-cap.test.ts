import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopHookCommand } from '../../src/hosts/install-stop-hook.js';
import type { HookHost } from '../../src/hosts/hook-host.js';
import { hostOutputProblems } from '../hosts/host-output-schemas.js';
import { HOOK_FREE_ENV, runCli } from './run-cli.js';

const RED = "printf 'TAP version 13\\n1..1\\nnot ok 1 - auth > refreshes\\n'; exit 1";

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-cap-'));
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'sh run-tests.sh' }, maxConsecutiveBlocks: 100, policy: { maxSteps: 100, stallRounds: 50 } }));
  writeFileSync(join(dir, 'run-tests.sh'), `${RED}\n`);
  return dir;
}

async function stop(host: HookHost, dir: string, extra: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) {
  const input = host === 'cursor'
    ? { conversation_id: 'c-1', workspace_roots: [dir], hook_event_name: 'stop', status: 'completed', ...extra }
    : { session_id: 's-1', cwd: dir, hook_event_name: 'Stop', last_assistant_message: 'done', ...extra };
  const run = await runCli(['hook', host], { cwd: dir, input: JSON.stringify(input), env: { ...HOOK_FREE_ENV, ...env }, timeoutMs: 60_000 });
  expect(run.code, run.stderr).toBe(0);
  const output = run.stdout === '' ? undefined : (JSON.parse(run.stdout) as Record<string, unknown>);
  expect(hostOutputProblems(host, output ?? {})).toEqual([]);
  return { output, stderr: run.stderr };
}

function stopState(dir: string): Record<string, unknown> {
  const [file] = readdirSync(join(dir, '.stopwise/state')).filter((name) => name.endsWith('.json') && !name.endsWith('.tools.json'));
  return JSON.parse(readFileSync(join(dir, '.stopwise/state', file as string), 'utf8')) as Record<string, unknown>;
}

describe('whose cap ends the run', { timeout: 120_000 }, () => {
  it('hands off on the block Claude Code would end the turn on (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP), and records that stopwise ended it', async () => {
    const dir = project();
    const env = { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' };
    expect((await stop('claude-code', dir, { stop_hook_active: false }, env)).output).toMatchObject({ decision: 'block' });
    expect(stopState(dir).lastOutcome).not.toHaveProperty('endedBy');
    expect((await stop('claude-code', dir, { stop_hook_active: true }, env)).output).toMatchObject({ decision: 'block' });
    const third = await stop('claude-code', dir, { stop_hook_active: true }, env);
    expect(third.output).toEqual({
      systemMessage: expect.stringMatching(/^stopwise: Claude Code ends the run after 3 blocks in a row \(CLAUDE_CODE_STOP_HOOK_BLOCK_CAP\) and this would be block 3.*auth > refreshes/),
    });
    expect(stopState(dir)).toMatchObject({ consecutiveBlocks: 0, totals: { blocks: 2, handoffs: 1 }, lastOutcome: { kind: 'handoff', endedBy: 'stopwise' } });
  });

  it('records that the host ended the run when a stop starts afresh after a block of ours', async () => {
    const dir = project();
    expect((await stop('claude-code', dir, { stop_hook_active: false })).output).toMatchObject({ decision: 'block' });
    // the agent was not seen again on a re-entry: the next stop is a new turn
    await stop('claude-code', dir, { stop_hook_active: false });
    expect(stopState(dir)).toMatchObject({ lastOutcome: { kind: 'block', previousRunEndedBy: 'host' } });
  });

  it("hands off on Cursor when loop_count reaches the hook's loop_limit, where Cursor would drop the follow-up", async () => {
    const dir = project();
    mkdirSync(join(dir, '.cursor'));
    writeFileSync(join(dir, '.cursor/hooks.json'), JSON.stringify({ version: 1, hooks: { stop: [{ command: stopHookCommand('cursor'), loop_limit: 2 }] } }));
    expect((await stop('cursor', dir, { loop_count: 0 })).output).toHaveProperty('followup_message');
    expect((await stop('cursor', dir, { loop_count: 1 })).output).toHaveProperty('followup_message');
    const capped = await stop('cursor', dir, { loop_count: 2 });
    expect(capped.output).toEqual({});
    expect(capped.stderr).toMatch(/Cursor ends the run after 3 blocks in a row \(the loop_limit in \.cursor\/hooks\.json\) and this would be block 3/);
  });
});
