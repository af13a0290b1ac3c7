import type { ServerResponse } from 'node:http';
import type { ModelTurn } from './model-turn.js';

/**
 * What a request to the scripted model is: an agent turn that consumes the
 * script (`main`), a utility call answered generically (`side`: titles, the
 * model router, summaries), a token count, a model list, or anything else.
 */
export type RequestKind = 'main' | 'side' | 'count' | 'models' | 'other';

/** One message part of what the model reads, flattened: who said it and its text (tool calls and results written out). */
export interface ConversationItem {
  readonly role: string;
  readonly text: string;
}

/** Hands out ids unique within one server (message, call and response ids). */
export type NewId = (prefix: string) => string;

/**
 * One model wire protocol as the scripted server speaks it: which requests
 * are agent turns, how a turn is written back (streamed or not, as the
 * request asked), the generic answer to the other requests, and how to read
 * what the model was sent.
 */
export interface ModelProtocol {
  readonly name: string;
  classify(method: string, path: string, body: unknown): RequestKind;
  answerMain(response: ServerResponse, path: string, body: unknown, turn: ModelTurn, newId: NewId): void;
  answerSide(response: ServerResponse, path: string, body: unknown, kind: RequestKind, newId: NewId): void;
  /** The messages of a request body in order, flattened to text. */
  conversation(body: unknown): ConversationItem[];
}

/** Writes server-sent events, each `data:` line a JSON event (with an `event:` line naming its `type` when `named`). */
export function writeEvents(response: ServerResponse, events: readonly Readonly<Record<string, unknown>>[], named: boolean): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) {
    if (named && typeof event.type === 'string') response.write(`event: ${event.type}\n`);
    response.write(`data: ${JSON.stringify(event)}\n\n`);
  }
  response.end();
}

/** Writes one JSON body. */
export function writeJson(response: ServerResponse, value: unknown, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

/** A record's field as an array (empty when it is missing or not one). */
export function arrayField(value: unknown, key: string): unknown[] {
  if (typeof value !== 'object' || value === null) return [];
  const field = (value as Record<string, unknown>)[key];
  return Array.isArray(field) ? field : [];
}

/** A value as a record (empty when it is not one). */
export function recordOf(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
