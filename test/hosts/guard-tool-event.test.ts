import { describe, expect, it } from 'vitest';
import { callLabel, guardToolEvent } from '../../src/hosts/guard-tool-event.js';
import type { ToolEvent } from '../../src/hosts/tool-event.js';
import { DEFAULT_TOOL_GUARD_OPTIONS, parseToolGuardOptions, type ToolGuardOptions } from '../../src/hosts/tool-guard-options.js';
import { initialToolGuardState, MAX_RECORDED_CALLS, parseToolGuardState, type ToolGuardState } from '../../src/hosts/tool-guard-state.js';

const NOW = new Date('2026-12-02T07:00:00.000Z');
const pre = (command: string): ToolEvent => ({ phase: 'pre', tool: 'Bash', input: { command } });
const post = (command: string, output: string, exitCode = 1): ToolEvent => ({ phase: 'post', tool: 'Bash', input: { command, description: `run ${command}` }, output, exitCode });

function options(config: unknown): ToolGuardOptions {
  const parsed = parseToolGuardOptions(config);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.options;
}

/** Runs an agent that calls `command` `times` times, each call running when the guard lets it; returns the answers' kinds. */
function session(guard: ToolGuardOptions, times: number, result: (attempt: number) => ToolEvent, command = 'npm test'): { kinds: string[]; state: ToolGuardState } {
  let state = initialToolGuardState(guard.stall, NOW);
  const kinds: string[] = [];
  for (let attempt = 1; attempt <= times; attempt++) {
    const checked = guardToolEvent(state, pre(command), guard, NOW);
    state = checked.state;
    kinds.push(checked.answer.kind);
    if (checked.answer.kind !== 'deny') state = guardToolEvent(state, result(attempt), guard, NOW).state;
  }
  return { kinds, state };
}

describe('guardToolEvent', () => {
  it('climbs the default ladder on the same failing call: silent, nudge, refusal, then a hand-off waiting for the stop', () => {
    const { kinds, state } = session(DEFAULT_TOOL_GUARD_OPTIONS, 6, () => post('npm test', 'Error: boom'));
    expect(kinds).toEqual(['none', 'none', 'context', 'deny', 'deny', 'deny']);
    expect(state.handOff).toMatchObject({ question: expect.stringContaining('`Bash` `npm test`'), evidence: expect.stringContaining('Error: boom') });
    expect(state.totals).toEqual({ recorded: 3, nudges: 1, refusals: 3, handOffs: 1 });
  });

  it('follows the configured ladder: more nudges, more refusals, no hand-off', () => {
    const guard = options({ ladder: { nudges: 2, refusals: 2, handOff: false } });
    const { kinds, state } = session(guard, 8, () => post('npm test', 'Error: boom'));
    expect(kinds).toEqual(['none', 'none', 'context', 'context', 'deny', 'deny', 'deny', 'deny']);
    expect(state.handOff).toBeNull();
  });

  it('refuses at once with no nudges, and hands off on the first refusal past zero refusals', () => {
    expect(session(options({ ladder: { nudges: 0 } }), 4, () => post('npm test', 'Error: boom')).kinds).toEqual(['none', 'none', 'deny', 'deny']);
    const direct = session(options({ ladder: { nudges: 1, refusals: 0 } }), 4, () => post('npm test', 'Error: boom'));
    expect(direct.kinds).toEqual(['none', 'none', 'context', 'deny']);
    expect(direct.state.handOff).not.toBeNull();
  });

  it('says nothing and keeps no state when turned off', () => {
    const guard = options({ enabled: false });
    const { kinds, state } = session(guard, 6, () => post('npm test', 'Error: boom'));
    expect(kinds).toEqual(Array(6).fill('none'));
    expect(state.totals.recorded).toBe(0);
  });

  it('never refuses a call whose result keeps changing, failing or not, and nudges it at most once', () => {
    const failing = session(DEFAULT_TOOL_GUARD_OPTIONS, 20, (n) => post('kubectl rollout status', `Error: ${n} of 20 replicas ready`));
    expect(failing.kinds).not.toContain('deny');
    expect(failing.kinds.filter((kind) => kind === 'context').length).toBeLessThanOrEqual(1);
    const passing = session(DEFAULT_TOOL_GUARD_OPTIONS, 20, (n) => post('curl health', `{"ready": ${n}}`, 0));
    expect(passing.kinds).not.toContain('deny');
  });

  it('drops the ladder and a pending hand-off once a recorded call shows progress', () => {
    let { state } = session(DEFAULT_TOOL_GUARD_OPTIONS, 6, () => post('npm test', 'Error: boom'));
    expect(state.handOff).not.toBeNull();
    state = guardToolEvent(state, post('npm test', 'all 12 tests passed', 0), DEFAULT_TOOL_GUARD_OPTIONS, NOW).state;
    expect(state.handOff).toBeNull();
    expect(state.ladder).toBeNull();
    expect(guardToolEvent(state, pre('npm test'), DEFAULT_TOOL_GUARD_OPTIONS, NOW).answer.kind).toBe('none');
  });

  it('identifies a Bash call by its command alone, so a reworded description is the same call', () => {
    const guard = DEFAULT_TOOL_GUARD_OPTIONS;
    let state = initialToolGuardState(guard.stall, NOW);
    for (let n = 0; n < 3; n++) {
      state = guardToolEvent(state, { phase: 'post', tool: 'Bash', input: { command: 'make', description: `try ${n}`, timeout: n }, output: 'Error: x', exitCode: 2 }, guard, NOW).state;
    }
    expect(state.calls).toHaveLength(1);
    expect(guardToolEvent(state, { phase: 'pre', tool: 'Bash', input: { command: 'make', description: 'again' } }, guard, NOW).answer.kind).toBe('context');
  });

  it('stays under 16 KB of JSON after 1,000 calls of 100 KB outputs, and reads back as valid state', () => {
    const guard = DEFAULT_TOOL_GUARD_OPTIONS;
    let state = initialToolGuardState(guard.stall, NOW);
    const big = 'x'.repeat(100 * 1024);
    for (let n = 0; n < 1000; n++) {
      const command = `step ${n % 37} ${'y'.repeat(300)}`;
      state = guardToolEvent(state, pre(command), guard, NOW).state;
      state = guardToolEvent(state, post(command, `${big}\nError: failure number ${n % 5}`, n % 3), guard, NOW).state;
    }
    const text = JSON.stringify(state);
    expect(text.length).toBeLessThanOrEqual(16 * 1024);
    expect(state.calls.length).toBeLessThanOrEqual(MAX_RECORDED_CALLS);
    expect(parseToolGuardState(JSON.parse(text))).toEqual(state);
  });

  it('refuses corrupt or foreign state', () => {
    const good = JSON.parse(JSON.stringify(initialToolGuardState(DEFAULT_TOOL_GUARD_OPTIONS.stall, NOW))) as Record<string, unknown>;
    expect(parseToolGuardState(good)).toBeDefined();
    for (const bad of [null, [], { ...good, version: 2 }, { ...good, stall: { version: 1 } }, { ...good, calls: 'x' }, { ...good, totals: { recorded: -1 } }, { ...good, ladder: { key: 1 } }]) {
      expect(parseToolGuardState(bad)).toBeUndefined();
    }
  });
});

