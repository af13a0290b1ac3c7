import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findChromium } from './chromium.js';
import { findPostgres, POSTGRES_HINT } from './postgres.js';
import { findOnPath, required, skipWithout } from './prerequisite.js';

// The searches run on fake programs in a temp folder: shell scripts that do nothing (pg_config prints its folder),
// found through the PATH and variables of an environment given to them, never the machine's own.
let scratch = '';
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'stopwise-find-'));
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  rmSync(scratch, { recursive: true, force: true });
});

/** A folder under the scratch folder holding each of `programs` as an executable script (or a plain file with `mode`). */
function folderWith(name: string, programs: readonly string[], script = 'exit 0', mode = 0o755): string {
  const folder = join(scratch, name);
  mkdirSync(folder, { recursive: true });
  for (const program of programs) {
    writeFileSync(join(folder, program), `#!/bin/sh\n${script}\n`);
    chmodSync(join(folder, program), mode);
  }
  return folder;
}

const SERVER = ['initdb', 'pg_ctl', 'postgres', 'psql'];
/** An environment with only these folders on PATH; no Debian folder unless the test names one. */
const envWith = (folders: readonly string[], more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PATH: folders.join(delimiter), ...more });
const noDebian = (): string => join(scratch, 'no-debian');

describe('findOnPath', () => {
  it('finds the first executable of that name in the PATH folders, passing over a plain file and a folder', () => {
    const plain = folderWith('plain', ['tool'], 'exit 0', 0o644);
    const dir = join(scratch, 'dir');
    mkdirSync(join(dir, 'tool'), { recursive: true });
    const first = folderWith('first', ['tool']);
    const second = folderWith('second', ['tool']);
    expect(findOnPath('tool', envWith([plain, dir, first, second]))).toBe(join(first, 'tool'));
    expect(findOnPath('tool', envWith([plain, dir]))).toBeUndefined();
    expect(findOnPath('tool', {})).toBeUndefined();
  });
});

describe('findPostgres', () => {
  it('takes the folder STOPWISE_PG_BIN names first, before pg_config and initdb on PATH', () => {
    const named = folderWith('named', SERVER);
    const other = folderWith('other', SERVER);
    const onPath = folderWith('on-path', ['initdb']);
    writeFileSync(join(onPath, 'pg_config'), `#!/bin/sh\necho ${other}\n`, { mode: 0o755 });
    expect(findPostgres(envWith([onPath], { STOPWISE_PG_BIN: named }), noDebian())).toEqual({
      ok: true,
      value: { bin: named, psql: join(named, 'psql') },
      via: 'STOPWISE_PG_BIN',
    });
  });

  it('says which programs the folder STOPWISE_PG_BIN names lacks, rather than looking elsewhere', () => {
    const named = folderWith('named', ['initdb', 'postgres']);
    const other = folderWith('other', SERVER);
    const found = findPostgres(envWith([other], { STOPWISE_PG_BIN: named }), noDebian());
    expect(found).toEqual({ ok: false, missing: `PostgreSQL not found: STOPWISE_PG_BIN=${named} holds no pg_ctl (it must name the folder of initdb, pg_ctl and postgres)` });
  });

  it('reads the folder from `pg_config --bindir` on PATH, before initdb on PATH', () => {
    const bin = folderWith('pg/bin', SERVER);
    const tools = folderWith('tools', ['pg_config'], `echo ${bin}`);
    const other = folderWith('other', SERVER);
    const found = findPostgres(envWith([tools, other]), noDebian());
    expect(found).toEqual({ ok: true, value: { bin, psql: join(bin, 'psql') }, via: `${join(tools, 'pg_config')} --bindir` });
  });

  it('passes over a pg_config whose folder has no server, or that fails, and takes the folder of initdb on PATH', () => {
    const clientOnly = folderWith('client/bin', ['psql']);
    const bare = folderWith('bare', ['pg_config'], `echo ${clientOnly}`);
    const server = folderWith('server', SERVER);
    expect(findPostgres(envWith([bare, server]), noDebian())).toMatchObject({ ok: true, value: { bin: server }, via: `${join(server, 'initdb')} on PATH` });
    const failing = folderWith('failing', ['pg_config'], 'exit 1');
    expect(findPostgres(envWith([failing, server]), noDebian())).toMatchObject({ ok: true, value: { bin: server } });
  });

  it('follows an initdb on PATH that is a link into the folder of the other programs', () => {
    const real = folderWith('lib/postgresql/16/bin', SERVER);
    const links = join(scratch, 'local-bin');
    mkdirSync(links);
    symlinkSync(join(real, 'initdb'), join(links, 'initdb'));
    const bin = realpathSync(real);
    expect(findPostgres(envWith([links]), noDebian())).toEqual({ ok: true, value: { bin, psql: join(bin, 'psql') }, via: `${join(links, 'initdb')} on PATH` });
  });

  it("looks last in Debian's folders, newest complete version first", () => {
    const debian = join(scratch, 'usr-lib-postgresql');
    folderWith('usr-lib-postgresql/14/bin', SERVER);
    const sixteen = folderWith('usr-lib-postgresql/16/bin', SERVER);
    folderWith('usr-lib-postgresql/17/bin', ['psql']);
    mkdirSync(join(debian, 'common'));
    expect(findPostgres(envWith([]), debian)).toEqual({ ok: true, value: { bin: sixteen, psql: join(sixteen, 'psql') }, via: sixteen });
  });

  it('takes psql from PATH when the folder has none, and says so when there is none at all', () => {
    const bin = folderWith('bin', ['initdb', 'pg_ctl', 'postgres']);
    const client = folderWith('client', ['psql']);
    expect(findPostgres(envWith([client], { STOPWISE_PG_BIN: bin }), noDebian())).toMatchObject({ ok: true, value: { bin, psql: join(client, 'psql') } });
    expect(findPostgres(envWith([], { STOPWISE_PG_BIN: bin }), noDebian())).toEqual({
      ok: false,
      missing: `PostgreSQL's psql not found (not in ${bin} nor on PATH; Debian: apt-get install postgresql-client)`,
    });
  });

  it('says how to make it findable when it is nowhere, and does not take programs that cannot be run', () => {
    const notExecutable = folderWith('plain', SERVER, 'exit 0', 0o644);
    const missing = { ok: false, missing: `PostgreSQL not found (${POSTGRES_HINT})` };
    expect(findPostgres(envWith([notExecutable]), noDebian())).toEqual(missing);
    expect(findPostgres({}, noDebian())).toEqual(missing);
    expect(missing.missing).toBe('PostgreSQL not found (set STOPWISE_PG_BIN or put pg_config/initdb on PATH; Debian: apt-get install postgresql)');
  });

  it("reads this process's environment by default", () => {
    const bin = folderWith('bin', SERVER);
    vi.stubEnv('STOPWISE_PG_BIN', bin);
    expect(findPostgres()).toMatchObject({ ok: true, value: { bin }, via: 'STOPWISE_PG_BIN' });
  });
});

