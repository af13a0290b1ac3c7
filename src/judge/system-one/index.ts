/**
 * The System One decision-model client.
 *
 * @module
 */
export { createSystemOneClient } from './system-one-client.js';
export type { SystemOneClient, SystemOneClientOptions } from './system-one-client.js';
export { createHostedClient } from './hosted-client.js';
export type { SystemOneModel, SystemOneWireQuestion } from './system-one-wire.js';
export { toSystemOneQuestions, readSystemOneAnswers, readSystemOneModels } from './system-one-wire.js';
export { DEFAULT_RETRY_TIMING, backoffDelay, parseRetryAfter } from '../http/retry-timing.js';
export type { RetryTiming } from '../http/retry-timing.js';
export { MAX_RESPONSE_BYTES } from '../http/read-limited-body.js';
export type { HttpClientOptions } from '../http/http-transport.js';