describe('callLabel', () => {
  it('names the tool and the start of its command, input path or JSON', () => {
    expect(callLabel('Bash', { command: 'npm   test\n--watch' })).toBe('`Bash` `npm test --watch`');
    expect(callLabel('Edit', { file_path: 'src/a.ts', old_string: 'a' })).toBe('`Edit` `src/a.ts`');
    expect(callLabel('mcp__db__query', { sql: 'select `x`' })).toBe('`mcp__db__query` `{"sql":"select \'x\'"}`');
    expect(callLabel('Bash', { command: 'z'.repeat(200) })).toHaveLength('`Bash` ``'.length + 80);
  });
});

describe('parseToolGuardOptions', () => {
  it('fills the defaults and lays tool identities over the default ones', () => {
    const parsed = options({ stall: { repeatedFailingCall: { repeats: 5 }, tools: { poll_status: { polling: true } } } });
    expect(parsed.ladder).toEqual({ nudges: 1, refusals: 1, handOff: true });
    expect(parsed.stall.repeatedFailingCall).toEqual({ repeats: 5 });
    expect(parsed.stall.tools).toMatchObject({ Bash: { arguments: ['command'] }, poll_status: { polling: true } });
  });

  it('names each bad key', () => {
    const parsed = parseToolGuardOptions({ ladder: { nudges: -1, refusal: 2 }, stall: { repeatedFailingCall: { repeats: 1 }, tools: { x: { polling: 'yes' } } }, colour: 1 });
    expect(parsed.ok).toBe(false);
    const message = parsed.ok ? '' : parsed.message;
    expect(message).toMatch(/toolGuard: unknown key "colour"/);
    expect(message).toMatch(/toolGuard\.ladder: unknown key "refusal"/);
    expect(message).toMatch(/toolGuard\.ladder\.nudges: must be an integer from 0 to 100, got -1/);
    expect(message).toMatch(/toolGuard\.stall\.tools\.x\.polling: expected a boolean/);
    expect(parseToolGuardOptions('on')).toEqual({ ok: false, message: 'toolGuard: expected an object, got "on"' });
  });
});
