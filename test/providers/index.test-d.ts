import type Anthropic from '@anthropic-ai/sdk';
import type { Candidate } from '@google/genai';
import type { StepResult, ToolSet } from 'ai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Response } from 'openai/resources/responses/responses';
import { describe, expectTypeOf, it } from 'vitest';
import { mapAiSdkFinishReason } from '../../src/integrations/ai-sdk/index.js';
import {
  mapAnthropicStopReason,
  mapGeminiFinishReason,
  mapOpenAIChatFinishReason,
  mapOpenAIResponseStatus,
  type GenerationStep,
} from '../../src/providers/index.js';

describe('each mapper takes the real SDK type', () => {
  it('Anthropic Message, including refusal stop_details and model_context_window_exceeded', () => {
    const message = {} as Anthropic.Messages.Message;
    expectTypeOf(mapAnthropicStopReason(message)).toEqualTypeOf<GenerationStep<string | null>>();
    expectTypeOf<'refusal' | 'model_context_window_exceeded' | 'pause_turn'>().toExtend<NonNullable<Anthropic.Messages.Message['stop_reason']>>();
    expectTypeOf<NonNullable<Anthropic.Messages.Message['stop_details']>['type']>().toEqualTypeOf<'refusal'>();
  });

  it('OpenAI chat completion choice and Responses result', () => {
    const choice = {} as ChatCompletion.Choice;
    expectTypeOf(mapOpenAIChatFinishReason(choice).raw).toEqualTypeOf<string | null>();
    const response = {} as Response;
    expectTypeOf(mapOpenAIResponseStatus(response).raw.status).toEqualTypeOf<string | null>();
  });

  it('Gemini candidate and AI SDK step; an end step carries the signal and the provider stop a turn result takes', () => {
    expectTypeOf<Extract<GenerationStep, { type: 'end' }>['provider']>().toEqualTypeOf<{ readonly stop: 'token_limit' | 'step_limit' | 'failed'; readonly detail: string } | undefined>();
    const candidate = {} as Candidate;
    expectTypeOf(mapGeminiFinishReason(candidate).type).toEqualTypeOf<'call' | 'end' | 'resume'>();
    const step = {} as StepResult<ToolSet>;
    expectTypeOf(mapAiSdkFinishReason(step).raw.rawFinishReason).toEqualTypeOf<string | null>();
  });
});
