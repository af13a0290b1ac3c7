import type { TestEvidence } from '../core/test-evidence.js';
import { decideStopAnswer } from './decide-stop-answer.js';
import { isStopHookBlock, type StopHookCheck, type StopHookDecision } from './decide-stop-hook.js';
import { encodeHostOutput, type HostStopOutput } from './encode-host-output.js';
import type { HookHost } from './hook-host.js';
import { beginStopAttempt, initialHookSessionState, isReentry } from './hook-session-state.js';
import { effectiveMaxConsecutiveBlocks } from './host-block-cap.js';
import { hostSignalsReentry, parseStopHookInput, type StopHookInput } from './stop-hook-input.js';
import type { StopwiseConfig } from './stopwise-config.js';

/** The evidence of the three sample runs: one failing test, all passing, none ran. */
export type SampleEvidenceName = 'red' | 'green' | 'no-tests';

/** Synthetic evidence for each sample run. */
export const SAMPLE_EVIDENCE: Readonly<Record<SampleEvidenceName, TestEvidence>> = Object.freeze({
  red: {
    passed: false,
    failed: ['sample > rejects expired tokens'],
    ran: 3,
    failures: [{ name: 'sample > rejects expired tokens', message: 'expected 401, got 200' }],
  },
  green: { passed: true, failed: [], ran: 3 },
  'no-tests': { passed: false, failed: [], ran: 0 },
});

/** The agent's last message in every sample stop. */
export const SAMPLE_LAST_MESSAGE = 'I made the change and the tests pass.';

/** A first Stop payload of a new session, as `host` sends it. */
export function sampleStopInput(host: HookHost, cwd: string): StopHookInput {
  return parseStopHookInput(sampleStopPayload(host, cwd));
}

function sampleStopPayload(host: HookHost, cwd: string): Record<string, unknown> {
  const claudeCode = { hook_event_name: 'Stop', session_id: 'sample-session', cwd, stop_hook_active: false, last_assistant_message: SAMPLE_LAST_MESSAGE };
  switch (host) {
    case 'claude-code':
      return claudeCode;
    case 'codex':
      return { ...claudeCode, turn_id: 'sample-turn', model: 'sample-model', permission_mode: 'default', transcript_path: null };
    case 'cursor':
      return { hook_event_name: 'stop', conversation_id: 'sample-conversation', generation_id: 'sample-generation', status: 'completed', loop_count: 0, workspace_roots: [cwd] };
    case 'copilot':
      // agentStop in the camelCase form carries no event name and no final message
      return { sessionId: 'sample-session', timestamp: 0, cwd, transcriptPath: '', stopReason: 'end_turn' };
    case 'gemini':
      return { hook_event_name: 'AfterAgent', session_id: 'sample-session', cwd, prompt: 'Fix the task.', prompt_response: SAMPLE_LAST_MESSAGE, stop_hook_active: false };
  }
}

/** What the hook answers to a sample stop: the decision, its kind, and the host's output. */
export interface SampleStopAnswer {
  readonly kind: 'block' | 'handoff' | 'allow';
  readonly decision: StopHookDecision;
  /** The JSON the hook prints on stdout, `undefined` when it prints nothing. */
  readonly output: HostStopOutput;
}

/**
 * The answer the stop hook gives to the first stop of a new session with
 * this evidence: the same decision (`decideStopAnswer`) and host encoder as
 * the hook, with `check` as the decision model's answer when it is asked
 * (`undefined`: no model; an `Error`: the model could not be asked).
 */
export async function sampleStopAnswer(
  host: HookHost,
  config: StopwiseConfig,
  tests: TestEvidence,
  check: StopHookCheck,
  options: { readonly cwd: string; readonly now: Date },
): Promise<SampleStopAnswer> {
  const input = sampleStopInput(host, options.cwd);
  const state = initialHookSessionState(options.now);
  const answer = await decideStopAnswer({
    input,
    config,
    tests,
    loop: beginStopAttempt(state, tests, input.last_assistant_message ?? '', config.policy.stallRounds).loop,
    reEntered: isReentry(state, effectiveMaxConsecutiveBlocks(host, config.maxConsecutiveBlocks, {}), hostSignalsReentry(input)),
    ...(check === undefined ? {} : { askModel: async () => check }),
  });
  const output = encodeHostOutput(host, answer.decision, answer.additionalContext === undefined ? {} : { additionalContext: answer.additionalContext });
  const kind = answer.decision === undefined ? 'allow' : isStopHookBlock(answer.decision) ? 'block' : 'handoff';
  return { kind, decision: answer.decision, output };
}
