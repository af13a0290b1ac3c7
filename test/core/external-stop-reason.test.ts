import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BudgetLimitKind } from '../../src/core/budget.js';
import {
  fromExternalStopReason,
  STOP_VOCABULARIES,
  toExternalStopReason,
  type ExternalStopVocabularies,
  type StopVocabulary,
} from '../../src/core/external-stop-reason.js';
import { decide, initialStopState } from '../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../src/core/policy/stop-decision.js';
import type { LimitName } from '../../src/core/policy/stop-policy-document.js';
import type { StopOutcome } from '../../src/core/stop-outcome.js';

const BASE = { steps: 3, usage: { steps: 3, wallClockMs: 10, inputTokens: 1, outputTokens: 1, cost: 0, toolErrors: 0 }, text: '', trace: [] };

const limitOutcome = (limit: BudgetLimitKind): StopOutcome => ({ ...BASE, exit: 'limit', limit, source: 'budget', used: 3, max: 3 });

/** The outcomes of runAgentLoop, one per row of the table. */
const OUTCOMES: Readonly<Record<string, StopOutcome>> = {
  success: { ...BASE, exit: 'success', note: 'done' },
  'limit steps': limitOutcome('steps'),
  'limit tokens': limitOutcome('tokens'),
  'limit wall_clock': limitOutcome('wall_clock'),
  'limit cost': limitOutcome('cost'),
  'limit tool_errors': limitOutcome('tool_errors'),
  gave_up: { ...BASE, exit: 'gave_up', note: 'no access' },
  need_help: { ...BASE, exit: 'need_help', question: 'which?', waitedMs: 0 },
  failed: { ...BASE, exit: 'failed', error: { name: 'TypeError', message: 'x', during: 'turn' } },
  aborted: { ...BASE, exit: 'failed', error: { name: 'AbortError', message: 'the run was aborted', during: 'turn' } },
};

/** The expected value of every row in every vocabulary: the table of docs/telemetry.md. */
const TABLE: Readonly<Record<string, { readonly [V in StopVocabulary]: ExternalStopVocabularies[V] | null }>> = {
  success: { 'claude-agent-sdk': 'success', a2a: 'completed', acp: 'end_turn', inspect: null, openhands: 'finished', 'gen-ai': 'completed' },
  'limit steps': { 'claude-agent-sdk': 'error_max_turns', a2a: 'failed', acp: 'max_turn_requests', inspect: 'message', openhands: 'error', 'gen-ai': 'max_iterations' },
  'limit tokens': { 'claude-agent-sdk': 'error_during_execution', a2a: 'failed', acp: 'max_tokens', inspect: 'token', openhands: 'error', 'gen-ai': 'max_tokens' },
  'limit wall_clock': { 'claude-agent-sdk': 'error_during_execution', a2a: 'failed', acp: 'max_turn_requests', inspect: 'time', openhands: 'error', 'gen-ai': 'time_budget' },
  'limit cost': { 'claude-agent-sdk': 'error_max_budget_usd', a2a: 'failed', acp: 'max_turn_requests', inspect: 'cost', openhands: 'error', 'gen-ai': 'budget_exhausted' },
  'limit tool_errors': { 'claude-agent-sdk': 'error_during_execution', a2a: 'failed', acp: 'max_turn_requests', inspect: 'custom', openhands: 'error', 'gen-ai': 'tool_failure' },
  gave_up: { 'claude-agent-sdk': 'success', a2a: 'rejected', acp: 'refusal', inspect: null, openhands: 'finished', 'gen-ai': 'gave_up' },
  need_help: { 'claude-agent-sdk': 'success', a2a: 'input-required', acp: 'end_turn', inspect: null, openhands: 'waiting_for_confirmation', 'gen-ai': 'handoff' },
  stalled: { 'claude-agent-sdk': 'success', a2a: 'input-required', acp: 'end_turn', inspect: null, openhands: 'stuck', 'gen-ai': 'handoff' },
  failed: { 'claude-agent-sdk': 'error_during_execution', a2a: 'failed', acp: null, inspect: null, openhands: 'error', 'gen-ai': 'error' },
  aborted: { 'claude-agent-sdk': 'error_during_execution', a2a: 'canceled', acp: 'cancelled', inspect: 'operator', openhands: 'error', 'gen-ai': 'cancelled' },
  'continue or retry': { 'claude-agent-sdk': null, a2a: 'working', acp: null, inspect: null, openhands: 'running', 'gen-ai': null },
};

