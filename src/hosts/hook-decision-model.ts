import type { TestEvidence } from '../core/test-evidence.js';
import type { CompletionCheckInput } from '../decision-model/check-completion.js';
import type { ConfiguredClient, DecisionModelConfig } from '../decision-model/create-configured-client.js';
import { DEFAULT_DECISION_MODEL_TIMEOUT_MS } from './config-file.js';
import type { StopwiseConfig } from './stopwise-config.js';

/** Retries per request: a stop hook has its host's timeout to keep, so one retry, not the clients' default two. */
const HOOK_MAX_RETRIES = 1;

/**
 * The client `decisionModel` configures, as the stop hook makes it: one retry, no
 * wait longer than one request may take, messages naming the configuration's
 * keys. A configuration that cannot make one comes back as the `Error` (never
 * thrown: for the hook, that model is down).
 */
export async function createHookClient(settings: DecisionModelConfig, env: NodeJS.ProcessEnv): Promise<ConfiguredClient | Error> {
  const { createConfiguredClient } = await import('../decision-model/create-configured-client.js');
  try {
    return await createConfiguredClient(settings, {
      env,
      settingNames: { baseURL: 'decisionModel.baseURL', model: 'decisionModel.model', apiKeyEnv: 'decisionModel.apiKeyEnv' },
      // a server asking to wait longer than one request may take is not waited for: the hook has a deadline to keep
      http: { maxRetries: HOOK_MAX_RETRIES, retryTiming: { maxRetryAfterMs: settings.timeoutMs ?? DEFAULT_DECISION_MODEL_TIMEOUT_MS } },
    });
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** What the hook asks the decision model about a turn: the configured task and acceptance, the agent's last message, the evidence. */
export function hookCompletionInput(config: StopwiseConfig, output: string, tests: TestEvidence): CompletionCheckInput {
  return { task: config.task, output, acceptance: config.acceptance, tests, policy: config.policy };
}
