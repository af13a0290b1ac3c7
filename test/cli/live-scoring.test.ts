// `stopwise calibrate --live` through the built CLI as a child process, against
// loopback decision-model servers on 127.0.0.1 (ephemeral ports).
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempFolders } from '../support/temp-folders.js';
import { parseLabelledCases, type LabelledCase } from '../../src/calibrate/labelled-case.js';
import { openScoreCacheFile } from '../../src/calibrate/score-cache-file.js';
import { caseState, scoreCacheKey } from '../../src/calibrate/score-cases.js';
import { doneCriteria } from '../../src/decision-model/boolean-question.js';
import {
  askedQuestion,
  chatBody,
  send,
  startLoopbackServer,
  systemOneBody,
  type Handler,
  type LoopbackServer,
  type SeenRequest,
} from '../decision-model/loopback-server.js';
import { runCli, startCli, type CliRun } from './run-cli.js';

/** A new temporary folder, removed after each test. */
const tempFolder = tempFolders();

const root = join(import.meta.dirname, '..', '..');
const EXAMPLE = join(root, 'examples', 'cases', 'unscored-cases.jsonl');
const KEY = 'so-live-test-3f9b27c1d0e4';
const NAMESPACE = 'system-one:judge-small';
type Probabilities = { acceptanceCovered: number; noOpenQuestions: number };

let servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(handle: Handler): Promise<LoopbackServer> {
  const server = await startLoopbackServer(handle);
  servers.push(server);
  return server;
}

function readCases(path: string): LabelledCase[] {
  const read = parseLabelledCases(readFileSync(path, 'utf8'), path);
  if (!read.ok) throw new Error(read.error.message);
  return [...read.cases];
}

/** A folder holding `cases.jsonl`: the CLI runs there, so the default cache lands there too. */
function folderWith(cases: readonly LabelledCase[] | string): string {
  const folder = tempFolder('stopwise-live-');
  if (typeof cases === 'string') copyFileSync(cases, join(folder, 'cases.jsonl'));
  else writeFileSync(join(folder, 'cases.jsonl'), cases.map((labelled) => JSON.stringify(labelled)).join('\n') + '\n');
  return folder;
}

/** Labelled cases to score: one in three not done, each output unique. */
function generatedCases(count: number): LabelledCase[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `g${index}`,
    taskType: index % 2 === 0 ? 'bugfix' : 'feature',
    task: `Task ${index}: fix the flaky retry in module ${index % 7}`,
    acceptance: ['the retry waits with backoff', `module ${index % 7} has a test for it`],
    output: `Output ${index}: ${index % 3 === 0 ? 'started on the backoff, not finished' : 'added backoff and a test'}`,
    tests: { passed: index % 5 !== 4, failed: index % 5 === 4 ? ['retry > waits'] : [], ran: 20 + index },
    label: index % 3 === 0 ? 'not_done' : 'done',
  }));
}

/** What the test servers answer for a case: high for done cases, lower for the rest, never on a grid point. */
function probabilitiesFor(cases: readonly LabelledCase[]): (output: string) => Probabilities {
  const byOutput = new Map<string, Probabilities>();
  cases.forEach((labelled, index) => {
    const wobble = ((index * 37) % 17) / 100;
    const acceptanceCovered = labelled.label === 'done' ? 0.785 + wobble : 0.315 + 2 * wobble;
    byOutput.set(String(labelled.output), { acceptanceCovered: Math.round(acceptanceCovered * 1000) / 1000, noOpenQuestions: 0.905 });
  });
  return (output) => {
    const found = byOutput.get(output);
    if (found === undefined) throw new Error(`no case has the output ${JSON.stringify(output)}`);
    return found;
  };
}

/** A System One server answering each case from `answer`, after `delayMs`, counting requests in flight. */
function systemOneScorer(answer: (output: string) => Probabilities, delayMs = 5) {
  const stats = { inFlight: 0, maxInFlight: 0 };
  const handle: Handler = (request, response) => {
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    response.on('close', () => stats.inFlight--);
    const output = (request.json as { state: { output: string } }).state.output;
    const probabilities = answer(output);
    setTimeout(() => send(response, 200, systemOneBody(probabilities)), delayMs);
  };
  return { handle, stats };
}

