/**
 * The Vercel AI SDK integration: stop conditions that decide with the stop
 * engine, a gate that refuses a stop inside the SDK's own loop (AI SDK 7), an
 * AI SDK decision model as stopwise's decision model (AI SDK 7), a
 * `ToolLoopAgent` with a completion check, and loops that can refuse a stop.
 *
 * @module
 */
export { hardCapStopWhen } from './hard-cap-stop-when.js';
export { createCompletionStopWhen, completionStopWhen } from './completion-stop-when.js';
export { policyStopWhen } from './policy-stop-when.js';
export type { StepDecisionOptions } from './step-decider.js';
export { completionGate } from './completion-gate.js';
export type { CompletionGate } from './completion-gate.js';
export { decisionModelClient } from './decision-model-client.js';
export type { AiSdkDecisionModelOptions } from './decision-model-client.js';
export { createCompletionAgent } from './completion-agent.js';
export { runManualCompletionLoop } from '../../loop/run-manual-completion-loop.js';
export { runGenerateTextCompletionLoop } from './generate-text-completion-loop.js';
export type { CompletionLoopResult } from '../../loop/completion-loop.js';
export { aiSdkFinishTool } from '../../providers/finish-tool.js';
export { mapAiSdkFinishReason } from './ai-sdk-finish-reason.js';
export { stallStepsFromAiSdkStep } from './ai-sdk-stall-steps.js';
