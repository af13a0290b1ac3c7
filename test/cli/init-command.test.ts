import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStopwiseConfig } from '../../src/hosts/stopwise-config.js';
import { runCli } from './run-cli.js';

const ENV = { ...process.env, NODE_TEST_CONTEXT: undefined };
const init = (dir: string, ...args: string[]) => runCli(['init', ...args], { cwd: dir, env: ENV });
const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');
const json = (dir: string, path: string) => JSON.parse(read(dir, path)) as Record<string, unknown>;

function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[path.slice(dir.length + 1)] = readFileSync(path, 'utf8');
    }
  }
  return files;
}

describe('stopwise init', () => {
  it('asks for a test command in an empty project when it cannot ask (no terminal): exit 2 with a hint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    const run = await init(dir, 'claude-code');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no test command found in package.json; pass one with --test-command/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('sets up an empty project with the given test command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    const run = await init(dir, 'claude-code', '--test-command', 'make test');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/stopwise.config.json: written, tests run with `make test` \(--test-command\)/);
    const config = json(dir, 'stopwise.config.json');
    expect(config).toEqual({ task: '', acceptance: [], tests: { command: 'make test' }, judge: { client: 'none' }, maxConsecutiveBlocks: 1 });
    expect(parseStopwiseConfig(config).ok).toBe(true);
    expect(json(dir, '.claude/settings.json')).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx', args: ['stopwise', 'hook', 'claude-code'], timeout: 330 }] }] },
    });
    expect(read(dir, '.gitignore')).toBe('.stopwise/\n');
  });

  it('detects vitest from package.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'vitest' }, devDependencies: { vitest: '^4.1.0' } }));
    const run = await init(dir, 'codex');
    expect(run.code).toBe(0);
    expect(json(dir, 'stopwise.config.json').tests).toEqual({
      command: 'npx',
      args: ['vitest', 'run', '--reporter=json', '--outputFile=.stopwise/test-report.json'],
      report: { format: 'vitest-json', path: '.stopwise/test-report.json' },
    });
    expect(json(dir, '.codex/hooks.json')).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx stopwise hook codex', timeout: 330 }] }] } });
    expect(run.stdout).toMatch(/codex_hooks = true/);
  });

  it('keeps existing hooks and settings, and an existing configuration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    mkdirSync(join(dir, '.claude'));
    const settings = {
      permissions: { allow: ['Bash(npm run lint)'] },
      hooks: {
        PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'npx prettier --write "$CLAUDE_FILE_PATHS"' }] }],
        Stop: [{ hooks: [{ type: 'command', command: './scripts/notify.sh', timeout: 5 }] }],
      },
    };
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify(settings, null, 2));
    const config = { task: 'Ship it', tests: { command: 'npm test', timeoutMs: 60_000 } };
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify(config));
    writeFileSync(join(dir, '.gitignore'), 'node_modules\ndist');
    const run = await init(dir, 'claude-code');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/stopwise.config.json: already there, left as it is/);
    expect(JSON.parse(read(dir, 'stopwise.config.json'))).toEqual(config);
    const merged = json(dir, '.claude/settings.json') as typeof settings;
    expect(merged.permissions).toEqual(settings.permissions);
    expect(merged.hooks.PostToolUse).toEqual(settings.hooks.PostToolUse);
    expect(merged.hooks.Stop).toEqual([
      settings.hooks.Stop[0],
      { hooks: [{ type: 'command', command: 'npx', args: ['stopwise', 'hook', 'claude-code'], timeout: 150 }] },
    ]);
    expect(read(dir, '.gitignore')).toBe('node_modules\ndist\n.stopwise/\n');
  });

  it('changes nothing when run twice', async () => {
    for (const host of ['claude-code', 'codex', 'cursor']) {
      const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test' } }));
      expect((await init(dir, host)).code).toBe(0);
      const first = snapshot(dir);
      const again = await init(dir, host);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/already there, left as it is[\s\S]*already there, left as it is[\s\S]*already ignores/);
      expect(snapshot(dir)).toEqual(first);
    }
  });

  it('writes the Cursor hooks file next to existing Cursor hooks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    mkdirSync(join(dir, '.cursor'));
    writeFileSync(join(dir, '.cursor/hooks.json'), JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: './format.sh' }] } }));
    expect((await init(dir, 'cursor', '--test-command', 'pytest -q')).code).toBe(0);
    expect(json(dir, '.cursor/hooks.json')).toEqual({
      version: 1,
      hooks: { afterFileEdit: [{ command: './format.sh' }], stop: [{ command: 'npx stopwise hook cursor', timeout: 330, loop_limit: 5 }] },
    });
  });

  it('refuses to touch settings it cannot read, and exits 1 without a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), '{ "hooks": ');
    const run = await init(dir, 'claude-code', '--test-command', 'npm test');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/settings.json: not valid JSON .*not touching it/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(read(dir, '.claude/settings.json')).toBe('{ "hooks": ');
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify({ hooks: { Stop: 'npx stopwise' } }));
    expect((await init(dir, 'claude-code')).stderr).toMatch(/"hooks.Stop" must be an array/);
  });

  it('exits 2 on a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    for (const args of [[], ['windsurf'], ['codex', '--test-command', ''], ['codex', '--bogus']]) {
      expect((await init(dir, ...args)).code).toBe(2);
    }
  });
});
