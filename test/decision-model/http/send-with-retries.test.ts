// Every fault a decision-model server can show, against both HTTP clients on
// real loopback servers: the error kind, the number of attempts, for a timeout
// the elapsed time within its budget, no decision other than an error, and no
// API key anywhere in what comes out.
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { doneCriteria } from '../../../src/decision-model/boolean-question.js';
import { checkCompletion } from '../../../src/decision-model/check-completion.js';
import { decideCompletionAfterEvaluate } from '../../../src/decision-model/decide-completion-after-evaluate.js';
import type { DecisionModelClient } from '../../../src/decision-model/decision-model-client.js';
import { DecisionModelError, type DecisionModelErrorKind } from '../../../src/decision-model/decision-model-error.js';
import { rejection } from '../caught-errors.js';
import { createHttpTransport, type HttpClientOptions } from '../../../src/decision-model/http/http-transport.js';
import { readRequestId, sendWithRetries } from '../../../src/decision-model/http/send-with-retries.js';
import { createLogprobClient } from '../../../src/decision-model/openai-compatible/logprob-client.js';
import { createSystemOneClient } from '../../../src/decision-model/system-one/system-one-client.js';
import {
  MISSING,
  NAN,
  chatBody,
  send,
  startLoopbackServer,
  systemOneBody,
  type Handler,
  type LoopbackServer,
  type WireValue,
} from '../loopback-server.js';

const KEY = 'sk-live-7f3a9c2e1b5d4a6f8e0c';
/** The per-attempt timeout of the faults that are timeouts. */
const TIMEOUT_MS = 100;
/**
 * The per-attempt timeout of every other fault: one that cannot fire in the test's path (the test's own timeout
 * comes first), so that a busy machine reading a large body slowly never turns a fault into a timeout and a retry.
 */
const NO_TIMEOUT_MS = 10 * 60_000;
const MAX_RETRIES = 2;
const MAX_DELAY_MS = 40;
const SLACK_MS = 4000;
const MB = 1024 * 1024;

interface Wire {
  readonly name: string;
  readonly body: (value: WireValue, extra?: Record<string, unknown>) => string;
  readonly client: (baseURL: string, options: HttpClientOptions) => DecisionModelClient;
}

const WIRES: readonly Wire[] = [
  {
    name: 'System One client',
    body: (value, extra) => systemOneBody({ acceptanceCovered: value }, extra),
    client: (baseURL, options) => createSystemOneClient({ ...options, apiKey: KEY, baseURL, model: 'judge-small' }),
  },
  {
    name: 'logprob client',
    body: (value, extra) => chatBody(value, extra),
    client: (baseURL, options) => createLogprobClient({ ...options, apiKey: KEY, baseURL, model: 'judge-7b' }),
  },
];

const QUESTIONS = { acceptanceCovered: doneCriteria.acceptanceCovered! };
const INPUT = {
  task: 'Make the exporter stream rows',
  output: 'The exporter now streams rows; memory stays flat.',
  acceptance: ['rows are streamed'],
  tests: { passed: true, failed: [], ran: 9 },
  questions: QUESTIONS,
};
const LOOP = { step: 2, recentFingerprints: [] };

async function writeBytes(server: LoopbackServer, response: ServerResponse, total: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  response.write('{"answers":"');
  for (let sent = 0; sent < total; sent += chunk.length) {
    if (response.destroyed) return;
    server.bytesWritten += chunk.length;
    if (!response.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.on('drain', done);
        response.on('close', done);
      });
    }
  }
}

interface FaultCase {
  readonly name: string;
  readonly handler: (wire: Wire, server: LoopbackServer) => Handler;
  /** The error kind, or `ok` when the client must answer. */
  readonly kind: DecisionModelErrorKind | 'ok';
  readonly attempts: number;
  readonly status?: number;
  readonly check?: (error: DecisionModelError, server: LoopbackServer) => void;
}