function envWith(variables: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', ...variables };
}

function systemOneEnv(server: LoopbackServer): NodeJS.ProcessEnv {
  return envWith({ SYSTEM_ONE_API_KEY: KEY, SYSTEM_ONE_BASE_URL: server.baseURL, SYSTEM_ONE_MODEL: 'judge-small' });
}

interface CalibrateJson {
  scoring?: { client: string; model: string; cache: string; scored: number; fromCache: number; alreadyScored: number };
  result: unknown;
  metrics: unknown;
}

function parseJson(run: CliRun): CalibrateJson {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as CalibrateJson;
}

/** The calibration of the same cases with the probabilities written into the file: what --live must match. */
async function calibrateDirectly(cases: readonly LabelledCase[], probabilitiesOf: (labelled: LabelledCase) => Probabilities): Promise<CalibrateJson> {
  const scored = cases.map(({ task: _task, output: _output, acceptance: _acceptance, ...rest }, index) => ({
    ...rest,
    probabilities: probabilitiesOf(cases[index] as LabelledCase),
  }));
  const folder = folderWith(scored as LabelledCase[]);
  return parseJson(await runCli(['calibrate', 'cases.jsonl', '--json'], { cwd: folder, env: envWith({}) }));
}

/** The cases a request was about, by the cache key the CLI files its answer under. */
function requestKey(request: SeenRequest): string {
  return scoreCacheKey(NAMESPACE, (request.json as { state: unknown }).state, doneCriteria);
}

