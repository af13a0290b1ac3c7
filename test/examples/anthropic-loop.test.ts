import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { countWords, runAnthropicLoop, type AnthropicLoopOptions } from '../../examples/anthropic-loop.js';
import { startLoopbackApi, type LoopbackApi, type Reply } from '../fixtures/anthropic/loopback-server.js';

let api: LoopbackApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function runScript(script: readonly Reply[], options: Partial<AnthropicLoopOptions> = {}) {
  api = await startLoopbackApi(script);
  const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: api.baseURL, maxRetries: 0, timeout: 10_000 });
  const outcome = await runAnthropicLoop({
    client,
    model: 'claude-sonnet-4-6',
    task: 'How many words are in "The quick brown fox jumps over the lazy dog"?',
    tools: [countWords],
    limits: { maxSteps: 8 },
    verify: (claim) => (claim.note.includes('9') ? { ok: true } : { ok: false, unmet: ['the note gives the word count, 9'] }),
    ...options,
  });
  return { outcome, requests: api.requests };
}

type Block = { type: string; tool_use_id?: string; content?: string; text?: string; is_error?: boolean };
const lastUserBlocks = (request: Record<string, unknown> | undefined): Block[] => {
  const messages = (request?.['messages'] ?? []) as { role: string; content: string | Block[] }[];
  const last = messages.at(-1);
  return last?.role === 'user' && Array.isArray(last.content) ? last.content : [];
};

