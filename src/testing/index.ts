/**
 * Test doubles: a scripted decision model that records its calls.
 *
 * @module
 */
export { createScriptedClient } from './scripted-client.js';
export type { Script, ScriptedAnswers, ScriptedReply, ScriptedClient, ScriptedClientOptions } from './scripted-client.js';