describe('findChromium', () => {
  it('takes the file STOPWISE_CHROMIUM names first, and says so when it cannot be run', () => {
    const named = join(folderWith('named', ['my-chrome']), 'my-chrome');
    const onPath = folderWith('on-path', ['chromium']);
    expect(findChromium(envWith([onPath], { STOPWISE_CHROMIUM: named }), join(scratch, 'none'))).toEqual({ ok: true, value: named, via: 'STOPWISE_CHROMIUM' });
    const absent = join(scratch, 'absent');
    expect(findChromium(envWith([onPath], { STOPWISE_CHROMIUM: absent }), join(scratch, 'none'))).toEqual({
      ok: false,
      missing: `Chromium not found: STOPWISE_CHROMIUM=${absent} is not an executable file`,
    });
  });

  it('looks on PATH for chromium, then chromium-browser, then google-chrome', () => {
    const first = folderWith('first', ['google-chrome']);
    const second = folderWith('second', ['chromium-browser']);
    const third = folderWith('third', ['chromium']);
    const none = join(scratch, 'none');
    expect(findChromium(envWith([first, second, third]), none)).toEqual({ ok: true, value: join(third, 'chromium'), via: 'chromium on PATH' });
    expect(findChromium(envWith([first, second]), none)).toEqual({ ok: true, value: join(second, 'chromium-browser'), via: 'chromium-browser on PATH' });
    expect(findChromium(envWith([first]), none)).toEqual({ ok: true, value: join(first, 'google-chrome'), via: 'google-chrome on PATH' });
  });

  it('falls back on the fixed path, and says how to make it findable when it is not there either', () => {
    const fixed = join(folderWith('usr-bin', ['chromium']), 'chromium');
    expect(findChromium(envWith([]), fixed)).toEqual({ ok: true, value: fixed, via: fixed });
    expect(findChromium(envWith([folderWith('plain', ['chromium'], 'exit 0', 0o644)]), join(scratch, 'none'))).toEqual({
      ok: false,
      missing: 'Chromium not found (set STOPWISE_CHROMIUM or put chromium, chromium-browser or google-chrome on PATH; Debian: apt-get install chromium)',
    });
  });

  it("reads this process's environment by default", () => {
    const named = join(folderWith('named', ['chrome']), 'chrome');
    vi.stubEnv('STOPWISE_CHROMIUM', named);
    expect(findChromium()).toEqual({ ok: true, value: named, via: 'STOPWISE_CHROMIUM' });
  });
});

describe('a missing server', () => {
  const missing = { ok: false, missing: 'Thing not found (install it)' } as const;

  it('outside CI skips, printing one line on standard error once per file', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const file = join(import.meta.dirname, '../example/outside-ci.test.ts');
    expect(skipWithout(missing, file, {})).toBe(true);
    expect(skipWithout(missing, file, { CI: 'false' })).toBe(true);
    expect(write.mock.calls).toEqual([['skipped in test/example/outside-ci.test.ts: Thing not found (install it)\n']]);
  });

  it('in CI runs the tests, which fail with the reason', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(skipWithout(missing, join(import.meta.dirname, 'in-ci.test.ts'), { CI: 'true' })).toBe(false);
    expect(write).not.toHaveBeenCalled();
    expect(() => required(missing)).toThrow(/^Thing not found \(install it\)$/);
  });

  it('is not skipped when found, and hands over what was found', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const found = { ok: true, value: '/opt/thing', via: 'THING' } as const;
    expect(skipWithout(found, join(import.meta.dirname, 'found.test.ts'), {})).toBe(false);
    expect(required(found)).toBe('/opt/thing');
    expect(write).not.toHaveBeenCalled();
  });
});
