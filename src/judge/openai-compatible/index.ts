/**
 * A decision model made of any OpenAI-compatible chat endpoint that returns logprobs.
 *
 * @module
 */
export { createLogprobClient } from './logprob-client.js';
export type { LogprobClient, LogprobClientOptions } from './logprob-client.js';
export { buildLogprobMessages } from './logprob-prompt.js';
export type { ChatMessage } from './logprob-prompt.js';
export { readYesProbability, normaliseLabel } from './read-yes-probability.js';
export type { YesProbability } from './read-yes-probability.js';
export { DEFAULT_RETRY_TIMING } from '../http/retry-timing.js';
export type { RetryTiming } from '../http/retry-timing.js';
export { MAX_RESPONSE_BYTES } from '../http/read-limited-body.js';
export type { HttpClientOptions } from '../http/http-transport.js';
