import { generateText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { StopPolicy } from '../../core/stop-policy.js';
import type { TestEvidence } from '../../core/test-evidence.js';
import { assertDecisionModelClient } from '../../decision-model/check-completion.js';
import { askDecisionModel } from '../../decision-model/check-completion.js';
import { createCompletionRequest } from '../../decision-model/completion-request.js';
import type { DecisionModelClient, DecisionModelQuestions } from '../../decision-model/decision-model-client.js';
import { driveCompletionLoop, resolveLoopPolicy, type CompletionDecision, type CompletionLoopResult } from '../../loop/completion-loop.js';
import { stallStepsFromAiSdkStep } from './ai-sdk-stall-steps.js';
import { hardCapStopWhen } from './hard-cap-stop-when.js';

/** Options of {@link runGenerateTextCompletionLoop}. */
export interface GenerateTextCompletionLoopOptions<TOOLS extends ToolSet = ToolSet> {
  readonly model: LanguageModel;
  /** The first user message, or the conversation to start from. */
  readonly prompt: string | readonly ModelMessage[];
  readonly system?: string;
  readonly tools?: TOOLS;
  /** The decision model. */
  readonly client: DecisionModelClient;
  /** What the agent was asked to do, as the decision model should read it. */
  readonly task: string;
  readonly acceptance: readonly string[];
  /** Reads the test evidence after a step. */
  readTests(context: {
    readonly step: number;
    readonly text: string;
    readonly messages: readonly ModelMessage[];
  }): TestEvidence | PromiseLike<TestEvidence>;
  /** The hard step cap; overrides `policy.maxSteps`. */
  readonly maxSteps?: number;
  readonly policy?: StopPolicy;
  /** The questions to ask; `doneCriteria` by default. */
  readonly questions?: DecisionModelQuestions;
  /** Sees every decision, retries included, in order. */
  onDecision?(decision: CompletionDecision): void | PromiseLike<void>;
  readonly signal?: AbortSignal;
}

/** How a `generateText` completion loop ended, with the whole conversation. */
export interface GenerateTextCompletionLoopResult extends CompletionLoopResult {
  /** Every message of the run: the prompt, each step's response messages and each retry's reason. */
  readonly messages: ModelMessage[];
}

/**
 * A manual completion loop over `generateText`, one model step per call. The
 * conversation carries forward: each step's response messages (text, tool
 * calls and tool results) are appended, and on `retry` a user message tells
 * the model why the step was not accepted (the failed tests, or the criteria
 * below the threshold). Ends on `stop_done` or `handoff_human` with the last
 * text, the step and the messages.
 *
 * @example
 * const result = await runGenerateTextCompletionLoop({
 *   model, tools, prompt: task, client, task, acceptance,
 *   readTests: () => runTests(),
 * });
 * console.log(result.action, result.reason, result.step);
 */
export async function runGenerateTextCompletionLoop<TOOLS extends ToolSet = ToolSet>(
  options: GenerateTextCompletionLoopOptions<TOOLS>,
): Promise<GenerateTextCompletionLoopResult> {
  const policy = resolveLoopPolicy(options.policy, options.maxSteps);
  assertDecisionModelClient(options.client);
  const messages: ModelMessage[] =
    typeof options.prompt === 'string' ? [{ role: 'user', content: options.prompt }] : [...options.prompt];
  const oneStep = hardCapStopWhen(1);

  const result = await driveCompletionLoop({
    policy,
    signal: options.signal,
    generateStep: async (_step, retry) => {
      if (retry !== undefined) messages.push({ role: 'user', content: retry.feedback });
      const generated = await generateText({
        model: options.model,
        messages: [...messages],
        stopWhen: oneStep,
        ...(options.system === undefined ? {} : { system: options.system }),
        ...(options.tools === undefined ? {} : { tools: options.tools }),
        ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
      });
      messages.push(...generated.response.messages);
      return { text: generated.text, steps: generated.steps.flatMap((one) => stallStepsFromAiSdkStep(one)) };
    },
    readTests: async (step, text) => options.readTests({ step, text, messages }),
    evaluate: ({ text, tests }) =>
      askDecisionModel(
        options.client,
        createCompletionRequest({ task: options.task, output: text, acceptance: options.acceptance, tests, ...(options.questions === undefined ? {} : { questions: options.questions }) }),
        options.signal === undefined ? {} : { signal: options.signal },
      ),
    task: options.task,
    acceptance: options.acceptance,
    onDecision: options.onDecision === undefined ? undefined : (decision) => options.onDecision?.(decision),
  });
  return { ...result, messages };
}
