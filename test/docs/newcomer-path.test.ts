// A newcomer's first hook, from the README alone: the packed package installed into a scratch project, then the
// README's hook quick start followed literally (its three commands, then each payload it pipes into the hook),
// and each answer compared with the one the README shows.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SECTION = '## Quick start: a coding-agent hook';

/** One fenced block of the section, in order, with the prose just before and just after it. */
interface Block {
  readonly lang: string;
  readonly code: string;
  readonly before: string;
  after: string;
}

function quickStartBlocks(readme: string): Block[] {
  const start = readme.indexOf(`${SECTION}\n`);
  if (start < 0) throw new Error(`the README has no "${SECTION}" section`);
  const rest = readme.slice(start + SECTION.length);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  const blocks: Block[] = [];
  const fence = /```(\w*)\n([\s\S]*?)```/g;
  let last = 0;
  for (let match = fence.exec(section); match !== null; match = fence.exec(section)) {
    const before = section.slice(last, match.index);
    const previous = blocks.at(-1);
    if (previous !== undefined) previous.after = before;
    blocks.push({ lang: match[1] ?? '', code: match[2] ?? '', before, after: '' });
    last = fence.lastIndex;
  }
  const final = blocks.at(-1);
  if (final !== undefined) final.after = section.slice(last);
  return blocks;
}

/** The scratch project the README describes: `npm test` runs `node --test`, and `add` subtracts. */
function scratchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-newcomer-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'adder', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test' } }, null, 2));
  writeFileSync(join(dir, 'add.js'), 'export const add = (a, b) => a - b;\n');
  writeFileSync(
    join(dir, 'add.test.js'),
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from './add.js';\n\ntest('add sums two numbers', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
  );
  return dir;
}

const env = { ...process.env, CLAUDE_PROJECT_DIR: undefined, CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: undefined, NODE_TEST_CONTEXT: undefined, SYSTEM_ONE_API_KEY: undefined };

function sh(command: string, cwd: string): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync('sh', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 240_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

let work: string;
let tarball: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'stopwise-pack-'));
  execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const name = readdirSync(work).find((file) => file.endsWith('.tgz'));
  if (name === undefined) throw new Error('npm pack wrote no tarball');
  tarball = join(work, name);
}, 240_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("the README's hook quick start, followed literally with the packed package", { timeout: 600_000 }, () => {
  it('installs, sets up and checks the hook with the three commands, then answers a red and a green Stop as shown', () => {
    const blocks = quickStartBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    const [setup, ...rest] = blocks;
    expect(setup?.lang).toBe('sh');
    const commands = (setup?.code ?? '').trim().split('\n');
    expect(commands).toEqual(['npm i -D stopwise', 'npx stopwise init claude-code', 'npx stopwise doctor claude-code']);

    const dir = scratchProject();
    try {
      // The one change: the package comes from the tarball this checkout packs, not from the registry.
      const install = sh(`npm i -D --no-audit --no-fund --prefer-offline ${JSON.stringify(tarball)}`, dir);
      expect(install.code, install.stderr).toBe(0);
      const init = sh(commands[1] as string, dir);
      expect(init.code, init.stderr).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8'))).toHaveProperty('hooks.Stop');
      const doctor = sh(commands[2] as string, dir);
      // The tests fail now, which doctor shows as the answer the hook would give; the setup itself is sound.
      expect(doctor.stdout).toMatch(/the setup is sound/);

      // Each payload block is followed by the answer: a json block, or prose saying it prints nothing.
      const payloads = rest.filter((block) => block.lang === 'sh');
      expect(payloads).toHaveLength(2);
      let fixed = false;
      for (const [index, block] of rest.entries()) {
        if (block.lang !== 'sh') continue;
        const command = block.code.trim();
        expect(command).toMatch(/\| npx stopwise hook claude-code$/);
        if (/fixed/i.test(block.before) && !fixed) {
          // The README says the agent fixed `add` before this Stop.
          writeFileSync(join(dir, 'add.js'), 'export const add = (a, b) => a + b;\n');
          fixed = true;
        }
        const run = sh(command, dir);
        expect(run.code, run.stderr).toBe(0);
        const next = rest[index + 1];
        if (next?.lang === 'json') {
          expect(JSON.parse(run.stdout)).toEqual(JSON.parse(next.code));
        } else {
          expect(block.after).toMatch(/prints nothing/);
          expect(run.stdout).toBe('');
        }
      }
      expect(fixed).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
