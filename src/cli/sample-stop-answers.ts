import type { TestEvidence } from '../core/test-evidence.js';
import { answerStop, encodedStop } from '../hosts/answer-stop.js';
import { HOSTS, type HookHost } from '../hosts/host.js';
import { newSessionState } from '../hosts/session-state.js';
import type { StopwiseConfig } from '../hosts/stopwise-config.js';

/** The evidence of the three sample runs: one failing test, all passing, none ran. */
export const SAMPLE_EVIDENCE: Readonly<Record<'red' | 'green' | 'no-tests', TestEvidence>> = Object.freeze({
  red: { passed: false, failed: ['sample > rejects expired tokens'], ran: 3, failures: [{ name: 'sample > rejects expired tokens', message: 'expected 401, got 200' }] },
  green: { passed: true, failed: [], ran: 3 },
  'no-tests': { passed: false, failed: [], ran: 0 },
});

/** The agent's last message in every sample stop. */
export const SAMPLE_LAST_MESSAGE = 'I made the change and the tests pass.';

/** What the decision model said to `doctor`'s one question: the probabilities, an `Error` when it could not answer, `undefined` when there is none. */
export type ModelAnswer = { readonly probabilities: Readonly<Record<string, number>> } | Error | undefined;

/**
 * What `stopwise hook <host>` answers to the first stop of a new session
 * with this evidence: the hook's own code (`answerStop`, then the host's
 * encoder), with the tests replaced by the evidence and the decision model by
 * the answer it gave `doctor`.
 */
export async function sampleStopAnswer(
  name: HookHost,
  config: StopwiseConfig,
  tests: TestEvidence,
  model: ModelAnswer,
  where: { readonly projectDir: string; readonly now: Date },
): Promise<{ readonly kind: 'block' | 'handoff' | 'allow'; readonly stdout: string; readonly message?: string }> {
  const host = HOSTS[name];
  const cap = host.blockCap({}, undefined);
  const decided = await answerStop(
    {
      host,
      event: { kind: 'stop', eventName: host.events.stop, sessionId: 'sample-session', lastMessage: SAMPLE_LAST_MESSAGE, reentered: false },
      config: model === undefined ? { ...config, decisionModel: { ...config.decisionModel, client: 'none' } } : config,
      configPath: 'stopwise.config.json',
      projectDir: where.projectDir,
      env: {},
      cap,
      now: () => where.now,
      stepMs: () => config.tests.timeoutMs,
      progress: { phase: '' },
      testRunner: { run: async () => ({ outcome: 'ran', evidence: tests }) },
      ...(model === undefined
        ? {}
        : {
            client: {
              evaluate: async ({ questions }) => {
                if (model instanceof Error) throw model;
                return { model: 'sample', answers: Object.fromEntries(Object.keys(questions).map((key) => [key, { probability: model.probabilities[key] ?? 0 }])) };
              },
            },
          }),
    },
    newSessionState(where.now),
  );
  const encoded = encodedStop(decided.answer, host, cap);
  const output = host.encodeStop(encoded);
  const stdout = output.stdout === undefined ? '' : JSON.stringify(output.stdout);
  return { kind: encoded.kind, stdout, ...(encoded.kind === 'handoff' ? { message: encoded.message } : {}) };
}
