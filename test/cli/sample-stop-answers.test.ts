import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';
import { SAMPLE_EVIDENCE, SAMPLE_LAST_MESSAGE, sampleStopAnswer } from '../../src/cli/sample-stop-answers.js';
import { HOOK_HOSTS, HOSTS } from '../../src/hosts/host.js';
import { runHook } from '../../src/hosts/run-hook.js';
import { parseStopwiseConfig, type StopwiseConfig } from '../../src/hosts/stopwise-config.js';

const NOW = new Date('2026-11-01T10:00:00Z');
const RAW = { tests: { command: 'unused' }, task: 'Reject expired tokens', acceptance: ['expired tokens get a 401'], decisionModel: { client: 'system-one' } };
const config: StopwiseConfig = (() => {
  const parsed = parseStopwiseConfig(RAW);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.config;
})();
const where = { projectDir: '/project', now: NOW };
const below = { probabilities: { acceptanceCovered: 0.2, noOpenQuestions: 0.9 } };
const above = { probabilities: { acceptanceCovered: 0.95, noOpenQuestions: 0.95 } };
const down = new DecisionModelError('auth', 'HTTP 401 from System One');

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('sampleStopAnswer', () => {
  it('blocks red tests naming the failing one, lets green ones stop, and blocks when no test ran, without a model', async () => {
    expect(await sampleStopAnswer('claude-code', config, SAMPLE_EVIDENCE.red, undefined, where)).toEqual({
      kind: 'block',
      stdout: JSON.stringify({ decision: 'block', reason: '1 test failed: sample > rejects expired tokens. Fix it and run the tests again before you finish.\n- sample > rejects expired tokens: expected 401, got 200' }),
    });
    expect(await sampleStopAnswer('claude-code', config, SAMPLE_EVIDENCE.green, undefined, where)).toEqual({ kind: 'allow', stdout: '' });
    expect(await sampleStopAnswer('cursor', config, SAMPLE_EVIDENCE['no-tests'], undefined, where)).toEqual({
      kind: 'block',
      stdout: JSON.stringify({ followup_message: 'No tests ran: there is no test result for this step. Run the test suite and make it pass before you finish.' }),
    });
  });

  it("blocks green tests with the task when the model's answer is below the threshold, and hands off, saying why, when it could not answer", async () => {
    const blocked = await sampleStopAnswer('claude-code', config, SAMPLE_EVIDENCE.green, below, where);
    expect(blocked.kind).toBe('block');
    expect(JSON.parse(blocked.stdout).reason).toMatch(/^The decision model is not convinced the task is done: acceptanceCovered = 0\.2 .*\n\nTask: Reject expired tokens\nAcceptance criteria:\n- expired tokens get a 401$/s);
    const handedOff = await sampleStopAnswer('codex', config, SAMPLE_EVIDENCE.green, down, where);
    expect(handedOff).toEqual({ kind: 'handoff', stdout: JSON.stringify({ systemMessage: handedOff.message }), message: expect.stringContaining('HTTP 401 from System One') });
  });

  it('prints what the hook prints for the first stop of a session, for every host, every sample and every answer of the model', async () => {
    for (const name of HOOK_HOSTS) {
      for (const [sample, tests] of Object.entries(SAMPLE_EVIDENCE)) {
        for (const model of [undefined, below, above, down]) {
          const dir = mkdtempSync(join(tmpdir(), 'stopwise-sample-'));
          folders.push(dir);
          writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify(model === undefined ? { ...RAW, decisionModel: { client: 'none' } } : RAW));
          const client = createScriptedClient(() => (model instanceof DecisionModelError ? model : (model?.probabilities ?? {})));
          const payload = { ...(name === 'copilot' ? { sessionId: 's', stopReason: 'end_turn' } : { session_id: 's', conversation_id: 's', hook_event_name: HOSTS[name].events.stop }), cwd: dir, last_assistant_message: SAMPLE_LAST_MESSAGE, prompt_response: SAMPLE_LAST_MESSAGE };
          const run = await runHook(name, JSON.stringify(payload), { env: {}, testRunner: { run: async () => ({ outcome: 'ran', evidence: tests }) }, ...(model === undefined ? {} : { client }) });
          const answer = await sampleStopAnswer(name, config, tests, model, where);
          const label = `${name} ${sample} ${model instanceof Error ? 'down' : JSON.stringify(model)}`;
          expect(answer.stdout, label).toBe(run.stdout.trimEnd());
          if (answer.kind === 'handoff') expect(run.stderr, label).toBe(`${answer.message}\n`);
        }
      }
    }
  });
});