/** A real decision of `decide` for a one-rule policy that stops on a limit. */
function limitDecision(of: LimitName): StopDecision {
  const policy = parseStopPolicy({ version: 2, rules: [{ id: 'cap', when: { limit: { of, max: 1 } }, then: { kind: 'stop', exit: 'limit', reason: `max_${of}` } }] });
  const usage = { inputTokens: 2, outputTokens: 2, cost: 2, toolErrors: 2, decisionModelCalls: 2, decisionModelCost: 2 };
  return decide(policy, initialStopState(policy), { step: 1, usage, elapsedMs: 2 }).decision;
}

/** A real decision of the seed preset: the stall rule, after the same evidence three times. */
function stalledDecision(): StopDecision {
  let state = initialStopState(SEED_STOP_POLICY);
  let decision: StopDecision | undefined;
  for (let step = 1; step <= 3; step++) {
    const result = decide(SEED_STOP_POLICY, state, { step, tests: { passed: false, failed: ['a'], ran: 2 }, output: 'same', probabilities: { a: 0.1 } });
    state = result.state;
    decision = result.decision;
  }
  if (decision === undefined) throw new Error('no decision');
  return decision;
}

const stopDecision = (exit: 'success' | 'gave_up' | 'need_help' | 'failed'): StopDecision => ({ kind: 'stop', exit, reason: exit, rule: 'r', values: { step: 1 }, trace: [] });

/** Decisions of the engine, one or more per row of the table. */
const DECISIONS: readonly (readonly [string, StopDecision])[] = [
  ['success', stopDecision('success')],
  ['limit steps', limitDecision('steps')],
  ['limit tokens', limitDecision('inputTokens')],
  ['limit tokens', limitDecision('outputTokens')],
  ['limit tokens', limitDecision('totalTokens')],
  ['limit wall_clock', limitDecision('wallClockMs')],
  ['limit cost', limitDecision('cost')],
  ['limit cost', limitDecision('decisionModelCost')],
  ['limit tool_errors', limitDecision('toolErrors')],
  ['gave_up', stopDecision('gave_up')],
  ['need_help', stopDecision('need_help')],
  ['stalled', stalledDecision()],
  ['failed', stopDecision('failed')],
  ['continue or retry', { kind: 'continue', reason: 'no_rule_fired', rule: null, values: { step: 1 }, trace: [] }],
  ['continue or retry', { kind: 'retry', reason: 'tests_failed', rule: 'r', values: { step: 1 }, trace: [], feedback: { message: 'again' } }],
];

/** The cells of the table marked * in the docs: the vocabulary is coarser, and reading the value back gives another exit or limit. */
const COARSER = new Set([
  'limit steps/a2a', 'limit tokens/a2a', 'limit wall_clock/a2a', 'limit cost/a2a', 'limit tool_errors/a2a',
  'limit steps/openhands', 'limit tokens/openhands', 'limit wall_clock/openhands', 'limit cost/openhands', 'limit tool_errors/openhands',
  'limit tokens/claude-agent-sdk', 'limit wall_clock/claude-agent-sdk', 'limit tool_errors/claude-agent-sdk',
  'limit wall_clock/acp', 'limit cost/acp', 'limit tool_errors/acp', 'limit tool_errors/inspect',
  'gave_up/claude-agent-sdk', 'need_help/claude-agent-sdk', 'stalled/claude-agent-sdk', 'gave_up/openhands', 'need_help/acp', 'stalled/acp',
]);

describe('toExternalStopReason', () => {
  it('maps every outcome of runAgentLoop as the table says', () => {
    for (const [row, outcome] of Object.entries(OUTCOMES)) {
      for (const vocabulary of STOP_VOCABULARIES) expect([row, vocabulary, toExternalStopReason(outcome, vocabulary)]).toEqual([row, vocabulary, TABLE[row]?.[vocabulary]]);
    }
  });

  it('maps every decision of the engine as the table says, reading the limit from the values it compared', () => {
    expect(stalledDecision()).toMatchObject({ kind: 'stop', exit: 'need_help', rule: 'stalled' });
    for (const [row, decision] of DECISIONS) {
      for (const vocabulary of STOP_VOCABULARIES) expect([row, vocabulary, toExternalStopReason(decision, vocabulary)]).toEqual([row, vocabulary, TABLE[row]?.[vocabulary]]);
    }
  });


  it('gives back the same exit and limit for every value it writes, except in the cells where the vocabulary is coarser', () => {
    for (const [row, stop] of [...Object.entries(OUTCOMES), ...DECISIONS]) {
      const meaning = 'kind' in stop && stop.kind !== 'stop' ? { kind: 'continue' } : meaningOfRow(row);
      for (const vocabulary of STOP_VOCABULARIES) {
        const value = toExternalStopReason(stop, vocabulary);
        if (value === null) continue;
        const read = fromExternalStopReason(value, vocabulary);
        const same = read !== undefined && JSON.stringify(pick(read)) === JSON.stringify(pick(meaning));
        expect([row, vocabulary, value, same]).toEqual([row, vocabulary, value, !COARSER.has(`${row}/${vocabulary}`)]);
      }
    }
  });

  it('refuses an unknown vocabulary and a value that is neither a decision nor an outcome', () => {
    expect(() => toExternalStopReason(OUTCOMES.success as StopOutcome, 'langfuse' as StopVocabulary)).toThrow(/unknown stop vocabulary "langfuse"/);
    expect(() => toExternalStopReason(null as unknown as StopOutcome, 'a2a')).toThrow(TypeError);
  });
});

