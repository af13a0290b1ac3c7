import { ToolLoopAgent, type ToolLoopAgentSettings, type ToolSet } from 'ai';
import { MAX_AGENT_STEPS } from '../../core/stop-policy.js';
import { completionStopWhen, type DoneCheck } from './completion-stop-when.js';

/** Settings of {@link createCompletionAgent}: a `ToolLoopAgent`'s settings with a completion check instead of `stopWhen`. */
export type CompletionAgentSettings<TOOLS extends ToolSet = ToolSet> = Omit<
  ToolLoopAgentSettings<never, TOOLS>,
  'stopWhen' | 'tools'
> & {
  readonly tools: TOOLS;
  readonly checkDone: DoneCheck<TOOLS>;
  readonly maxSteps?: number;
};

/**
 * A `ToolLoopAgent` that stops at the hard cap or when `checkDone` says the
 * task is done, whichever comes first. Every other setting goes to the agent
 * unchanged.
 *
 * @example
 * const agent = createCompletionAgent({ model, tools, checkDone: async () => (await runTests()).passed, maxSteps: 25 });
 * const result = await agent.generate({ prompt: 'Fix the failing test in paginate.ts' });
 */
export function createCompletionAgent<TOOLS extends ToolSet>(
  settings: CompletionAgentSettings<TOOLS>,
): ToolLoopAgent<never, TOOLS> {
  const { checkDone, maxSteps = MAX_AGENT_STEPS, ...agentSettings } = settings;
  // The settings are the caller's, unchanged; the cast only restores what `Omit`
  // loses over the SDK's generic settings type (needed with ai 7).
  const base = agentSettings as Partial<ToolLoopAgentSettings<never, TOOLS>> as ToolLoopAgentSettings<never, TOOLS>;
  return new ToolLoopAgent<never, TOOLS>({ ...base, stopWhen: completionStopWhen<TOOLS>(checkDone, maxSteps) });
}
