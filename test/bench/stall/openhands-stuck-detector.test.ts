import { describe, expect, it } from 'vitest';
import { openHandsIsStuck, type OpenHandsEvent } from '../../../bench/stall/openhands-stuck-detector.js';

const run = (command: string): OpenHandsEvent => ({ kind: 'action', type: 'CmdRunAction', source: 'agent', fields: { command } });
const out = (command: string, content: string, exit = 0): OpenHandsEvent => ({
  kind: 'observation',
  type: 'CmdOutputObservation',
  source: null,
  fields: { command, content, exit_code: exit },
});
const user: OpenHandsEvent = { kind: 'action', type: 'MessageAction', source: 'user', fields: { content: 'go on' } };
const say = (content: string): OpenHandsEvent => ({ kind: 'action', type: 'MessageAction', source: 'agent', fields: { content } });
const error = (content: string): OpenHandsEvent => ({ kind: 'observation', type: 'ErrorObservation', source: null, fields: { content } });

describe('openHandsIsStuck (port)', () => {
  it('compares shell observations by command and exit code, not by output', () => {
    const history = [1, 2, 3, 4].flatMap((i) => [run('ls'), out('ls', `listing ${i}`)]);
    expect(openHandsIsStuck(history.slice(0, 6), true)).toBe(false);
    expect(openHandsIsStuck(history, true)).toBe(true);
  });

  it('finds 3 identical actions with 3 error observations', () => {
    expect(openHandsIsStuck([run('x'), error('a'), run('x'), error('b'), run('x'), error('c')], true)).toBe(true);
  });

  it('finds a monologue, and forgets history before a user message in interactive mode', () => {
    expect(openHandsIsStuck([say('same'), say('same'), say('same')], true)).toBe(true);
    const looped = [1, 2, 3, 4].flatMap(() => [run('ls'), out('ls', '')]);
    expect(openHandsIsStuck([...looped, user], false)).toBe(false);
    expect(openHandsIsStuck([...looped, user], true)).toBe(true);
  });

  it('finds the A/B pattern over six actions and observations', () => {
    const ab = [1, 2, 3].flatMap(() => [run('ls'), out('ls', 'x'), { ...run('cat a'), type: 'FileReadAction' }, { ...out('cat a', 'y'), type: 'FileReadObservation' }]);
    expect(openHandsIsStuck(ab, true)).toBe(true);
  });
});
