import { describe, expect, it } from 'vitest';
import { formatRunTraceError, parseRunTrace } from '../../src/replay/run-trace.js';

const step = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ step: n, output: `o${n}`, tests: { passed: true, failed: [], ran: 3 }, probabilities: { a: 0.8 }, ...extra });

describe('parseRunTrace', () => {
  it('reads a header line and steps, skipping blank lines and unknown fields', () => {
    const text = [JSON.stringify({ task: 'T', acceptance: ['x'], taskType: 'bugfix', extra: 1 }), '', step(1, { note: 'n' }), step(2), ''].join('\n');
    const result = parseRunTrace(text, 'run.jsonl');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.trace.header).toEqual({ task: 'T', acceptance: ['x'], taskType: 'bugfix' });
    expect(result.trace.steps.map((s) => [s.step, s.line])).toEqual([
      [1, 3],
      [2, 4],
    ]);
    expect(result.trace.steps[0]).toMatchObject({ output: 'o1', tests: { passed: true, failed: [], ran: 3 }, probabilities: { a: 0.8 } });
  });

  it('reads a run without a header', () => {
    const result = parseRunTrace(step(1));
    expect(result.ok && result.trace.header).toEqual({});
  });

  it.each([
    ['{not json', 1, undefined, /not valid JSON/],
    ['[1,2]', 1, undefined, /must be a JSON object, got an array/],
    [JSON.stringify({ step: 0, output: '', tests: { passed: true, failed: [], ran: 1 }, probabilities: {} }), 1, 'step', /positive integer/],
    [JSON.stringify({ step: 1, tests: { passed: true, failed: [], ran: 1 }, probabilities: {} }), 1, 'output', /is missing/],
    [JSON.stringify({ step: 1, output: '', probabilities: {} }), 1, 'tests', /is missing/],
    [JSON.stringify({ step: 1, output: '', tests: { passed: 'yes', failed: [], ran: 1 }, probabilities: {} }), 1, 'tests.passed', /boolean/],
    [JSON.stringify({ step: 1, output: '', tests: { passed: true, failed: [], ran: -2 }, probabilities: {} }), 1, 'tests.ran', /non-negative integer/],
    [JSON.stringify({ step: 1, output: '', tests: { passed: true, failed: [3], ran: 1 }, probabilities: {} }), 1, 'tests.failed[0]', /string/],
    [JSON.stringify({ step: 1, output: '', tests: { passed: true, failed: [], ran: 1 } }), 1, 'probabilities', /is missing/],
    [JSON.stringify({ step: 1, output: '', tests: { passed: true, failed: [], ran: 1 }, probabilities: { a: 1.5 } }), 1, 'probabilities.a', /finite number in \[0, 1\]/],
    [JSON.stringify({ step: 1, output: '', tests: { passed: true, failed: [], ran: 1 }, probabilities: { a: '0.9' } }), 1, 'probabilities.a', /"0\.9"/],
    [JSON.stringify({ task: 5 }), 1, 'task', /must be a string/],
    [`${step(2)}\n${step(2)}`, 2, 'step', /does not come after step 2/],
  ])('reports %s at line %i, field %s', (text, line, field, message) => {
    const result = parseRunTrace(text, 'bad.jsonl');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.line).toBe(line);
    expect(result.error.field).toBe(field);
    expect(result.error.message).toMatch(message);
    expect(formatRunTraceError(result.error)).toMatch(new RegExp(`^bad\\.jsonl:${line}: `));
  });

  it('rejects a file with no steps', () => {
    for (const text of ['', '\n\n', JSON.stringify({ task: 'only a header' })]) {
      const result = parseRunTrace(text, 'empty.jsonl');
      expect(result).toEqual({ ok: false, error: { source: 'empty.jsonl', message: 'the file holds no steps' } });
    }
  });

  it('never throws on arbitrary text', () => {
    for (const text of ['\u0000', 'null', '"x"', '{"step":1e999}', '{"step":1,"output":"","tests":null,"probabilities":{}}', '{}\n{}']) {
      expect(() => parseRunTrace(text)).not.toThrow();
      expect(parseRunTrace(text).ok).toBe(false);
    }
  });
});

describe('criterion names from untrusted input', () => {
  it('keeps a criterion named __proto__, so its low probability still decides', async () => {
    const { replayRun } = await import('../../src/replay/replay-run.js');
    const line = '{"step":1,"output":"x","tests":{"passed":true,"failed":[],"ran":3},"probabilities":{"__proto__":0.05}}';
    const result = parseRunTrace(line);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.trace.steps[0]?.probabilities ?? {})).toEqual(['__proto__']);
    expect(replayRun(result.trace).final).toMatchObject({ kind: 'stop', exit: 'need_help', reason: 'criteria_low', values: { lowestCriterion: '__proto__', lowestProbability: 0.05 } });
  });
});