describe('stopwise calibrate --live --client system-one', () => {
  it('scores the unscored cases, then calibrates exactly as on the same probabilities written in', async () => {
    const cases = readCases(EXAMPLE);
    const answer = probabilitiesFor(cases);
    const scorer = systemOneScorer(answer, 20);
    const server = await serve(scorer.handle);
    const folder = folderWith(EXAMPLE);
    const args = ['calibrate', 'cases.jsonl', '--live', '--client', 'system-one', '--concurrency', '3', '--json'];

    const live = await runCli(args, { cwd: folder, env: systemOneEnv(server) });
    const printed = parseJson(live);
    expect(server.requests).toHaveLength(cases.length);
    expect(scorer.stats.maxInFlight).toBeLessThanOrEqual(3);
    for (const request of server.requests) {
      expect(request).toMatchObject({ method: 'POST', path: '/v1/systemone' });
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      expect((request.json as { model: string }).model).toBe('judge-small');
      expect(Object.keys((request.json as { questions: object }).questions)).toEqual(['acceptanceCovered', 'noOpenQuestions']);
    }
    // Every case was asked once, with its task, acceptance, output and tests as the state.
    expect(new Set(server.requests.map((request) => JSON.stringify((request.json as { state: unknown }).state)))).toEqual(
      new Set(cases.map((labelled) => JSON.stringify(caseState(labelled)))),
    );
    expect(printed.scoring).toEqual({
      client: 'system-one',
      model: 'judge-small',
      cache: 'cases.jsonl.scores.jsonl',
      scored: cases.length,
      fromCache: 0,
      alreadyScored: 0,
    });
    const direct = await calibrateDirectly(cases, (labelled) => answer(String(labelled.output)));
    expect(printed.result).toEqual(direct.result);
    expect(printed.metrics).toEqual(direct.metrics);
    expect(live.stderr).toContain(
      `stopwise calibrate: scoring 16 cases with the system-one model "judge-small" at ${server.baseURL} (concurrency 3); answers cached in cases.jsonl.scores.jsonl (0 on disk)\n`,
    );
    expect(live.stderr).toContain('scoring: 16/16 (0 from cache, 0 failed)\n');
    expect(live.stderr).toContain('stopwise calibrate: scored 16 cases: 16 asked, 0 from cases.jsonl.scores.jsonl\n');
    expect(live.stderr + live.stdout).not.toContain(KEY);
    const cacheLines = readFileSync(join(folder, 'cases.jsonl.scores.jsonl'), 'utf8').trim().split('\n');
    expect(cacheLines).toHaveLength(16);
    expect(JSON.parse(cacheLines[0] as string)).toMatchObject({ model: 'judge-small-2026-09-01' });

    // Run again: everything comes from the cache, nothing is asked, the result is the same.
    const again = parseJson(await runCli(args, { cwd: folder, env: systemOneEnv(server) }));
    expect(server.requests).toHaveLength(16);
    expect(again.scoring).toMatchObject({ scored: 0, fromCache: 16 });
    expect(again.result).toEqual(printed.result);

    // Another model is another namespace: its answers are not the cached ones.
    const other = await runCli([...args, '--model', 'judge-large'], { cwd: folder, env: systemOneEnv(server) });
    expect(parseJson(other).scoring).toMatchObject({ model: 'judge-large', scored: 16, fromCache: 0 });
    expect(server.requests.slice(16).map((request) => (request.json as { model: string }).model)).toEqual(Array(16).fill('judge-large'));
  });

  it.each(['SIGINT', 'SIGKILL'] as const)(
    'resumes a run stopped by %s part-way, asking only for the cases not on disk, and ends as an uninterrupted run does',
    async (signal) => {
      const cases = generatedCases(40);
      const scorer = systemOneScorer(probabilitiesFor(cases), 30);
      let answered = 0;
      let stopAfter: (() => void) | undefined;
      const server = await serve((request, response, index) => {
        response.on('finish', () => {
          answered++;
          if (answered === 10) stopAfter?.();
        });
        return scorer.handle(request, response, index);
      });
      const folder = folderWith(cases);
      const args = ['calibrate', 'cases.jsonl', '--live', '--client', 'system-one', '--concurrency', '2', '--json'];

      const first = startCli(args, { cwd: folder, env: systemOneEnv(server) });
      stopAfter = () => first.child.kill(signal);
      const stopped = await first.done;
      if (signal === 'SIGINT') {
        expect(stopped.code).toBe(130);
        expect(stopped.stderr).toMatch(/stopwise calibrate: interrupted: \d+ of 40 cases still unscored; the \d+ answers? so far (is|are) kept in cases\.jsonl\.scores\.jsonl: run the same command again to resume\n/);
      } else {
        expect(stopped.signal).toBe('SIGKILL');
      }
      expect(stopped.stdout).toBe('');
      const askedFirst = server.requests.length;
      expect(askedFirst).toBeLessThan(40);

      const cache = await openScoreCacheFile(join(folder, 'cases.jsonl.scores.jsonl'));
      const keys = cases.map((labelled) => scoreCacheKey(NAMESPACE, caseState(labelled), doneCriteria));
      const onDisk: string[] = [];
      for (const key of keys) if ((await cache.get(key)) !== undefined) onDisk.push(key);
      expect(onDisk.length).toBe(cache.loaded);
      expect(onDisk.length).toBeGreaterThan(0);
      expect(onDisk.length).toBeLessThanOrEqual(askedFirst);

      const resumed = parseJson(await runCli(args, { cwd: folder, env: systemOneEnv(server) }));
      const askedAgain = server.requests.slice(askedFirst).map(requestKey);
      // Only the cases not on disk, each once.
      expect(new Set(askedAgain).size).toBe(askedAgain.length);
      expect(new Set(askedAgain)).toEqual(new Set(keys.filter((key) => !onDisk.includes(key))));
      expect(resumed.scoring).toMatchObject({ scored: 40 - onDisk.length, fromCache: onDisk.length });

      const reference = parseJson(
        await runCli([...args, '--cache', 'uninterrupted.jsonl'], { cwd: folder, env: systemOneEnv(server) }),
      );
      expect(reference.scoring).toMatchObject({ scored: 40, fromCache: 0 });
      expect(resumed.result).toEqual(reference.result);
      expect(resumed.metrics).toEqual(reference.metrics);
    },
    60_000,
  );

  it('exits 1 with a clear message when the key is missing, asks nothing, prints no key', async () => {
    const server = await serve((_request, response) => send(response, 200, systemOneBody({ acceptanceCovered: 0.5, noOpenQuestions: 0.5 })));
    const folder = folderWith(EXAMPLE);
    const secret = 'sk-other-service-91c2e7a4';
    const run = await runCli(['calibrate', 'cases.jsonl', '--live', '--client', 'system-one', '--model', 'judge-small'], {
      cwd: folder,
      env: envWith({ SYSTEM_ONE_BASE_URL: server.baseURL, OPENAI_API_KEY: secret }),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('stopwise calibrate: the system-one decision model needs: the key (SYSTEM_ONE_API_KEY in the environment)\n');
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(folder, 'cases.jsonl.scores.jsonl'))).toBe(false);

    const nothing = await runCli(['calibrate', 'cases.jsonl', '--live', '--client', 'system-one'], { cwd: folder, env: envWith({}) });
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toBe(
      'stopwise calibrate: the system-one decision model needs: the key (SYSTEM_ONE_API_KEY in the environment); the base URL (--base-url, or SYSTEM_ONE_BASE_URL in the environment); the model (--model, or SYSTEM_ONE_MODEL in the environment)\n',
    );
    const named = await runCli(
      ['calibrate', 'cases.jsonl', '--live', '--client', 'openai-compatible', '--model', 'm', '--api-key-env', 'JUDGE_KEY'],
      { cwd: folder, env: envWith({ OPENAI_API_KEY: secret }) },
    );
    expect(named.code).toBe(1);
    expect(named.stderr).toBe(
      'stopwise calibrate: the openai-compatible decision model needs: the base URL (--base-url); the key (JUDGE_KEY in the environment, named by --api-key-env)\n',
    );
    expect(run.stderr + nothing.stderr + named.stderr).not.toContain(secret);
  });

  it('retries a case the server answers with 500, then names its line; calibrates nothing; a rerun asks only for it', async () => {
    const cases = readCases(EXAMPLE);
    const scorer = systemOneScorer(probabilitiesFor(cases));
    const failing = cases.findIndex((labelled) => labelled.id === 'webhook-retries');
    let broken = true;
    const server = await serve((request, response, index) => {
      const output = (request.json as { state: { output: string } }).state.output;
      if (broken && output === cases[failing]?.output) return send(response, 500, { error: { message: 'upstream exploded' } });
      return scorer.handle(request, response, index);
    });
    const folder = folderWith(EXAMPLE);
    const args = ['calibrate', 'cases.jsonl', '--live', '--client', 'system-one'];

    const run = await runCli(args, { cwd: folder, env: systemOneEnv(server) });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const failedRequests = server.requests.filter((request) => (request.json as { state: { output: string } }).state.output === cases[failing]?.output);
    expect(failedRequests).toHaveLength(3);
    expect(server.requests).toHaveLength(15 + 3);
    expect(run.stderr).toContain(
      `stopwise calibrate: cases.jsonl:${failing + 1}: case webhook-retries: not scored: System One answered 500 (server error) at ${server.baseURL}/systemone: upstream exploded (after 3 attempts)\n`,
    );
    expect(run.stderr).toContain(
      'stopwise calibrate: 1 of 16 cases could not be scored (1 failed, 0 not tried); nothing was calibrated; the 15 answers so far are kept in cases.jsonl.scores.jsonl: run again to ask only for the rest\n',
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);

    broken = false;
    const rerun = await runCli(args, { cwd: folder, env: systemOneEnv(server) });
    expect(rerun.code).toBe(0);
    expect(server.requests).toHaveLength(19);
    expect(rerun.stderr).toContain('scored 16 cases: 1 asked, 15 from cases.jsonl.scores.jsonl');
    expect(rerun.stdout).toMatch(/\ncases\.jsonl: 16 cases \(8 done, 8 not done\)/);
  });

  it('stops after five cases failed in a row when the server only answers 500', async () => {
    const server = await serve((_request, response) => send(response, 503, { error: 'overloaded' }));
    const folder = folderWith(generatedCases(30));
    const run = await runCli(['calibrate', 'cases.jsonl', '--live', '--client', 'system-one', '--concurrency', '4'], {
      cwd: folder,
      env: systemOneEnv(server),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('stopwise calibrate: stopped after 5 cases failed in a row\n');
    const asked = new Set(server.requests.map(requestKey));
    // Five failed cases and at most three more in flight when the run stopped.
    expect(asked.size).toBeGreaterThanOrEqual(5);
    expect(asked.size).toBeLessThanOrEqual(8);
    expect(server.requests.length).toBeLessThanOrEqual(8 * 3);
    expect(run.stderr).toMatch(/stopwise calibrate: 30 of 30 cases could not be scored \(5 failed, 25 not tried\); nothing was calibrated/);
    expect(run.stderr.match(/: not scored: /g)).toHaveLength(5);
  });

  it('stops at the first refused key and never prints the key, even when the server echoes it', async () => {
    const server = await serve((request, response) =>
      send(response, 401, { detail: `invalid key ${String(request.headers.authorization)}` }),
    );
    const folder = folderWith(EXAMPLE);
    const run = await runCli(['calibrate', 'cases.jsonl', '--live', '--client', 'system-one', '--concurrency', '2'], {
      cwd: folder,
      env: systemOneEnv(server),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(server.requests.length).toBeLessThanOrEqual(2);
    expect(run.stderr).toContain('answered 401 (unauthorized: the API key was refused)');
    expect(run.stderr).toContain('invalid key Bearer [redacted]');
    expect(run.stderr).toContain('stopwise calibrate: stopped at the first auth error: every request would fail the same way\n');
    expect(run.stderr).not.toContain(KEY);
    expect(run.stderr).not.toContain(KEY.slice(0, 10));
  });
});

describe('stopwise calibrate --live --client openai-compatible', () => {
  it('asks one logprob completion per question and case, then calibrates on those probabilities', async () => {
    const cases = readCases(EXAMPLE);
    const answer = probabilitiesFor(cases);
    const instructions = Object.fromEntries(Object.entries(doneCriteria).map(([name, question]) => [name, question.instructions]));
    const server = await serve((request, response) => {
      const user = (request.json as { messages: { content: string }[] }).messages.at(-1)?.content ?? '';
      const found = cases.find((labelled) => user.includes(String(labelled.output)));
      if (found === undefined) return send(response, 400, { error: 'no case in the prompt' });
      const name = askedQuestion(request, instructions) as keyof Probabilities;
      return send(response, 200, chatBody(answer(String(found.output))[name]));
    });
    const folder = folderWith(EXAMPLE);
    const run = await runCli(
      ['calibrate', 'cases.jsonl', '--live', '--client', 'openai-compatible', '--base-url', server.baseURL, '--model', 'judge-7b', '--api-key-env', 'LOCAL_JUDGE_KEY', '--concurrency', '16', '--json'],
      { cwd: folder, env: envWith({ LOCAL_JUDGE_KEY: KEY }) },
    );
    const printed = parseJson(run);
    expect(server.requests).toHaveLength(32);
    for (const request of server.requests) {
      expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request.json).toMatchObject({ model: 'judge-7b', max_tokens: 1, logprobs: true });
    }
    expect(printed.scoring).toEqual({
      client: 'openai-compatible',
      model: 'judge-7b',
      cache: 'cases.jsonl.scores.jsonl',
      scored: 16,
      fromCache: 0,
      alreadyScored: 0,
    });
    expect(run.stderr + run.stdout).not.toContain(KEY);
    expect(run.stderr).not.toContain('Warning');

    // The probabilities read from the logprobs are the served ones, and the calibration is the one on them.
    const cache = await openScoreCacheFile(join(folder, 'cases.jsonl.scores.jsonl'));
    const used: Probabilities[] = [];
    for (const labelled of cases) {
      const cached = await cache.get(scoreCacheKey('openai-compatible:judge-7b', caseState(labelled), doneCriteria));
      if (cached === undefined) throw new Error(`case ${labelled.id} is not cached`);
      const served = answer(String(labelled.output));
      expect(cached.probabilities.acceptanceCovered).toBeCloseTo(served.acceptanceCovered, 9);
      expect(cached.probabilities.noOpenQuestions).toBeCloseTo(served.noOpenQuestions, 9);
      used.push(cached.probabilities as Probabilities);
    }
    const direct = await calibrateDirectly(cases, (labelled) => used[cases.indexOf(labelled)] as Probabilities);
    expect(printed.result).toEqual(direct.result);
    expect(printed.metrics).toEqual(direct.metrics);
  });
});
