import * as z from 'zod/mini';
import { FINISH_KINDS, type FinishKind } from '../core/finish-signal.js';

/**
 * The JSON Schema of the `finish` tool's input. A type alias, not an
 * interface, and arrays typed mutable, so that provider SDK types accept it;
 * the value is frozen at run time.
 */
export type FinishToolInputSchema = {
  readonly type: 'object';
  readonly properties: {
    readonly kind: { readonly type: 'string'; readonly enum: FinishKind[]; readonly description: string };
    readonly note: { readonly type: 'string'; readonly description: string };
  };
  readonly required: ('kind' | 'note')[];
  readonly additionalProperties: false;
};

const TOOL_NAME = 'finish' as const;
const TOOL_DESCRIPTION =
  'Call this once, and only when you stop working. kind "done": the task is complete (a claim that will be checked; ' +
  'unmet criteria come back to you). kind "give_up": the task cannot be done; note says what you tried and what blocked you. ' +
  'kind "need_help": you need a decision or a fact only a person has; note is the question.';
const KIND_DESCRIPTION = 'done, give_up or need_help';
const NOTE_DESCRIPTION = 'done: a summary of the result; give_up: what was tried and why it cannot work; need_help: the question for a person';

/**
 * JSON Schema of the `finish` tool's input: `{ kind, note }`, both required,
 * no other property. Usable in strict tool modes.
 */
export const finishToolInputSchema: FinishToolInputSchema = deepFreeze({
  type: 'object',
  properties: {
    kind: { type: 'string', enum: [...FINISH_KINDS], description: KIND_DESCRIPTION },
    note: { type: 'string', description: NOTE_DESCRIPTION },
  },
  required: ['kind', 'note'],
  additionalProperties: false,
});

/**
 * The `finish` tool for the Anthropic Messages API (`tools: [anthropicFinishTool]`), with `strict: true`.
 *
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
 */
export const anthropicFinishTool: {
  readonly name: 'finish';
  readonly description: string;
  readonly input_schema: FinishToolInputSchema;
  readonly strict: true;
} = deepFreeze({ name: TOOL_NAME, description: TOOL_DESCRIPTION, input_schema: finishToolInputSchema, strict: true });

/**
 * The `finish` function tool for OpenAI Chat Completions (`tools: [openAIFinishTool]`), strict.
 * The Responses API takes the flat shape: {@link openAIResponsesFinishTool}.
 *
 * @see https://platform.openai.com/docs/guides/function-calling
 */
export const openAIFinishTool: {
  readonly type: 'function';
  readonly function: {
    readonly name: 'finish';
    readonly description: string;
    readonly parameters: FinishToolInputSchema;
    readonly strict: true;
  };
} = deepFreeze({
  type: 'function',
  function: { name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: finishToolInputSchema, strict: true },
});

/**
 * The `finish` function tool for the OpenAI Responses API (`tools: [openAIResponsesFinishTool]`), strict.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export const openAIResponsesFinishTool: {
  readonly type: 'function';
  readonly name: 'finish';
  readonly description: string;
  readonly parameters: FinishToolInputSchema;
  readonly strict: true;
} = deepFreeze({ type: 'function', name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: finishToolInputSchema, strict: true });

/**
 * The `finish` tool's input as a zod schema, for AI SDK tools and anything
 * that takes a Standard Schema.
 *
 * @example
 * tools: { finish: tool({ description: aiSdkFinishTool.description, inputSchema: finishToolZodSchema }) }
 */
export const finishToolZodSchema = z.strictObject({
  kind: z.enum(FINISH_KINDS).check(z.describe(KIND_DESCRIPTION)),
  note: z.string().check(z.describe(NOTE_DESCRIPTION)),
});

/** A ready-made AI SDK tool definition for `finish` (no `execute`: the loop reads the call). */
export const aiSdkFinishTool = Object.freeze({ description: TOOL_DESCRIPTION, inputSchema: finishToolZodSchema });

/** The name every ready-made finish tool uses. */
export const FINISH_TOOL_NAME: 'finish' = TOOL_NAME;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