/** A handler that sends `total` bytes of body (never ending it when `end` is false). */
const bigBody =
  (total: number, headers: Record<string, string> = {}, end = true) =>
  (_wire: Wire, server: LoopbackServer): Handler =>
  async (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', ...headers });
    await writeBytes(server, response, total);
    if (end) response.end('"}');
  };

const status =
  (code: number, body: unknown = { error: { message: 'something went wrong' } }, headers: Record<string, string> = {}) =>
  (): Handler =>
  (_request, response) =>
    send(response, code, body, headers);

const RETRIED = MAX_RETRIES + 1;

const CASES: readonly FaultCase[] = [
  {
    name: '500',
    handler: status(500, { error: 'boom' }, { 'x-request-id': 'req-500-abc' }),
    kind: 'server',
    attempts: RETRIED,
    status: 500,
    check: (error) => expect(error.requestId).toBe('req-500-abc'),
  },
  { name: '502 with an HTML page', handler: status(502, '<html><body>Bad gateway</body></html>', { 'content-type': 'text/html' }), kind: 'server', attempts: RETRIED, status: 502, check: (error) => expect(error.message).toContain('HTML page') },
  { name: '503', handler: status(503), kind: 'server', attempts: RETRIED, status: 503 },
  { name: '529 overloaded', handler: status(529, { error: { type: 'overloaded_error' } }), kind: 'server', attempts: RETRIED, status: 529 },
  { name: '429 without retry-after', handler: status(429), kind: 'rate_limited', attempts: RETRIED, status: 429 },
  {
    name: '429 with retry-after in seconds',
    handler: status(429, { error: 'slow down' }, { 'retry-after': '1' }),
    kind: 'rate_limited',
    attempts: RETRIED,
    status: 429,
    check: (error) => {
      expect(error.retryAfterMs).toBe(1000);
      expect(delays).toEqual([1000, 1000]);
    },
  },
  {
    name: '429 with retry-after as an HTTP date',
    handler: () => (_request, response) =>
      send(response, 429, { error: 'slow down' }, { 'retry-after': new Date(Date.now() + 3000).toUTCString() }),
    kind: 'rate_limited',
    attempts: RETRIED,
    status: 429,
    check: () => {
      expect(delays).toHaveLength(2);
      for (const delay of delays) {
        expect(delay).toBeGreaterThan(500);
        expect(delay).toBeLessThanOrEqual(3000);
      }
    },
  },
  {
    name: '429 asking to wait longer than allowed',
    handler: status(429, { error: 'come back tomorrow' }, { 'retry-after': '86400' }),
    kind: 'rate_limited',
    attempts: 1,
    status: 429,
    check: (error) => expect(error.message).toContain('longer than allowed'),
  },
  { name: '401', handler: status(401, { detail: 'invalid api key' }), kind: 'auth', attempts: 1, status: 401 },
  { name: '403', handler: status(403), kind: 'auth', attempts: 1, status: 403 },
  {
    name: '422 with a validation detail',
    handler: status(422, { detail: [{ loc: ['body', 'questions'], msg: 'field required', type: 'missing' }] }),
    kind: 'invalid_request',
    attempts: 1,
    status: 422,
    check: (error) => expect(error.message).toContain('field required'),
  },
  { name: '408', handler: status(408), kind: 'timeout', attempts: RETRIED, status: 408 },
  {
    name: 'a hang past the timeout',
    handler: () => () => undefined,
    kind: 'timeout',
    attempts: RETRIED,
  },
  {
    name: 'headers sent, then a body that never ends',
    handler: () => (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"model":"judge"');
    },
    kind: 'timeout',
    attempts: RETRIED,
  },
  { name: 'a connection reset', handler: () => (_request, response) => {
      response.socket?.destroy();
    }, kind: 'network', attempts: RETRIED },
  {
    name: 'truncated JSON',
    handler: (wire) => (_request, response) => send(response, 200, wire.body(0.9).slice(0, 40)),
    kind: 'invalid_response',
    attempts: 1,
    status: 200,
  },
  {
    name: 'HTML instead of JSON',
    handler: () => (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><html><body>Welcome to nginx!</body></html>');
    },
    kind: 'invalid_response',
    attempts: 1,
    status: 200,
    check: (error) => expect(error.message).toContain('HTML'),
  },
  { name: 'an empty body', handler: () => (_request, response) => send(response, 200, ''), kind: 'invalid_response', attempts: 1 },
  {
    name: 'a body that is not UTF-8',
    handler: () => (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    },
    kind: 'invalid_response',
    attempts: 1,
  },
  { name: 'a missing answer', handler: (wire) => (_request, response) => send(response, 200, wire.body(MISSING)), kind: 'invalid_response', attempts: 1 },
  { name: 'a probability of 1.5', handler: (wire) => (_request, response) => send(response, 200, wire.body(1.5)), kind: 'invalid_response', attempts: 1 },
  { name: 'a probability of NaN', handler: (wire) => (_request, response) => send(response, 200, wire.body(NAN)), kind: 'invalid_response', attempts: 1 },
  { name: 'a probability given as a string', handler: (wire) => (_request, response) => send(response, 200, wire.body('0.9')), kind: 'invalid_response', attempts: 1 },
  {
    name: 'unknown extra fields (accepted)',
    handler: (wire) => (_request, response) =>
      send(response, 200, wire.body(0.93, { system_fingerprint: 'fp_1', x_debug: { cache: 'miss', shards: [1, 2] } })),
    kind: 'ok',
    attempts: 1,
  },
  {
    name: 'a 503 then an answer',
    handler: (wire) => (_request, response, index) =>
      index === 0 ? send(response, 503, { error: 'warming up' }) : send(response, 200, wire.body(0.93)),
    kind: 'ok',
    attempts: 2,
  },
  {
    name: 'a redirect (not followed)',
    handler: () => (_request, response) => {
      response.writeHead(302, { location: 'http://127.0.0.1:9/steal' });
      response.end();
    },
    kind: 'invalid_response',
    attempts: 1,
    status: 302,
  },
  {
    name: 'a 20 MB body',
    handler: bigBody(20 * MB),
    kind: 'invalid_response',
    attempts: 1,
    status: 200,
    check: (error, server) => {
      expect(error.message).toContain('8 MB');
      // The client stopped reading at 8 MB: the server could not push the whole 20 MB.
      expect(server.bytesWritten).toBeLessThan(20 * MB);
    },
  },
  {
    name: 'a 20 MB body declared by content-length',
    handler: bigBody(20 * MB, { 'content-length': String(20 * MB + 14) }),
    kind: 'invalid_response',
    attempts: 1,
    status: 200,
    check: (error, server) => {
      expect(error.message).toContain('declares');
      expect(server.bytesWritten).toBeLessThan(20 * MB);
    },
  },
  {
    name: '9 MB then a stall (refused while reading, before the timeout)',
    handler: bigBody(9 * MB, {}, false),
    kind: 'invalid_response',
    attempts: 1,
    status: 200,
  },
  {
    name: 'a 500 whose body echoes the API key',
    handler: () => (request, response) =>
      send(response, 500, { error: { message: `upstream rejected header ${String(request.headers.authorization)}` } }),
    kind: 'server',
    attempts: RETRIED,
    status: 500,
    check: (error) => expect(error.message).toContain('[redacted]'),
  },
  {
    name: 'a 422 whose detail echoes the API key',
    handler: () => (request, response) =>
      send(response, 422, { detail: [{ msg: `bad token ${String(request.headers.authorization)}` }] }),
    kind: 'invalid_request',
    attempts: 1,
    status: 422,
    check: (error) => expect(error.message).toContain('[redacted]'),
  },
];

