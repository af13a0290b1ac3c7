import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, HOOK_FREE_ENV } from './run-cli.js';

const RECORDER = join(import.meta.dirname, '../fixtures/cli/record-loaded-modules.mjs');
const BIN = join(CLI, '..');
const project = mkdtempSync(join(tmpdir(), 'stopwise-hook-modules-'));
writeFileSync(join(project, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'printf', args: ['TAP version 13\n1..1\nok 1 - passes\n'] }, judge: { client: 'none' } }));
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** The files of the built CLI that `stopwise hook <host>` loads for `payload`, relative to dist/bin. */
function loadedFiles(host: string, payload: unknown): string[] {
  const record = join(project, `modules-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(record, '');
  execFileSync(process.execPath, ['--import', RECORDER, CLI, 'hook', host], {
    cwd: typeof payload === 'object' && payload !== null && typeof (payload as { cwd?: unknown }).cwd === 'string' ? (payload as { cwd: string }).cwd : project,
    input: JSON.stringify(payload),
    env: { ...HOOK_FREE_ENV, STOPWISE_TEST_MODULES_FILE: record },
  });
  const urls = readFileSync(record, 'utf8').split('\n').filter((line) => line.startsWith('file:'));
  return [...new Set(urls.map((url) => relative(BIN, new URL(url).pathname)))].sort();
}

describe('what `stopwise hook` loads', () => {
  it('loads for a tool event the command and the hook bundle, two files, and nothing of the stop hook', () => {
    const pre = { session_id: 'modules', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' } };
    const files = loadedFiles('claude-code', pre);
    expect(files).toEqual(['hook/index.js', 'stopwise.js']);
    const copilot = loadedFiles('copilot', { sessionId: 'modules', cwd: project, toolName: 'bash', toolArgs: '{"command":"npm test"}' });
    expect(copilot).toEqual(files);
  });

  it('loads the same two files in a project whose configuration names a decision model (the tool guard reads only its own keys)', () => {
    const judged = mkdtempSync(join(tmpdir(), 'stopwise-hook-modules-judged-'));
    try {
      writeFileSync(join(judged, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'npm test' }, judge: { client: 'system-one', model: 'model-1' }, toolGuard: { enabled: true } }));
      const post = { session_id: 'modules', cwd: judged, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'fail' } };
      expect(loadedFiles('claude-code', post)).toEqual(['hook/index.js', 'stopwise.js']);
      // and the guard ran: the call is in the session's tool state
      expect(readdirSync(join(judged, '.stopwise/state')).some((name) => name.endsWith('.tools.json'))).toBe(true);
    } finally {
      rmSync(judged, { recursive: true, force: true });
    }
  });

  it('loads the stop hook for a stop, and for any other command none of the hook bundle', () => {
    const files = loadedFiles('claude-code', { session_id: 'modules-stop', cwd: project, hook_event_name: 'Stop', stop_hook_active: false });
    expect(files).toContain('run-stop-hook.js');
    const record = join(project, 'modules-version.txt');
    writeFileSync(record, '');
    execFileSync(process.execPath, ['--import', RECORDER, CLI, '--version'], { env: { ...HOOK_FREE_ENV, STOPWISE_TEST_MODULES_FILE: record } });
    const version = readFileSync(record, 'utf8').split('\n').filter((line) => line.startsWith('file:'));
    expect(version.length).toBeGreaterThan(1);
    expect(version.some((url) => url.includes('/hook/'))).toBe(false);
  });
});
