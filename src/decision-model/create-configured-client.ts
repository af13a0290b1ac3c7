import type { DecisionModelClient } from './decision-model-client.js';
import { DecisionModelError } from './decision-model-error.js';
import type { HttpClientOptions } from './http/http-transport.js';
import { DECISION_MODEL_CLIENTS, type DecisionModelClientName } from './decision-model-clients.js';

/**
 * A decision model described by plain, JSON-safe settings, as a command line
 * or a configuration file gives it. The key is never part of it: `apiKeyEnv`
 * names the environment variable that holds it.
 */
export interface DecisionModelConfig {
  readonly client: DecisionModelClientName;
  /** The API root; for `system-one` it defaults to `SYSTEM_ONE_BASE_URL` (not used by `ai-sdk`). */
  readonly baseURL?: string;
  /**
   * The model to ask; for `system-one` it defaults to `SYSTEM_ONE_MODEL`. For `ai-sdk`, an id the AI SDK's default
   * provider resolves to a decision model (AI SDK 7; the provider reads its own key from the environment).
   */
  readonly model?: string;
  /**
   * The environment variable holding the key: `SYSTEM_ONE_API_KEY` by default
   * for `system-one` (required), `OPENAI_API_KEY` for `openai-compatible`
   * (optional: local servers need none, but a variable named here must be set).
   */
  readonly apiKeyEnv?: string;
  /** Time allowed for each attempt, in milliseconds (default 30000). */
  readonly timeoutMs?: number;
}

/** Options of {@link createConfiguredClient}. */
export interface ConfiguredClientOptions {
  /** Where keys and defaults are read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * How the caller's users set each field, for messages: a command line passes
   * `{ baseURL: '--base-url', model: '--model', apiKeyEnv: '--api-key-env' }`.
   * Defaults to the field names.
   */
  readonly settingNames?: Readonly<Partial<Record<'baseURL' | 'model' | 'apiKeyEnv', string>>>;
  /** Further client options (`fetch`, `maxRetries`, `retryTiming`, `headers`); `config.timeoutMs` wins over theirs. */
  readonly http?: HttpClientOptions;
}

