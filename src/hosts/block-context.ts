import { noTestsRan, testsFailed, type TestEvidence } from '../core/test-evidence.js';
import { isStopHookBlock, type StopHookDecision } from './decide-stop-hook.js';
import type { StopwiseConfig } from './stopwise-config.js';

/**
 * The extra context a block feeds the agent: the task and its acceptance
 * criteria, on a block for the criteria (the tests pass but the checks are
 * below the threshold) only; `undefined` otherwise or when the configuration
 * has neither.
 */
export function blockContext(config: Pick<StopwiseConfig, 'task' | 'acceptance'>, decision: StopHookDecision, tests: TestEvidence): string | undefined {
  if (!isStopHookBlock(decision) || testsFailed(tests) || noTestsRan(tests)) return undefined;
  const lines: string[] = [];
  if (config.task !== '') lines.push(`Task: ${config.task}`);
  if (config.acceptance.length > 0) lines.push('Acceptance criteria:', ...config.acceptance.map((item) => `- ${item}`));
  return lines.length === 0 ? undefined : lines.join('\n');
}
