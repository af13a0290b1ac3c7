import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the loopback decision model received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

/** What the loopback server answers: a status and a JSON body, raw text, or nothing at all (a hang). */
export type LoopbackReply = { status: number; json?: unknown; text?: string; headers?: Record<string, string> } | 'hang';

/**
 * A decision model on 127.0.0.1 (an ephemeral port) that answers each request
 * with `reply` and records what it received.
 */
export async function startLoopbackDecisionModel(
  reply: (request: ReceivedRequest, index: number) => LoopbackReply,
): Promise<{ baseURL: string; requests: ReceivedRequest[]; close: () => Promise<void> }> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(request);
      const answer = reply(request, requests.length - 1);
      if (answer === 'hang') return;
      res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': `req-${requests.length}`, ...answer.headers });
      res.end(answer.text ?? JSON.stringify(answer.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A System One answer with these P(yes) values. */
export function systemOneAnswer(probabilities: Record<string, number>, model = 'system-one-2026-09'): LoopbackReply {
  return {
    status: 200,
    json: {
      model,
      answers: Object.fromEntries(Object.entries(probabilities).map(([name, p]) => [name, { type: 'noul', noul: p }])),
      usage: { input_tokens: 321, output_tokens: 4 },
    },
  };
}
