import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolders } from '../support/temp-folders.js';
import type { LabelledCase } from '../../src/calibrate/labelled-case.js';
import { openScoreCacheFile } from '../../src/calibrate/score-cache-file.js';
import { scoreCases } from '../../src/calibrate/score-cases.js';
import type { DecisionModelClient } from '../../src/decision-model/decision-model-client.js';

/** A new temporary folder, removed after each test. */
const tempFolder = tempFolders();

const root = join(import.meta.dirname, '..', '..');
const fixture = join(root, 'test', 'fixtures', 'calibrate', 'score-until-killed.mjs');

function unscored(count: number): LabelledCase[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `c${index}`,
    task: `task ${index}`,
    output: 'y'.repeat(index),
    label: index % 2 === 0 ? 'done' : 'not_done',
  }));
}

/** The same answers as the client in the fixture, counting its calls. */
function countingClient(): DecisionModelClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async evaluate(request) {
      calls.push(String((request.state as { task: string }).task));
      const length = String((request.state as { output: string }).output).length;
      return { model: 'slow-test-model', answers: { acceptanceCovered: { probability: (length % 10) / 10 }, noOpenQuestions: { probability: 0.9 } } };
    },
  };
}

describe('openScoreCacheFile', () => {
  it('resumes a run killed part-way without asking again for what was answered', async () => {
    const folder = tempFolder('stopwise-cache-');
    const casesPath = join(folder, 'cases.json');
    const cachePath = join(folder, 'nested', 'scores.jsonl');
    const cases = unscored(40);
    writeFileSync(casesPath, JSON.stringify(cases));

    // A real run in a child process, killed with SIGKILL after a few answers.
    const child = spawn(process.execPath, [fixture, casesPath, cachePath], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killedAfter = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const completed = stdout.match(/^completed \d+$/gm)?.length ?? 0;
        if (completed >= 8 && child.exitCode === null && !child.killed) {
          child.kill('SIGKILL');
          resolve(completed);
        }
      });
      child.on('exit', (code) => {
        if (!child.killed) reject(new Error(`the scoring child ended by itself (code ${code}): ${stderr}`));
      });
    });
    await new Promise((resolve) => child.once('close', resolve));
    expect(stdout).not.toContain('finished');
    const askedBeforeKill = stdout.match(/^asked /gm)?.length ?? 0;
    expect(askedBeforeKill).toBeLessThan(40);

    const cache = await openScoreCacheFile(cachePath);
    // Every case reported finished was on disk before it was reported.
    expect(cache.loaded).toBeGreaterThanOrEqual(killedAfter);
    expect(cache.loaded).toBeLessThanOrEqual(askedBeforeKill);

    const client = countingClient();
    const resumed = await scoreCases(cases, client, { cache, concurrency: 3 });
    await cache.flush();
    expect(resumed.fromCache).toBe(cache.loaded);
    expect(client.calls).toHaveLength(40 - cache.loaded);
    expect(new Set(client.calls).size).toBe(client.calls.length);
    expect(resumed.failures).toEqual([]);
    resumed.cases.forEach((labelled, index) => {
      expect(labelled.probabilities).toEqual({ acceptanceCovered: (index % 10) / 10, noOpenQuestions: 0.9 });
    });

    // A third run pays nothing.
    const reopened = await openScoreCacheFile(cachePath);
    expect(reopened.loaded).toBe(40);
    const idle = countingClient();
    expect((await scoreCases(cases, idle, { cache: reopened })).fromCache).toBe(40);
    expect(idle.calls).toHaveLength(0);
  });

  it('skips a line cut short and keeps appending on a fresh line', async () => {
    const folder = tempFolder('stopwise-cache-');
    const cachePath = join(folder, 'scores.jsonl');
    writeFileSync(
      cachePath,
      `${JSON.stringify({ key: 'a', model: 'm', probabilities: { q: 0.5 } })}\nnot json\n{"key":"b","model":"m","probabilities":{"q":2}}\n{"key":"c","mod`,
    );
    const cache = await openScoreCacheFile(cachePath);
    expect(cache.loaded).toBe(1);
    expect(cache.skippedLines).toBe(3);
    expect(cache.get('a')).toEqual({ model: 'm', probabilities: { q: 0.5 } });
    await cache.set('d', { model: 'm', probabilities: { q: 0.25 } });
    await cache.flush();
    const lines = readFileSync(cachePath, 'utf8').split('\n');
    expect(lines.at(-2)).toBe(JSON.stringify({ key: 'd', model: 'm', probabilities: { q: 0.25 } }));
    expect((await openScoreCacheFile(cachePath)).get('d')).toEqual({ model: 'm', probabilities: { q: 0.25 } });
  });
});
