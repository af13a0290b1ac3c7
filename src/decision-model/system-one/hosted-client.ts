import { DecisionModelError } from '../decision-model-error.js';
import type { HttpClientOptions } from '../http/http-transport.js';
import { createSystemOneClient, type SystemOneClient } from './system-one-client.js';

const REQUIRED = ['SYSTEM_ONE_API_KEY', 'SYSTEM_ONE_BASE_URL', 'SYSTEM_ONE_MODEL'] as const;

/**
 * The hosted System One client, configured from `SYSTEM_ONE_API_KEY`,
 * `SYSTEM_ONE_BASE_URL` and `SYSTEM_ONE_MODEL`. Throws a `configuration`
 * `DecisionModelError` naming exactly the variables that are missing or empty.
 *
 * @example
 * const client = createHostedClient(); // reads process.env
 */
export function createHostedClient(
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: HttpClientOptions = {},
): SystemOneClient {
  const missing = REQUIRED.filter((name) => (env[name] ?? '').trim() === '');
  if (missing.length > 0) {
    throw new DecisionModelError(
      'configuration',
      `the hosted decision model needs ${missing.join(', ')} in the environment (missing or empty)`,
    );
  }
  return createSystemOneClient({
    ...options,
    apiKey: (env.SYSTEM_ONE_API_KEY ?? '').trim(),
    baseURL: (env.SYSTEM_ONE_BASE_URL ?? '').trim(),
    model: (env.SYSTEM_ONE_MODEL ?? '').trim(),
  });
}
