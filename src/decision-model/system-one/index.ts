/**
 * The System One decision-model client.
 *
 * @module
 */
export { createSystemOneClient } from './system-one-client.js';
export type { SystemOneClientOptions } from './system-one-client.js';
export { createHostedClient } from './hosted-client.js';
