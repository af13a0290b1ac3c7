// An agent loop on the Anthropic Messages API, run by runAgentLoop: the model
// works with local tools and ends through the `finish` tool; mapAnthropicStopReason
// turns each response into the loop's next step, and the stop engine decides
// after every turn: "done" is verified with code, need_help asks a person, a
// budget or the provider's own limit ends the run.
//
//   ANTHROPIC_API_KEY=... npx tsx examples/anthropic-loop.ts
//
// ANTHROPIC_MODEL picks the model. Without a key it says so and exits with code 1.
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { runAgentLoop, stopReasonOf, type BudgetLimits, type RunAgentLoopOptions, type StopOutcome, type TurnResult, type TurnState } from 'stopwise';
import { anthropicFinishTool, mapAnthropicStopReason } from 'stopwise/providers';

/** A tool the loop runs locally. */
export interface LocalTool {
  readonly definition: Anthropic.Messages.Tool;
  run(input: unknown): string | Promise<string>;
}

export interface AnthropicLoopOptions {
  readonly client: Anthropic;
  readonly model: string;
  readonly task: string;
  readonly tools: readonly LocalTool[];
  readonly limits: BudgetLimits;
  readonly verify: RunAgentLoopOptions['verify'];
  readonly askHuman?: RunAgentLoopOptions['askHuman'];
  readonly humanTimeoutMs?: number;
  readonly maxTokens?: number;
  readonly signal?: AbortSignal;
}

/** Runs one task to a typed outcome. */
export function runAnthropicLoop(options: AnthropicLoopOptions): Promise<StopOutcome> {
  const { client, model, tools, maxTokens = 1024 } = options;
  const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: options.task }];
  const definitions = [...tools.map((tool) => tool.definition), anthropicFinishTool];
  let pendingFinish: { id: string; kind: 'done' | 'need_help' } | undefined;
  let nudged = false;

  async function turn(state: TurnState, signal: AbortSignal): Promise<TurnResult> {
    // Answer the finish call of the previous turn: why the claim was not accepted, or the person's answer.
    const feedback: Anthropic.Messages.ContentBlockParam[] = [];
    if (pendingFinish !== undefined) {
      const content =
        pendingFinish.kind === 'done'
          ? `${state.feedback?.message ?? 'Not done yet.'} Keep working, then call finish again.`
          : state.humanAnswer !== undefined
            ? `The person answered: ${state.humanAnswer}`
            : `Nobody answered within ${Math.round((state.unanswered?.waitedMs ?? 0) / 1000)} s. Decide without the answer.`;
      feedback.push({ type: 'tool_result', tool_use_id: pendingFinish.id, content });
      pendingFinish = undefined;
    }
    if (state.wrapUp) {
      feedback.push({ type: 'text', text: 'This is your last turn: give your final answer now, in plain text, without tools.' });
    }
    if (feedback.length > 0) appendUser(feedback);

    const message = await client.messages.create(
      {
        model,
        max_tokens: maxTokens,
        messages,
        tools: definitions,
        tool_choice: state.wrapUp ? { type: 'none' } : { type: 'auto', disable_parallel_tool_use: true },
      },
      { signal },
    );
    messages.push({ role: 'assistant', content: message.content });
    const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    const usage = { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens };
    const result = (extra: Partial<TurnResult> = {}): TurnResult => ({ usage, ...(text === '' ? {} : { text }), ...extra });

    const step = mapAnthropicStopReason(message); // throws on a defect: the loop reports failed
    switch (step.type) {
      case 'resume':
        return result(); // pause_turn: the content is already appended; the next call continues it
      case 'call': {
        nudged = false;
        const tool = tools.find((candidate) => candidate.definition.name === step.tool);
        let output: string;
        let isError = false;
        try {
          if (tool === undefined) throw new Error(`unknown tool ${step.tool}`);
          output = await tool.run(step.args);
        } catch (error) {
          output = `error: ${(error as Error).message}`;
          isError = true;
        }
        appendUser([{ type: 'tool_result', tool_use_id: step.id ?? '', content: output, is_error: isError }]);
        return result(isError ? { toolErrors: 1 } : {});
      }
      case 'end': {
        const finishCall = message.content.find((block) => block.type === 'tool_use' && block.name === 'finish');
        if (finishCall?.type === 'tool_use' && (step.signal?.kind === 'done' || step.signal?.kind === 'need_help')) {
          pendingFinish = { id: finishCall.id, kind: step.signal.kind };
        }
        if (step.raw === 'end_turn' && state.wrapUp) return result(); // the final answer: the loop stops at the limit with it
        if (step.raw === 'end_turn' && !nudged) {
          nudged = true; // a model that stops talking gets one reminder before it counts as giving up
          appendUser([{ type: 'text', text: 'Call the finish tool to end: done, give_up or need_help.' }]);
          return result();
        }
        // The finish signal, or the provider's own limit: the stop engine decides on them.
        return result({ ...(step.signal === undefined ? {} : { signal: step.signal }), ...(step.provider === undefined ? {} : { provider: step.provider }) });
      }
    }
  }

  function appendUser(content: Anthropic.Messages.ContentBlockParam[]): void {
    const last = messages.at(-1);
    if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(...content);
    else messages.push({ role: 'user', content });
  }

  return runAgentLoop({
    limits: options.limits,
    verify: options.verify,
    ...(options.askHuman === undefined ? {} : { askHuman: options.askHuman }),
    ...(options.humanTimeoutMs === undefined ? {} : { humanTimeoutMs: options.humanTimeoutMs }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    turn: (state, { signal }) => turn(state, signal),
  });
}

/** The demo tool: counts words. */
export const countWords: LocalTool = {
  definition: {
    name: 'count_words',
    description: 'Counts the words of a text.',
    input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    strict: true,
  },
  run(input) {
    const text = (input as { text?: unknown }).text;
    if (typeof text !== 'string') throw new Error('text must be a string');
    return String(text.trim().split(/\s+/).filter(Boolean).length);
  },
};

async function main(): Promise<void> {
  if (!process.env.ANTHROPIC_API_KEY) {
    console.error('examples/anthropic-loop.ts needs ANTHROPIC_API_KEY to call the Anthropic API; set it and run again.');
    process.exitCode = 1;
    return;
  }
  const sentence = 'The quick brown fox jumps over the lazy dog';
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const outcome = await runAnthropicLoop({
      client: new Anthropic(),
      model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-6',
      task: `How many words are in "${sentence}"? Use count_words, then call finish with kind "done" and the number as the note.`,
      tools: [countWords],
      limits: { maxSteps: 6, maxTotalTokens: 30_000, maxWallClockMs: 120_000 },
      verify: (claim) => (claim.note.includes('9') ? { ok: true } : { ok: false, unmet: ['the note gives the word count, 9'] }),
      askHuman: (question, { signal }) => terminal.question(`The agent asks: ${question}\n> `, { signal }),
      humanTimeoutMs: 60_000,
    });
    console.log(`stop reason: ${stopReasonOf(outcome)} after ${outcome.steps} steps, ${outcome.usage.inputTokens + outcome.usage.outputTokens} tokens`);
    for (const record of outcome.trace) console.log(JSON.stringify(record));
    if (outcome.exit === 'failed') console.log(`error: ${outcome.error.message}`);
    if (outcome.text !== '') console.log(`last text: ${outcome.text}`);
  } finally {
    terminal.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
