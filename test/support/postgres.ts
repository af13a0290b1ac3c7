// PostgreSQL for a test: where its programs are, and a server of the test's own. findPostgres looks in the folder
// named by STOPWISE_PG_BIN, then in the folder `pg_config --bindir` names (pg_config found on PATH), then beside
// `initdb` on PATH, then in Debian's folders (/usr/lib/postgresql/<version>/bin, newest first). startPostgres runs a
// throwaway cluster: its own data directory in a temp folder, a loopback port, trust authentication for one user,
// stopped and removed by stop(). The server refuses to run as root, so under root every server command runs as the
// unprivileged `postgres` account (or `nobody`) through runuser.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { findOnPath, isExecutableFile, type Found } from './prerequisite.js';

const run = promisify(execFile);

/** How to make PostgreSQL findable, part of every "not found" reason. */
export const POSTGRES_HINT = 'set STOPWISE_PG_BIN or put pg_config/initdb on PATH; Debian: apt-get install postgresql';

/** The programs a folder must hold to run a server. */
export const POSTGRES_PROGRAMS = ['initdb', 'pg_ctl', 'postgres'] as const;

/** Where Debian's postgresql packages put each version's programs: <root>/<version>/bin. */
export const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql';

export interface PostgresPrograms {
  /** The folder holding initdb, pg_ctl and postgres. */
  readonly bin: string;
  /** psql: the one in `bin`, else the one on PATH. */
  readonly psql: string;
}

const missingPrograms = (folder: string): string[] => POSTGRES_PROGRAMS.filter((name) => !isExecutableFile(join(folder, name)));

/**
 * Finds PostgreSQL's programs: STOPWISE_PG_BIN, then `pg_config --bindir`, then the folder of `initdb` on PATH (the
 * folder its link points into first), then the newest version under `debianRoot`. A STOPWISE_PG_BIN that lacks a
 * program is reported as such, not passed over.
 */
export function findPostgres(env: NodeJS.ProcessEnv = process.env, debianRoot: string = DEBIAN_POSTGRES_ROOT): Found<PostgresPrograms> {
  const withPsql = (bin: string, via: string): Found<PostgresPrograms> => {
    const psql = isExecutableFile(join(bin, 'psql')) ? join(bin, 'psql') : findOnPath('psql', env);
    return psql === undefined
      ? { ok: false, missing: `PostgreSQL's psql not found (not in ${bin} nor on PATH; Debian: apt-get install postgresql-client)` }
      : { ok: true, value: { bin, psql }, via };
  };

  const named = env.STOPWISE_PG_BIN;
  if (named !== undefined && named !== '') {
    const lacking = missingPrograms(named);
    return lacking.length === 0
      ? withPsql(named, 'STOPWISE_PG_BIN')
      : { ok: false, missing: `PostgreSQL not found: STOPWISE_PG_BIN=${named} holds no ${lacking.join(', ')} (it must name the folder of initdb, pg_ctl and postgres)` };
  }

  const pgConfig = findOnPath('pg_config', env);
  if (pgConfig !== undefined) {
    try {
      const bin = execFileSync(pgConfig, ['--bindir'], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
      if (bin !== '' && missingPrograms(bin).length === 0) return withPsql(bin, `${pgConfig} --bindir`);
    } catch {
      // a pg_config that fails says nothing: look further
    }
  }

  const initdb = findOnPath('initdb', env);
  if (initdb !== undefined) {
    for (const folder of new Set([dirname(realpathSync(initdb)), dirname(initdb)])) {
      if (missingPrograms(folder).length === 0) return withPsql(folder, `${initdb} on PATH`);
    }
  }

  const versions = existsSync(debianRoot) ? readdirSync(debianRoot).filter((name) => /^\d+$/.test(name)) : [];
  for (const version of versions.sort((a, b) => Number(b) - Number(a))) {
    const bin = join(debianRoot, version, 'bin');
    if (missingPrograms(bin).length === 0) return withPsql(bin, bin);
  }
  return { ok: false, missing: `PostgreSQL not found (${POSTGRES_HINT})` };
}

export interface PostgresServer {
  /** A connection string for the `postgres` database as the user `stopwise`. */
  readonly url: string;
  readonly port: number;
  /** Runs one SQL statement with psql and returns its rows, fields split on tabs. */
  query(sql: string): Promise<string[][]>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The account the server runs as: ourselves, or under root an unprivileged one. */
function serverAccount(): { readonly user: string; readonly uid: number; readonly gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
      return { user, uid, gid };
    } catch {
      // no such account: try the next
    }
  }
  throw new Error('running as root and neither a postgres nor a nobody account exists to run the PostgreSQL server as');
}

/**
 * Starts a cluster of its own with the programs `findPostgres` found. Its data is thrown away by stop(), so it runs
 * without flushing to disk (fsync, synchronous commit and full-page writes off).
 */
export async function startPostgres(programs: PostgresPrograms): Promise<PostgresServer> {
  const { bin, psql } = programs;
  const account = serverAccount();
  // Under root the server's account must reach the folder: /tmp is open to all, a TMPDIR may not be.
  const dir = mkdtempSync(join(account === undefined ? tmpdir() : '/tmp', 'stopwise-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const asServer = (command: string, args: string[]) =>
    account === undefined ? run(join(bin, command), args) : run('runuser', ['-u', account.user, '--', join(bin, command), ...args]);
  // A server pg_ctl started and then gave up waiting for is stopped before its folder goes.
  const stopAnyServer = () => asServer('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
  try {
    if (account !== undefined) chownSync(dir, account.uid, account.gid);
    await asServer('initdb', ['-D', data, '-U', 'stopwise', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        // -w waits until the server accepts connections; the socket lives in the temp folder, TCP only on loopback.
        const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
        await asServer('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', settings, 'start']);
        break;
      } catch (error) {
        // Another process may have taken the port between the probe and the start: only then is it worth another try.
        const portTaken = existsSync(log) && /could not bind|address already in use/i.test(readFileSync(log, 'utf8'));
        await stopAnyServer();
        if (!portTaken || attempt === 3) throw error;
      }
    }
    const url = `postgresql://stopwise@127.0.0.1:${port}/postgres`;
    return {
      url,
      port,
      async query(sql) {
        const { stdout } = await run(psql, ['-X', '-q', '-At', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql]);
        return stdout === '' ? [] : stdout.replace(/\n$/, '').split('\n').map((line) => line.split('\t'));
      },
      async stop() {
        try {
          await asServer('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
    await stopAnyServer();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${(error as Error).message}${serverLog === '' ? '' : `\n${serverLog}`}`);
  }
}