/** The client {@link createConfiguredClient} builds: a `DecisionModelClient` that names its model and address. */
export interface ConfiguredClient extends DecisionModelClient {
  readonly client: DecisionModelClientName;
  readonly model: string;
  readonly baseURL: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Time allowed for each request when `timeoutMs` is not given, as the HTTP clients have it. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** The entry that holds the AI SDK decision model, imported by name (see the `ai-sdk` branch below). */
const AI_SDK_ENTRY: string = 'stopwise/ai-sdk';

/**
 * Builds a decision-model client from a plain configuration and the
 * environment, loading only the client module it names. Throws a
 * `configuration` `DecisionModelError` that names every missing setting and
 * environment variable at once, and never echoes a key.
 *
 * @example
 * const client = await createConfiguredClient({ client: 'openai-compatible', baseURL: 'http://127.0.0.1:8080/v1', model: 'qwen2.5-7b' });
 * const { answers } = await client.evaluate({ state, questions: doneCriteria });
 */
export async function createConfiguredClient(
  config: DecisionModelConfig,
  options: ConfiguredClientOptions = {},
): Promise<ConfiguredClient> {
  const env = options.env ?? process.env;
  const names = { baseURL: 'baseURL', model: 'model', apiKeyEnv: 'apiKeyEnv', ...options.settingNames };
  const checked = checkConfig(config);
  const http: HttpClientOptions = {
    ...options.http,
    ...(checked.timeoutMs === undefined ? {} : { timeoutMs: checked.timeoutMs }),
  };
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  if (checked.client === 'system-one') {
    const keyEnv = checked.apiKeyEnv ?? 'SYSTEM_ONE_API_KEY';
    const apiKey = read(keyEnv);
    const baseURL = checked.baseURL ?? read('SYSTEM_ONE_BASE_URL');
    const model = checked.model ?? read('SYSTEM_ONE_MODEL');
    const missing = [
      ...(apiKey === undefined ? [`the key (${keyEnv} in the environment${checked.apiKeyEnv === undefined ? '' : `, named by ${names.apiKeyEnv}`})`] : []),
      ...(baseURL === undefined ? [`the base URL (${names.baseURL}, or SYSTEM_ONE_BASE_URL in the environment)`] : []),
      ...(model === undefined ? [`the model (${names.model}, or SYSTEM_ONE_MODEL in the environment)`] : []),
    ];
    if (missing.length > 0) throw missingSettings('system-one', missing);
    const { createHostedClient } = await import('./system-one/hosted-client.js');
    const client = createHostedClient(
      { SYSTEM_ONE_API_KEY: apiKey, SYSTEM_ONE_BASE_URL: baseURL, SYSTEM_ONE_MODEL: model },
      http,
    );
    return describedClient('system-one', client);
  }

  if (checked.client === 'ai-sdk') {
    if (checked.model === undefined) throw missingSettings('ai-sdk', [`the model (${names.model}: an id the AI SDK's default provider resolves)`]);
    // Through the package's own `stopwise/ai-sdk` entry, named by a variable: a bundler of an app that never
    // configures this client then does not follow the import to the AI SDK, which the app may not have.
    const aiSdk = await (import(/* webpackIgnore: true */ /* @vite-ignore */ AI_SDK_ENTRY) as Promise<typeof import('../integrations/ai-sdk/index.js')>).catch((error: unknown) => {
      throw new DecisionModelError('configuration', `the ai-sdk decision model needs the ai package (AI SDK 7) installed in the project: ${(error as Error).message}`, { cause: error });
    });
    let inner: DecisionModelClient;
    try {
      inner = aiSdk.decisionModelClient(checked.model, http.maxRetries === undefined ? {} : { maxRetries: http.maxRetries });
    } catch (error) {
      throw new DecisionModelError('configuration', (error as Error).message, { cause: error });
    }
    const timeoutMs = checked.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return {
      client: 'ai-sdk',
      model: checked.model,
      baseURL: 'the AI SDK default provider',
      evaluate: (request, evaluateOptions = {}) => {
        const timeout = AbortSignal.timeout(timeoutMs);
        return inner.evaluate(request, { signal: evaluateOptions.signal === undefined ? timeout : AbortSignal.any([evaluateOptions.signal, timeout]) });
      },
    };
  }

  const keyEnv = checked.apiKeyEnv ?? 'OPENAI_API_KEY';
  const apiKey = read(keyEnv);
  const missing = [
    ...(checked.baseURL === undefined ? [`the base URL (${names.baseURL})`] : []),
    ...(checked.model === undefined ? [`the model (${names.model})`] : []),
    ...(apiKey === undefined && checked.apiKeyEnv !== undefined
      ? [`the key (${keyEnv} in the environment, named by ${names.apiKeyEnv})`]
      : []),
  ];
  if (missing.length > 0) throw missingSettings('openai-compatible', missing);
  const { createLogprobClient } = await import('./openai-compatible/logprob-client.js');
  const client = createLogprobClient({
    ...http,
    baseURL: checked.baseURL as string,
    model: checked.model as string,
    ...(apiKey === undefined ? {} : { apiKey }),
  });
  return describedClient('openai-compatible', client);
}

interface CheckedConfig {
  readonly client: DecisionModelClientName;
  readonly baseURL?: string;
  readonly model?: string;
  readonly apiKeyEnv?: string;
  readonly timeoutMs?: number;
}

/** Checks an untrusted configuration; empty strings count as not given. */
function checkConfig(config: unknown): CheckedConfig {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new DecisionModelError('configuration', 'the decision-model configuration must be an object with a "client" field');
  }
  const record = config as Record<string, unknown>;
  const client = record.client;
  if (typeof client !== 'string' || !(DECISION_MODEL_CLIENTS as readonly string[]).includes(client)) {
    throw new DecisionModelError(
      'configuration',
      `client must be one of ${DECISION_MODEL_CLIENTS.map((name) => `"${name}"`).join(', ')}, got ${typeof client === 'string' ? JSON.stringify(client.slice(0, 40)) : typeof client}`,
    );
  }
  const text = (field: 'baseURL' | 'model' | 'apiKeyEnv'): string | undefined => {
    const value = record[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw new DecisionModelError('configuration', `${field} must be a string, got ${typeof value}`);
    return value.trim() === '' ? undefined : value.trim();
  };
  const apiKeyEnv = text('apiKeyEnv');
  if (apiKeyEnv !== undefined && !ENV_NAME.test(apiKeyEnv)) {
    // Never echoed: a key pasted here by mistake must not reach a log.
    throw new DecisionModelError(
      'configuration',
      'apiKeyEnv must be the name of an environment variable (letters, digits and underscores), not the key itself',
    );
  }
  const timeoutMs = record.timeoutMs;
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)) {
    throw new DecisionModelError('configuration', `timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`);
  }
  const baseURL = text('baseURL');
  const model = text('model');
  return {
    client: client as DecisionModelClientName,
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(model === undefined ? {} : { model }),
    ...(apiKeyEnv === undefined ? {} : { apiKeyEnv }),
    ...(timeoutMs === undefined ? {} : { timeoutMs: timeoutMs as number }),
  };
}

function missingSettings(client: DecisionModelClientName, missing: readonly string[]): DecisionModelError {
  return new DecisionModelError('configuration', `the ${client} decision model needs: ${missing.join('; ')}`);
}

function describedClient(
  client: DecisionModelClientName,
  inner: DecisionModelClient & { readonly model: string; readonly baseURL: string },
): ConfiguredClient {
  return {
    client,
    model: inner.model,
    baseURL: inner.baseURL,
    evaluate: (request, evaluateOptions) => inner.evaluate(request, evaluateOptions),
  };
}
