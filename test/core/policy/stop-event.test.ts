import { describe, expect, it } from 'vitest';
import { assertStopEvent, STOP_EVENT_USAGE_KEYS, type StopEvent } from '../../../src/core/policy/stop-event.js';

const bad = (event: unknown) => () => assertStopEvent(event as StopEvent);
const green = { passed: true, failed: [], ran: 2 };

describe('assertStopEvent', () => {
  it('accepts every field a rule reads, and step 0 before the first step', () => {
    const full: StopEvent = {
      step: 0,
      tests: green,
      output: 'done',
      fingerprint: 'f'.repeat(128),
      usage: { inputTokens: 1, outputTokens: 2, cost: 0.5, toolErrors: 0, decisionModelCalls: 1, decisionModelCost: 0.01 },
      elapsedMs: 10,
      signal: { kind: 'done', note: '' },
      provider: 'step_limit',
      verification: { ok: false, unmet: ['docs'] },
      checks: { lint: true },
      human: { timedOut: false, answer: 'yes' },
      tree: 't',
      steps: [{ tool: 'bash', input: { command: 'ls' }, output: 'a', exitCode: 0 }],
      decisionModel: 'none',
      reentered: true,
      taskType: 'bugfix',
    };
    expect(() => assertStopEvent(full)).not.toThrow();
    expect(() => assertStopEvent({ step: 3, fingerprint: null, signal: null })).not.toThrow();
    expect(STOP_EVENT_USAGE_KEYS).toEqual(['inputTokens', 'outputTokens', 'cost', 'toolErrors', 'decisionModelCalls', 'decisionModelCost']);
  });

  it('refuses a malformed field, naming it', () => {
    expect(bad(null)).toThrow('a stop event must be an object, got null');
    expect(bad({ step: -1 })).toThrow('event.step must be a non-negative integer');
    expect(bad({ step: 1, judge: 'none' })).toThrow(/^unknown stop event field "judge"; expected one of step, tests, /);
    expect(bad({ step: 1, usage: { judgeCalls: 1 } })).toThrow('unknown usage counter "judgeCalls" in event.usage');
    expect(bad({ step: 1, usage: { cost: -1 } })).toThrow('event.usage.cost must be a non-negative finite number, got -1');
    expect(bad({ step: 1, elapsedMs: Number.POSITIVE_INFINITY })).toThrow('event.elapsedMs must be a non-negative finite number');
    expect(bad({ step: 1, fingerprint: 'f'.repeat(129) })).toThrow('event.fingerprint must be a progress fingerprint (a string of at most 128 characters');
    expect(bad({ step: 1, fingerprint: 5 })).toThrow(/event\.fingerprint must be a progress fingerprint/);
    expect(bad({ step: 1, provider: 'length' })).toThrow('event.provider must be one of token_limit, step_limit, failed');
    expect(bad({ step: 1, output: 3 })).toThrow('event.output must be a string');
    expect(bad({ step: 1, signal: { kind: 'finished' } })).toThrow('event.signal.kind must be one of done, give_up, need_help');
    expect(bad({ step: 1, verification: { ok: 'yes' } })).toThrow('event.verification must be { ok: boolean, unmet?: string[] }');
    expect(bad({ step: 1, verification: { ok: false, unmet: [1] } })).toThrow('event.verification.unmet must be an array of strings');
    expect(bad({ step: 1, checks: { lint: 'ok' } })).toThrow('event.checks["lint"] must be a boolean');
    expect(bad({ step: 1, human: { answer: 'x' } })).toThrow('event.human must be { timedOut: boolean, answer?: string }');
    expect(bad({ step: 1, tree: 4 })).toThrow('event.tree must be a string');
    expect(bad({ step: 1, steps: {} })).toThrow('event.steps must be an array of tool steps');
    expect(bad({ step: 1, probabilities: { a: 1.2 } })).toThrow(/criterion "a" has probability 1.2/);
    expect(bad({ step: 1, tests: { passed: true, failed: [], ran: -1 } })).toThrow(TypeError);
  });

  it('refuses a decision model state that contradicts the event, and malformed host fields', () => {
    expect(bad({ step: 1, tests: green, decisionModel: 'down' })).toThrow('event.decisionModel must be "unavailable" or "none" (leave it out when the event carries probabilities), got "down"');
    expect(bad({ step: 1, tests: green, decisionModel: 'none', probabilities: { a: 1 } })).toThrow('event.decisionModel is "none" but the event carries probabilities; give one or the other');
    expect(bad({ step: 1, tests: green, reentered: 'yes' })).toThrow('event.reentered must be a boolean, got "yes"');
    expect(bad({ step: 1, tests: green, taskType: '' })).toThrow('event.taskType must be a non-empty string, got ""');
  });
});