describe('the Anthropic loop against a loopback Messages API, through the real SDK client', () => {
  it('tool_use runs the tool, pause_turn resumes, a rejected done is fed back, and the next done succeeds', async () => {
    const { outcome, requests } = await runScript(['tool_use_count_words', 'pause_turn', 'tool_use_finish_done_wrong', 'tool_use_finish_done']);
    expect(outcome).toMatchObject({ exit: 'success', steps: 4, note: 'The sentence has 9 words.' });
    expect(outcome.usage).toMatchObject({ inputTokens: 480, outputTokens: 160 });
    expect(outcome.trace.map((r) => r.verification)).toEqual([undefined, undefined, { ok: false, unmet: ['the note gives the word count, 9'] }, { ok: true }]);

    expect(requests[0]).toMatchObject({
      model: 'claude-sonnet-4-6',
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      tools: [{ name: 'count_words' }, { name: 'finish', strict: true, input_schema: { required: ['kind', 'note'] } }],
    });
    expect(lastUserBlocks(requests[1])).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_01A1', content: '9', is_error: false }]);
    const resumed = (requests[2]?.['messages'] as { role: string; content: Block[] }[]).at(-1);
    expect(resumed).toMatchObject({ role: 'assistant', content: [{ type: 'server_tool_use' }] });
    expect(lastUserBlocks(requests[3])[0]).toMatchObject({ tool_use_id: 'toolu_01A2', content: expect.stringContaining('the note gives the word count, 9') });
  });

  it("the seed snippet's finish { summary } is a done claim", async () => {
    const { outcome } = await runScript(['tool_use_finish_summary']);
    expect(outcome).toMatchObject({ exit: 'success', steps: 1, note: 'The sentence has 9 words.' });
  });

  it.each([
    ['max_tokens', 1_024],
    ['model_context_window_exceeded', 900],
  ] as const)('%s ends at the token limit, without running the truncated tool call', async (reply, outputTokens) => {
    const { outcome, requests } = await runScript([reply]);
    expect(outcome).toMatchObject({ exit: 'limit', limit: 'tokens', source: 'provider', max: null, steps: 1 });
    expect(outcome.usage.outputTokens).toBe(outputTokens);
    expect(requests).toHaveLength(1);
  });

  it('refusal ends as gave_up, the stop_details in the note on the outcome and the trace', async () => {
    const { outcome } = await runScript(['refusal']);
    const note = 'model refused (cyber: The request could enable malware development.)';
    expect(outcome).toMatchObject({ exit: 'gave_up', note, decision: { rule: 'gave_up' } });
    expect(outcome.trace[0]).toMatchObject({ signal: { kind: 'give_up', note }, decision: { kind: 'stop', rule: 'gave_up' } });
  });

  it('end_turn gets one reminder to call finish, then ends as gave_up', async () => {
    const { outcome, requests } = await runScript(['end_turn', 'end_turn_empty']);
    expect(outcome).toMatchObject({ exit: 'gave_up', note: 'model stopped without finish', steps: 2, text: 'The answer is 9.' });
    expect(lastUserBlocks(requests[1])).toEqual([{ type: 'text', text: 'Call the finish tool to end: done, give_up or need_help.' }]);
  });

  it('give_up through finish ends as gave_up with the note', async () => {
    const { outcome } = await runScript(['tool_use_finish_give_up']);
    expect(outcome).toMatchObject({ exit: 'gave_up', note: expect.stringContaining('503') });
  });

  it('need_help asks the person; the answer goes back as the tool result', async () => {
    const asked: string[] = [];
    const { outcome, requests } = await runScript(['tool_use_finish_need_help', 'tool_use_finish_done'], {
      askHuman: (question) => {
        asked.push(question);
        return 'Approved, refund it.';
      },
    });
    expect(asked).toEqual(['Approve a refund of 1,800 EUR, above the 500 EUR limit?']);
    expect(outcome).toMatchObject({ exit: 'success', steps: 2 });
    expect(lastUserBlocks(requests[1])).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_01A6', content: 'The person answered: Approved, refund it.' }]);
  });

  it('need_help with nobody to ask ends as need_help with the question', async () => {
    const { outcome } = await runScript(['tool_use_finish_need_help']);
    expect(outcome).toMatchObject({ exit: 'need_help', question: 'Approve a refund of 1,800 EUR, above the 500 EUR limit?', waitedMs: 0 });
  });

  it.each([
    ['tool_use_finish_invalid', 'ProviderStopError', /invalid finish input: note/],
    ['tool_use_two_blocks', 'ProviderStopError', /2 tool_use blocks.*disable_parallel_tool_use/],
    ['stop_sequence_none', 'ProviderStopError', /no stop sequence was generated/],
    ['unknown_stop_reason', 'ProviderStopError', /unexpected stop_reason "compaction"/],
  ] as const)('%s ends as failed, never as done', async (reply, name, message) => {
    const { outcome } = await runScript([reply]);
    expect(outcome).toMatchObject({ exit: 'failed', steps: 1, error: { name, during: 'turn' } });
    if (outcome.exit === 'failed') expect(outcome.error.message).toMatch(message);
  });

  it.each([
    [529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, /Overloaded/],
    [401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }, /invalid x-api-key/],
  ])('an HTTP %i from the API ends as failed with the SDK error, keeping the earlier steps', async (status, body, message) => {
    const { outcome } = await runScript(['tool_use_count_words', { status, body }]);
    expect(outcome).toMatchObject({ exit: 'failed', steps: 2, error: { during: 'turn' } });
    if (outcome.exit !== 'failed') return;
    expect(outcome.error.message).toMatch(message);
    expect(outcome.cause).toBeInstanceOf(Anthropic.APIError);
    expect(outcome.usage.inputTokens).toBe(120);
  });

  it('on the wrap-up turn it asks for a final answer without tools, and the limit carries it', async () => {
    const { outcome, requests } = await runScript(['tool_use_count_words', 'wrap_up_answer'], { limits: { maxSteps: 2 } });
    expect(outcome).toMatchObject({
      exit: 'limit',
      limit: 'steps',
      source: 'budget',
      finalAnswer: 'Final answer: 9 words, counted once with count_words.',
    });
    expect(requests[1]).toMatchObject({ tool_choice: { type: 'none' } });
    expect(lastUserBlocks(requests[1]).at(-1)).toMatchObject({ type: 'text', text: expect.stringContaining('last turn') });
  });
});

describe('examples/anthropic-loop.ts as a program', () => {
  it('exits with a clear message when no API key is set', () => {
    const script = fileURLToPath(new URL('../../examples/anthropic-loop.ts', import.meta.url));
    const env = { ...process.env };
    delete env['ANTHROPIC_API_KEY'];
    const result = spawnSync(process.execPath, ['--import', 'tsx', script], { env, encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('needs ANTHROPIC_API_KEY');
  });
});
