import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeJson, type ModelProtocol, type RequestKind } from './model-protocol.js';
import { EXHAUSTED_TURN, type ModelTurn } from './model-turn.js';

/** One request the scripted model received, in order; a main request also names the turn it was answered with. */
export interface ModelRequest {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly kind: RequestKind;
  readonly body: unknown;
  /** Milliseconds since the server started, for reports of where a run spends its time (never a verdict). */
  readonly atMs: number;
  /** For a main request: its number among the main requests, from 0, and the turn that answered it. */
  readonly main?: number;
  readonly turn?: ModelTurn;
}

/** A scripted model on 127.0.0.1: its base URL, what it received, and how to close it. */
export interface ScriptedModel {
  readonly url: string;
  readonly requests: readonly ModelRequest[];
  /** The main requests (agent turns), in order. */
  mainRequests(): readonly ModelRequest[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * Starts a model server on an ephemeral loopback port that speaks `protocol`
 * and answers the host's main requests with `script`, one turn each, in
 * order (then {@link EXHAUSTED_TURN}); utility calls get a generic answer that
 * does not consume the script. Every request is recorded.
 */
export async function startScriptedModel(protocol: ModelProtocol, script: readonly ModelTurn[]): Promise<ScriptedModel> {
  const requests: ModelRequest[] = [];
  let mainCount = 0;
  let ids = 0;
  const started = Date.now();
  const newId = (prefix: string): string => `${prefix}${String(++ids).padStart(6, '0')}`;
  const server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      let body: unknown = null;
      try {
        body = raw === '' ? null : JSON.parse(raw);
      } catch {
        body = { unparsed: raw.slice(0, 2000) };
      }
      const method = request.method ?? 'GET';
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const kind = protocol.classify(method, path, body);
      const seq = requests.length;
      const atMs = Date.now() - started;
      try {
        if (kind === 'main') {
          const main = mainCount++;
          const turn = script[main] ?? EXHAUSTED_TURN;
          requests.push({ seq, method, path, kind, body, atMs, main, turn });
          protocol.answerMain(response, path, body, turn, newId);
        } else {
          requests.push({ seq, method, path, kind, body, atMs });
          protocol.answerSide(response, path, body, kind, newId);
        }
      } catch (error) {
        if (!response.headersSent) writeJson(response, { error: { message: error instanceof Error ? error.message : String(error) } }, 500);
        else response.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainRequests: () => requests.filter((request) => request.kind === 'main'),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
