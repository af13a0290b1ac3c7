import type { EvaluationClient } from '../judge/evaluation-client.js';
import { EvaluationError, isEvaluationError } from '../judge/evaluation-error.js';
import { createLogprobClient } from '../judge/openai-compatible/logprob-client.js';
import { createHostedClient } from '../judge/system-one/hosted-client.js';
import { createSystemOneClient } from '../judge/system-one/system-one-client.js';
import type { JudgeConfig } from './stopwise-config.js';

/** Retries per request: a stop hook has a host timeout to keep, so one retry, not the clients' default two. */
const HOOK_MAX_RETRIES = 1;

/**
 * The decision-model client `judge` configures, with its key read from the
 * environment variable `judge.apiKeyEnv` names; or an `EvaluationError` of kind
 * `configuration` naming what is missing (never thrown: for the hook, a model
 * that cannot be made is a model that is down).
 */
export function createConfiguredClient(judge: JudgeConfig, env: Readonly<Record<string, string | undefined>>): EvaluationClient | EvaluationError {
  const http = { timeoutMs: judge.timeoutMs, maxRetries: HOOK_MAX_RETRIES };
  try {
    switch (judge.client) {
      case 'none':
        return new EvaluationError('configuration', 'no decision model is configured (judge.client is "none")');
      case 'system-one': {
        if (judge.baseURL === undefined && judge.model === undefined && judge.apiKeyEnv === undefined) {
          return createHostedClient(env, http);
        }
        const keyEnv = judge.apiKeyEnv ?? 'SYSTEM_ONE_API_KEY';
        const apiKey = nonEmpty(env[keyEnv]);
        const baseURL = judge.baseURL ?? nonEmpty(env.SYSTEM_ONE_BASE_URL);
        const model = judge.model ?? nonEmpty(env.SYSTEM_ONE_MODEL);
        const missing = [
          apiKey === undefined ? `${keyEnv} in the environment` : undefined,
          baseURL === undefined ? 'judge.baseURL (or SYSTEM_ONE_BASE_URL)' : undefined,
          model === undefined ? 'judge.model (or SYSTEM_ONE_MODEL)' : undefined,
        ].filter((item): item is string => item !== undefined);
        if (apiKey === undefined || baseURL === undefined || model === undefined) {
          return new EvaluationError('configuration', `the decision model is not configured: missing ${missing.join(', ')}`);
        }
        return createSystemOneClient({ apiKey, baseURL, model, ...http });
      }
      case 'openai-compatible': {
        const apiKey = judge.apiKeyEnv === undefined ? undefined : nonEmpty(env[judge.apiKeyEnv]);
        if (judge.apiKeyEnv !== undefined && apiKey === undefined) {
          return new EvaluationError('configuration', `the decision model is not configured: missing ${judge.apiKeyEnv} in the environment`);
        }
        return createLogprobClient({
          baseURL: judge.baseURL ?? '',
          model: judge.model ?? '',
          ...(apiKey === undefined ? {} : { apiKey }),
          ...http,
        });
      }
    }
  } catch (error) {
    if (isEvaluationError(error)) return error;
    return new EvaluationError('configuration', error instanceof Error ? error.message : String(error));
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