describe('fromExternalStopReason', () => {
  /** What every value of every vocabulary means, and whether writing that meaning gives the value back. */
  const READ: { readonly [V in StopVocabulary]: Readonly<Record<ExternalStopVocabularies[V], readonly [object, boolean]>> } = {
    'claude-agent-sdk': {
      success: [{ kind: 'stop', exit: 'success' }, true],
      error_max_turns: [{ kind: 'stop', exit: 'limit', limit: 'steps' }, true],
      error_max_budget_usd: [{ kind: 'stop', exit: 'limit', limit: 'cost' }, true],
      error_during_execution: [{ kind: 'stop', exit: 'failed' }, true],
      error_max_structured_output_retries: [{ kind: 'stop', exit: 'failed' }, false],
    },
    a2a: {
      submitted: [{ kind: 'continue' }, false],
      working: [{ kind: 'continue' }, true],
      'input-required': [{ kind: 'stop', exit: 'need_help' }, true],
      'auth-required': [{ kind: 'stop', exit: 'need_help' }, false],
      completed: [{ kind: 'stop', exit: 'success' }, true],
      canceled: [{ kind: 'stop', exit: 'failed', aborted: true }, true],
      failed: [{ kind: 'stop', exit: 'failed' }, true],
      rejected: [{ kind: 'stop', exit: 'gave_up' }, true],
    },
    acp: {
      end_turn: [{ kind: 'stop', exit: 'success' }, true],
      max_tokens: [{ kind: 'stop', exit: 'limit', limit: 'tokens' }, true],
      max_turn_requests: [{ kind: 'stop', exit: 'limit', limit: 'steps' }, true],
      refusal: [{ kind: 'stop', exit: 'gave_up' }, true],
      cancelled: [{ kind: 'stop', exit: 'failed', aborted: true }, true],
    },
    inspect: {
      message: [{ kind: 'stop', exit: 'limit', limit: 'steps' }, true],
      token: [{ kind: 'stop', exit: 'limit', limit: 'tokens' }, true],
      context: [{ kind: 'stop', exit: 'limit', limit: 'tokens' }, false],
      time: [{ kind: 'stop', exit: 'limit', limit: 'wall_clock' }, true],
      working: [{ kind: 'stop', exit: 'limit', limit: 'wall_clock' }, false],
      cost: [{ kind: 'stop', exit: 'limit', limit: 'cost' }, true],
      operator: [{ kind: 'stop', exit: 'failed', aborted: true }, true],
      custom: [{ kind: 'stop', exit: 'limit' }, true],
    },
    openhands: {
      idle: [{ kind: 'continue' }, false],
      running: [{ kind: 'continue' }, true],
      paused: [{ kind: 'continue' }, false],
      waiting_for_confirmation: [{ kind: 'stop', exit: 'need_help' }, true],
      finished: [{ kind: 'stop', exit: 'success' }, true],
      error: [{ kind: 'stop', exit: 'failed' }, true],
      stuck: [{ kind: 'stop', exit: 'need_help', stalled: true }, true],
    },
    'gen-ai': {
      completed: [{ kind: 'stop', exit: 'success' }, true],
      max_iterations: [{ kind: 'stop', exit: 'limit', limit: 'steps' }, true],
      max_tokens: [{ kind: 'stop', exit: 'limit', limit: 'tokens' }, true],
      time_budget: [{ kind: 'stop', exit: 'limit', limit: 'wall_clock' }, true],
      budget_exhausted: [{ kind: 'stop', exit: 'limit', limit: 'cost' }, true],
      cancelled: [{ kind: 'stop', exit: 'failed', aborted: true }, true],
      error: [{ kind: 'stop', exit: 'failed' }, true],
      guardrail: [{ kind: 'stop', exit: 'failed' }, false],
      handoff: [{ kind: 'stop', exit: 'need_help' }, true],
      tool_failure: [{ kind: 'stop', exit: 'limit', limit: 'tool_errors' }, true],
      gave_up: [{ kind: 'stop', exit: 'gave_up' }, true],
    },
  };

  it('reads every value of every vocabulary, and writing the meaning back gives the value where the mapping is one to one', () => {
    for (const vocabulary of STOP_VOCABULARIES) {
      for (const [value, [meaning, roundTrips]] of Object.entries(READ[vocabulary] as Record<string, readonly [object, boolean]>)) {
        const read = fromExternalStopReason(value, vocabulary);
        expect([vocabulary, value, read]).toEqual([vocabulary, value, meaning]);
        const written = toExternalStopReason(asStop(read), vocabulary);
        expect([vocabulary, value, written === value]).toEqual([vocabulary, value, roundTrips]);
      }
    }
  });

  it('answers undefined for a value the vocabulary does not define, and for an inherited property name', () => {
    expect(fromExternalStopReason('max_steps', 'a2a')).toBeUndefined();
    expect(fromExternalStopReason('toString', 'acp')).toBeUndefined();
    expect(() => fromExternalStopReason('end_turn', 'mcp' as StopVocabulary)).toThrow(/unknown stop vocabulary/);
  });
});

