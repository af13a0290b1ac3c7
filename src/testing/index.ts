/**
 * Testing stop policies offline: a scripted decision model that records its
 * calls, and the replay of recorded agent runs through a policy.
 *
 * @module
 */
export { createScriptedClient } from './scripted-client.js';
export type { ScriptedClient, ScriptedClientOptions } from './scripted-client.js';
export { parseRunTrace } from '../replay/run-trace.js';
export type { RunTrace } from '../replay/run-trace.js';
export { replayRun } from '../replay/replay-run.js';
export type { ReplayResult } from '../replay/replay-run.js';
