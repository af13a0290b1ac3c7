/**
 * A decision model made of any OpenAI-compatible chat endpoint that returns logprobs.
 *
 * @module
 */
export { createLogprobClient } from './logprob-client.js';
export type { LogprobClientOptions } from './logprob-client.js';