/** A meaning as the outcome or decision that has it, to write it again. */
function asStop(meaning: ReturnType<typeof fromExternalStopReason>): StopOutcome | StopDecision {
  if (meaning === undefined) throw new Error('no meaning');
  if (meaning.kind === 'continue') return { kind: 'continue', reason: 'r', rule: null, values: { step: 1 }, trace: [] };
  if (meaning.stalled === true) return stalledDecision();
  if (meaning.exit === 'limit') return meaning.limit === undefined ? limitDecision('decisionModelCalls') : limitOutcome(meaning.limit);
  if (meaning.exit === 'failed') return meaning.aborted === true ? (OUTCOMES.aborted as StopOutcome) : (OUTCOMES.failed as StopOutcome);
  return OUTCOMES[meaning.exit] as StopOutcome;
}

describe('the crosswalk table of docs/telemetry.md', () => {
  it('says what toExternalStopReason does, row by row', () => {
    const page = readFileSync(join(import.meta.dirname, '../../docs/telemetry.md'), 'utf8');
    const section = page.slice(page.indexOf('| stopwise | Claude Agent SDK'));
    const lines = section.split('\n').filter((line) => line.startsWith('| ')).slice(2);
    const rowName = (label: string) =>
      ({ 'need_help, stalled': 'stalled', 'failed, aborted': 'aborted', 'limit: wall clock': 'limit wall_clock', 'limit: tool errors': 'limit tool_errors' })[label] ??
      label.replace('limit: ', 'limit ');
    const cell = (text: string) => {
      const value = text.replace(/\(.*\)/, '').replaceAll('`', '').replaceAll('*', '').trim();
      return value === 'null' ? null : value;
    };
    const documented = Object.fromEntries(
      lines.map((line) => {
        const [label = '', ...cells] = line.split('|').slice(1, -1).map((part) => part.trim());
        return [rowName(label), Object.fromEntries(STOP_VOCABULARIES.map((vocabulary, index) => [vocabulary, cell(cells[index] ?? '')]))];
      }),
    );
    expect(documented).toEqual(TABLE);
    const starred = lines.flatMap((line) => {
      const [label = '', ...cells] = line.split('|').slice(1, -1).map((part) => part.trim());
      return STOP_VOCABULARIES.filter((_, index) => (cells[index] ?? '').endsWith('*')).map((vocabulary) => `${rowName(label)}/${vocabulary}`);
    });
    expect(new Set(starred)).toEqual(COARSER);
  });
});

/** What a row of the table means: its exit, and its limit kind for a limit. */
function meaningOfRow(row: string): { kind: string; exit?: string; limit?: string } {
  if (row.startsWith('limit ')) return { kind: 'stop', exit: 'limit', limit: row.slice('limit '.length) };
  if (row === 'stalled') return { kind: 'stop', exit: 'need_help' };
  if (row === 'aborted') return { kind: 'stop', exit: 'failed' };
  return { kind: 'stop', exit: row };
}

/** The kind, exit and limit of a meaning, in a fixed order. */
function pick(meaning: { kind: string; exit?: string; limit?: string }): [string, string | undefined, string | undefined] {
  return [meaning.kind, meaning.exit, meaning.limit];
}
