/**
 * Parts for a loop of your own over a provider's SDK: the `finish` tool the
 * model signals with, the mappers of each provider's stop reason to the
 * loop's next step, and the readers of tool steps for the stall detector.
 *
 * @module
 */
export { FINISH_TOOL_NAME, finishToolInputSchema, anthropicFinishTool, openAIFinishTool, openAIResponsesFinishTool } from './finish-tool.js';
export { parseFinishSignal } from './parse-finish-signal.js';
export type { GenerationStep } from './provider-step.js';
export { ProviderStopError } from './provider-step.js';
export { mapAnthropicStopReason } from './anthropic-stop-reason.js';
export { mapOpenAIChatFinishReason } from './openai-chat-finish-reason.js';
export { mapOpenAIResponseStatus } from './openai-response-status.js';
export { mapGeminiFinishReason } from './gemini-finish-reason.js';
export { stallStepsFromAnthropic } from './anthropic-stall-steps.js';
export { stallStepsFromOpenAIChat } from './openai-chat-stall-steps.js';
