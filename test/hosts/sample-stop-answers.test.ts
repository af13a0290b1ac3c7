import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import type { StopHookCheck } from '../../src/hosts/decide-stop-hook.js';
import { hookCompletionInput } from '../../src/hosts/hook-decision-model.js';
import type { HookTestRunner } from '../../src/hosts/hook-test-runner.js';
import { runStopHook } from '../../src/hosts/run-stop-hook.js';
import { SAMPLE_EVIDENCE, SAMPLE_LAST_MESSAGE, sampleStopAnswer, sampleStopInput, type SampleEvidenceName } from '../../src/hosts/sample-stop-answers.js';
import { parseStopwiseConfig, type StopwiseConfig } from '../../src/hosts/stopwise-config.js';
import { checkCompletion } from '../../src/decision-model/check-completion.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';

const HOSTS = ['claude-code', 'codex', 'cursor'] as const;
const NAMES: readonly SampleEvidenceName[] = ['red', 'green', 'no-tests'];
const now = new Date('2026-11-01T10:00:00Z');

function config(extra: Record<string, unknown> = {}): StopwiseConfig {
  const parsed = parseStopwiseConfig({ tests: { command: 'true' }, task: 'Reject expired tokens', acceptance: ['expired tokens get a 401'], ...extra });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.config;
}

function fixedRunner(evidence: TestEvidence): HookTestRunner {
  return { run: async () => ({ outcome: 'ran', evidence }) };
}

/** What the real hook prints for the same stop, in a fresh project folder. */
async function hookStdout(host: (typeof HOSTS)[number], raw: Record<string, unknown>, tests: TestEvidence, answers?: Record<string, number> | DecisionModelError): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-sample-'));
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'true' }, ...raw }));
  const input = sampleStopInput(host, dir);
  const run = await runStopHook(host, JSON.stringify(input), {
    cwd: dir,
    env: {},
    testRunner: fixedRunner(tests),
    ...(answers === undefined ? {} : { client: createScriptedClient([answers, answers]) }),
  });
  return run.stdout;
}

describe('sampleStopAnswer', () => {
  it('answers red with a block naming the failing test, green with an allow and no tests with a block, without a model', async () => {
    const red = await sampleStopAnswer('claude-code', config(), SAMPLE_EVIDENCE.red, undefined, { cwd: '/project', now });
    expect(red).toMatchObject({ kind: 'block', output: { decision: 'block', reason: expect.stringContaining('sample > rejects expired tokens') } });
    expect(await sampleStopAnswer('claude-code', config(), SAMPLE_EVIDENCE.green, undefined, { cwd: '/project', now })).toEqual({ kind: 'allow', decision: undefined, output: undefined });
    const none = await sampleStopAnswer('cursor', config(), SAMPLE_EVIDENCE['no-tests'], undefined, { cwd: '/project', now });
    expect(none).toMatchObject({ kind: 'block', output: { followup_message: expect.stringMatching(/no tests ran/i) } });
  });

  it('hands off when the decision model could not be asked, and blocks with the task when it says not done', async () => {
    const down = await sampleStopAnswer('codex', config(), SAMPLE_EVIDENCE.green, new DecisionModelError('auth', 'HTTP 401'), { cwd: '/project', now });
    expect(down).toMatchObject({ kind: 'handoff', output: { systemMessage: expect.stringContaining('HTTP 401') } });
    const below: StopHookCheck = { modelSaysDone: false, probabilities: { acceptanceCovered: 0.2, noOpenQuestions: 0.9 } };
    const blocked = await sampleStopAnswer('claude-code', config(), SAMPLE_EVIDENCE.green, below, { cwd: '/project', now });
    expect(blocked).toMatchObject({ kind: 'block', output: { reason: expect.stringContaining('Task: Reject expired tokens') } });
  });

  it('prints exactly what the stop hook prints for the same stop, for every host and every sample, with and without a model', async () => {
    const raw = { task: 'Reject expired tokens', acceptance: ['expired tokens get a 401'] };
    for (const host of HOSTS) {
      for (const name of NAMES) {
        const tests = SAMPLE_EVIDENCE[name];
        const plain = await sampleStopAnswer(host, config(), tests, undefined, { cwd: '/project', now });
        expect(plain.output === undefined ? '' : `${JSON.stringify(plain.output)}\n`, `${host} ${name}`).toBe(await hookStdout(host, raw, tests));
        for (const answers of [{ acceptanceCovered: 0.95, noOpenQuestions: 0.95 }, { acceptanceCovered: 0.2, noOpenQuestions: 0.95 }]) {
          const check = await checkCompletion(createScriptedClient([answers]), hookCompletionInput(config(), SAMPLE_LAST_MESSAGE, tests));
          const judged = await sampleStopAnswer(host, config(), tests, check, { cwd: '/project', now });
          expect(judged.output === undefined ? '' : `${JSON.stringify(judged.output)}\n`, `${host} ${name} ${JSON.stringify(answers)}`).toBe(
            await hookStdout(host, raw, tests, answers),
          );
        }
      }
    }
  });
});