let delays: number[] = [];
const recordingSleep = (ms: number, signal?: AbortSignal): Promise<void> => {
  delays.push(ms);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, Math.min(ms, MAX_DELAY_MS));
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
};

function expectNoKey(value: unknown): void {
  const views = [
    String(value),
    JSON.stringify(value),
    inspect(value, { depth: 10, showHidden: true }),
    (value as Error).stack ?? '',
    (value as Error).message ?? '',
  ];
  for (const view of views) expect(view).not.toContain(KEY);
}

for (const wire of WIRES) {
  describe(`${wire.name}: faults on a loopback server`, () => {
    let server: LoopbackServer;
    let written: string[];
    beforeEach(async () => {
      delays = [];
      written = [];
      server = await startLoopbackServer(() => undefined);
      for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
        vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
          written.push(args.map(String).join(' '));
        });
      }
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await server.close();
      for (const line of written) expect(line).not.toContain(KEY);
    });

    const client = (timeoutMs: number) =>
      wire.client(server.baseURL, {
        timeoutMs,
        maxRetries: MAX_RETRIES,
        retryTiming: { initialDelayMs: 10, maxDelayMs: MAX_DELAY_MS, sleep: recordingSleep },
      });
    const budget = (attempts: number) => attempts * TIMEOUT_MS + MAX_RETRIES * MAX_DELAY_MS + SLACK_MS;

    for (const fault of CASES) {
      it(`${fault.name}: ${fault.kind === 'ok' ? 'answered' : fault.kind}, ${fault.attempts} attempt(s)`, async () => {
        server.handle = fault.handler(wire, server);
        const timesOut = fault.kind === 'timeout' && fault.status === undefined;
        const timeoutMs = timesOut ? TIMEOUT_MS : NO_TIMEOUT_MS;
        const started = performance.now();
        const decision = decideCompletionAfterEvaluate(client(timeoutMs), { ...INPUT, loop: LOOP });
        if (fault.kind === 'ok') {
          await expect(decision).resolves.toMatchObject({ action: 'stop_done', evaluated: true });
          expect(server.requests).toHaveLength(fault.attempts);
          return;
        }
        const error = await rejection(decision);
        const elapsed = performance.now() - started;
        expect(error).toBeInstanceOf(DecisionModelError);
        expect(error.kind).toBe(fault.kind);
        expect(error.attempts).toBe(fault.attempts);
        expect(server.requests).toHaveLength(fault.attempts);
        if (fault.status !== undefined) expect(error.status).toBe(fault.status);
        if (timesOut) {
          expect(elapsed).toBeGreaterThanOrEqual(fault.attempts * TIMEOUT_MS - 20);
          expect(elapsed).toBeLessThan(budget(fault.attempts));
        }
        for (const request of server.requests) expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
        expectNoKey(error);
        fault.check?.(error, server);

        const check = await rejection(checkCompletion(client(timeoutMs), INPUT));
        expect(check.kind).toBe(fault.kind);
        expectNoKey(check);
      });
    }

    it('a caller abort during a hang stops at once, after one attempt', async () => {
      server.handle = () => undefined;
      const slow = wire.client(server.baseURL, { timeoutMs: 20_000, maxRetries: 2 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const started = performance.now();
      const error = await rejection(slow.evaluate({ state: 's', questions: QUESTIONS }, { signal: controller.signal }));
      expect(error.kind).toBe('aborted');
      expect(server.requests).toHaveLength(1);
      expect(performance.now() - started).toBeLessThan(5000);
    });

    it('a caller abort during the backoff stops at once, without another attempt', async () => {
      server.handle = status(503)();
      const patient = wire.client(server.baseURL, { timeoutMs: NO_TIMEOUT_MS, maxRetries: 2, retryTiming: { initialDelayMs: 30_000, maxDelayMs: 30_000 } });
      const controller = new AbortController();
      const started = performance.now();
      const pending = rejection(patient.evaluate({ state: 's', questions: QUESTIONS }, { signal: controller.signal }));
      await vi.waitFor(() => expect(server.requests).toHaveLength(1));
      controller.abort();
      const error = await pending;
      expect(error.kind).toBe('aborted');
      expect(error.attempts).toBe(1);
      expect(server.requests).toHaveLength(1);
      expect(performance.now() - started).toBeLessThan(10_000);
    });

    it('honours retry-after with the real timer', async () => {
      server.handle = (_request, response, index) =>
        index === 0 ? send(response, 429, { error: 'slow down' }, { 'retry-after': '1' }) : send(response, 200, wire.body(0.9));
      const real = wire.client(server.baseURL, { timeoutMs: NO_TIMEOUT_MS, maxRetries: 1 });
      const started = performance.now();
      const result = await real.evaluate({ state: 's', questions: QUESTIONS });
      expect(result.answers.acceptanceCovered?.probability).toBeCloseTo(0.9, 9);
      expect(performance.now() - started).toBeGreaterThanOrEqual(990);
      expect(server.requests).toHaveLength(2);
    });

    it('with maxRetries 0 makes exactly one attempt', async () => {
      server.handle = status(503)();
      const once = wire.client(server.baseURL, { maxRetries: 0 });
      const error = await rejection(once.evaluate({ state: 's', questions: QUESTIONS }));
      expect(error.kind).toBe('server');
      expect(error.attempts).toBe(1);
      expect(server.requests).toHaveLength(1);
    });
  });
}

