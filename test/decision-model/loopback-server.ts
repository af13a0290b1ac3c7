// Loopback HTTP servers for the decision-model clients: node:http on
// 127.0.0.1 with an ephemeral port, started and closed by each test. They
// speak the System One and the OpenAI-compatible wire formats and misbehave
// on demand.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly json: unknown;
}

/** What to do with one request: `index` counts from 0. */
export type Handler = (request: SeenRequest, response: ServerResponse, index: number) => void | Promise<void>;

export interface LoopbackServer {
  /** `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  readonly requests: SeenRequest[];
  /** Bytes the server managed to write in body chunks (for the large-body cases). */
  bytesWritten: number;
  handle: Handler;
  close(): Promise<void>;
}

export async function startLoopbackServer(handle: Handler): Promise<LoopbackServer> {
  const state: LoopbackServer = {
    baseURL: '',
    requests: [],
    bytesWritten: 0,
    handle,
    close: async () => undefined,
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body === '' ? undefined : JSON.parse(body);
      } catch {
        json = undefined;
      }
      const seen: SeenRequest = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body, json };
      const index = state.requests.length;
      state.requests.push(seen);
      Promise.resolve(state.handle(seen, response, index)).catch((error: unknown) => {
        response.destroy(error as Error);
      });
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** Sends a JSON (or raw text) body with a status and headers. */
export function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(text);
}

/** A value a misbehaving server puts where a probability belongs. */
export type WireValue = number | string | typeof NAN | typeof MISSING;
/** Writes a bare `NaN` into the JSON text, as some servers do. */
export const NAN = Symbol('NaN');
/** Leaves the answer out. */
export const MISSING = Symbol('missing');

/** A System One evaluate response body (as text, so that `NaN` can appear bare). */
export function systemOneBody(answers: Readonly<Record<string, WireValue>>, extra: Record<string, unknown> = {}): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(answers)) {
    if (value === MISSING) continue;
    const noul = value === NAN ? 'NaN' : JSON.stringify(value);
    parts.push(`${JSON.stringify(name)}:{"type":"noul","noul":${noul}}`);
  }
  const rest = JSON.stringify({ usage: { input_tokens: 812, output_tokens: 4 }, ...extra }).slice(1, -1);
  return `{"model":"judge-small-2026-09-01","answers":{${parts.join(',')}},${rest}}`;
}

/**
 * An OpenAI-compatible chat completion whose first token's top logprobs give
 * P(yes) = `value`: "Yes"/" yes" share the yes mass, "No"/" no" the no mass,
 * a little mass goes to other tokens. A bad value is written where a logprob
 * belongs; `MISSING` leaves the logprobs out.
 */
export function chatBody(value: WireValue, extra: Record<string, unknown> = {}): string {
  const base = { id: 'chatcmpl-1', object: 'chat.completion', model: 'judge-7b-q4', ...extra };
  if (value === MISSING) {
    return JSON.stringify({ ...base, choices: [{ index: 0, message: { role: 'assistant', content: 'Yes' }, logprobs: null }] });
  }
  let top: string;
  if (typeof value === 'number' && value >= 0 && value <= 1) {
    const labelled = 0.96;
    const entries: [string, number][] = [
      ['Yes', value * labelled * 0.75],
      [' yes', value * labelled * 0.25],
      ['No', (1 - value) * labelled * 0.75],
      [' no', (1 - value) * labelled * 0.25],
      ['Maybe', 1 - labelled],
    ];
    top = entries
      .filter(([, p]) => p > 0)
      .map(([token, p]) => `{"token":${JSON.stringify(token)},"logprob":${Math.log(p)},"bytes":[]}`)
      .join(',');
  } else {
    const logprob = value === NAN ? 'NaN' : typeof value === 'number' ? String(Math.log(value)) : JSON.stringify(value);
    top = `{"token":"Yes","logprob":${logprob}},{"token":"No","logprob":-2.3}`;
  }
  const rest = JSON.stringify({ ...base, usage: { prompt_tokens: 311, completion_tokens: 1, total_tokens: 312 } }).slice(1, -1);
  const logprobs = `{"content":[{"token":"Yes","logprob":-0.1,"bytes":[89,101,115],"top_logprobs":[${top}]}]}`;
  return `{${rest},"choices":[{"index":0,"message":{"role":"assistant","content":"Yes"},"finish_reason":"length","logprobs":${logprobs}}]}`;
}

/** The question name a logprob request asks, found from its instructions. */
export function askedQuestion(request: SeenRequest, instructionsByName: Readonly<Record<string, string>>): string {
  const messages = (request.json as { messages?: { content: string }[] } | undefined)?.messages ?? [];
  const user = messages[messages.length - 1]?.content ?? '';
  const line = /^Question: (.*)$/m.exec(user)?.[1] ?? '';
  const found = Object.entries(instructionsByName).find(([, text]) => text === line);
  if (found === undefined) throw new Error(`no question matches "${line}"`);
  return found[0];
}