describe('a refused connection', () => {
  it('is a network error, retried, with no key in it', async () => {
    const server = await startLoopbackServer(() => undefined);
    const { baseURL } = server;
    await server.close();
    for (const wire of WIRES) {
      delays = [];
      const client = wire.client(baseURL, { maxRetries: 2, retryTiming: { initialDelayMs: 1, maxDelayMs: 5, sleep: recordingSleep } });
      const error = await rejection(client.evaluate({ state: 's', questions: QUESTIONS }));
      expect(error.kind).toBe('network');
      expect(error.attempts).toBe(3);
      expect(delays).toHaveLength(2);
      expect(error.message).toMatch(/ECONNREFUSED/);
      expectNoKey(error);
    }
  });
});

describe('sendWithRetries with an injected fetch', () => {
  const call = { method: 'GET' as const, url: new URL('http://127.0.0.1:9/v1/models'), read: (json: unknown) => json };

  it('times out a fetch that ignores its signal, within the budget', async () => {
    let calls = 0;
    const deaf: typeof fetch = () => {
      calls += 1;
      return new Promise<Response>(() => undefined);
    };
    const transport = createHttpTransport('svc', { fetch: deaf, timeoutMs: 100, maxRetries: 1, retryTiming: { initialDelayMs: 1 } }, []);
    const started = performance.now();
    const error = await rejection(sendWithRetries(transport, call));
    expect(error).toMatchObject({ kind: 'timeout', attempts: 2 });
    expect(calls).toBe(2);
    expect(performance.now() - started).toBeLessThan(200 + SLACK_MS);
  });

  it('reads the request id from the first of the usual headers', async () => {
    const fetchWith = (headers: Record<string, string>): typeof fetch => async () => new Response('{}', { status: 401, headers });
    for (const [headers, id] of [
      [{ 'x-typesafe-request-id': 'a', 'x-request-id': 'b', 'request-id': 'c' }, 'a'],
      [{ 'x-request-id': 'b', 'request-id': 'c' }, 'b'],
      [{ 'request-id': 'c' }, 'c'],
    ] as const) {
      const transport = createHttpTransport('svc', { fetch: fetchWith(headers) }, []);
      expect((await rejection(sendWithRetries(transport, call))).requestId).toBe(id);
    }
    expect(readRequestId(new Headers())).toBeUndefined();
  });

  it('turns a reader that throws something unexpected into invalid_response', async () => {
    const transport = createHttpTransport('svc', { fetch: async () => new Response('{"a":1}') }, []);
    const error = await rejection(
      sendWithRetries(transport, {
        ...call,
        read: () => {
          throw new RangeError('bug in a reader');
        },
      }),
    );
    expect(error).toMatchObject({ kind: 'invalid_response', status: 200 });
  });
});
