/**
 * One HTTP request and its answer on Node's http server, with the request's body read once, as
 * bytes, and parsed (body.ts): what every step before the protocol looks at (the token, a
 * contract's rules, capacity, era routing, sessions) reads it here, and answers through it, with
 * no Web-standard Request or Response in between. Only the paths served by the SDK's fetch handler
 * get a Request (built once, without the body when its JSON is already parsed), whose Response is
 * written back as the SDK's toNodeHandler does (the same 413 and 500 answers, a closed response
 * aborting the request's signal, streamed bodies with backpressure).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';
import { postBody, type PostBody } from './body.js';

export class Exchange {
  readonly method: string;
  #abort: AbortController | undefined;
  #request: Request | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly body: PostBody,
    private readonly bytes: Buffer | undefined,
  ) {
    this.method = (req.method ?? 'GET').toUpperCase();
  }

  /** A request header (name in lower case), or undefined. */
  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** Aborted when the client goes before its answer has been written in full (made on first use). */
  get signal(): AbortSignal {
    if (!this.#abort) {
      const abort = (this.#abort = new AbortController());
      if (this.res.destroyed && !this.res.writableEnded) abort.abort();
      else this.res.once('close', () => this.res.writableEnded || abort.abort());
    }
    return this.#abort.signal;
  }

  /** Calls `done` once, when the answer has been written in full or the client has gone. */
  onClose(done: () => void): void {
    if (this.res.closed) done();
    else this.res.once('close', done);
  }

  /** A whole JSON answer, headers and body in one write. */
  json(status: number, value: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(value);
    this.res.writeHead(status, { 'content-type': 'application/json', ...headers, 'content-length': String(Buffer.byteLength(text)) }).end(text);
  }

  /** An answer without a body. */
  empty(status: number, headers: Record<string, string> = {}): void {
    this.res.writeHead(status, headers).end();
  }

  /**
   * The request as the SDK reads it when its body is passed parsed (the 2026-07-28 entry, and a
   * handler's ctx.http.req): its method, URL, headers (get, has) and signal. Anything else gets a
   * whole Request (webRequest).
   */
  sdkRequest(): Request {
    if (this.body.json === undefined) return this.webRequest();
    const exchange = this;
    const view = {
      method: this.method,
      url: `http://${this.req.headers.host ?? 'localhost'}${this.req.url ?? '/'}`,
      headers: { get: (name: string) => this.header(name.toLowerCase()) ?? null, has: (name: string) => this.header(name.toLowerCase()) !== undefined },
      get signal() {
        return exchange.signal;
      },
    };
    return view as unknown as Request;
  }

  /** The request as the SDK's fetch handler takes it; the body is left out when its JSON is passed parsed. */
  webRequest(): Request {
    if (this.#request) return this.#request;
    const { req, bytes, body, method } = this;
    const headers = new Headers();
    for (const name in req.headers) {
      const value = req.headers[name];
      if (value === undefined || name.startsWith(':')) continue;
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else headers.set(name, value);
    }
    const withBody = bytes !== undefined && bytes.length > 0 && body.json === undefined;
    const host = req.headers.host ?? 'localhost';
    return (this.#request = new Request(`http://${host}${req.url ?? '/'}`, {
      method,
      headers,
      signal: this.signal,
      ...(withBody ? { body: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer> } : {}),
    }));
  }

  /** Writes a Web-standard answer: a whole one in one write, an SSE stream as it comes. */
  async send(response: Response): Promise<void> {
    const { res } = this;
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) headers[name] = value;
    if (response.body === null) {
      res.writeHead(response.status, headers).end();
      return;
    }
    if (!isEventStream(headers['content-type'])) {
      const bytes = await whole(response.body);
      res.writeHead(response.status, { ...headers, 'content-length': String(bytes.byteLength) }).end(bytes);
      return;
    }
    res.writeHead(response.status, headers);
    await pump(response.body, res, this.signal);
    res.end();
  }
}

export type ExchangeHandler = (exchange: Exchange) => Promise<void>;

class BodyTooLarge extends Error {}

/** Node's (req, res) for `handle`: the body read (413 past `maxBytes`), a failure answered 500. */
export function serveExchanges(handle: ExchangeHandler, options: { onerror?: (error: Error) => void; maxBytes?: number } = {}) {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let body: PostBody | undefined;
    try {
      const method = (req.method ?? 'GET').toUpperCase();
      const bytes = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req, maxBytes);
      body = postBody(method, bytes);
      await handle(new Exchange(req, res, body, bytes));
    } catch (error) {
      if (res.headersSent) {
        res.end();
        if (!(error instanceof BodyTooLarge)) options.onerror?.(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      const answer = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        const bytes = Buffer.from(JSON.stringify(value));
        res.writeHead(status, { 'content-type': 'application/json', ...headers, 'content-length': String(bytes.byteLength) }).end(bytes);
      };
      if (error instanceof BodyTooLarge) {
        answer(413, { jsonrpc: '2.0', error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${maxBytes} bytes` }, id: null }, { connection: 'close' });
      } else {
        options.onerror?.(error instanceof Error ? error : new Error(String(error)));
        answer(500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: echoableId(body?.json) });
      }
    }
  };
}

/** The body's bytes, or BodyTooLarge past `maxBytes` (declared or received); read from its events, the quickest way. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (Number(req.headers['content-length']) > maxBytes) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.byteLength;
      if (received <= maxBytes) return void chunks.push(bytes);
      // The rest is read and dropped: the 413 goes out at once, and its connection closes after it.
      req.off('data', onData);
      req.resume();
      reject(new BodyTooLarge());
    };
    const onClose = () => reject(new Error('the request closed before its body ended'));
    req.on('data', onData);
    req.once('end', () => {
      req.off('close', onClose);
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    });
    req.once('error', reject);
    req.once('close', onClose);
  });
}

/** A whole body's bytes (read from its stream: fewer steps than arrayBuffer). */
async function whole(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const [only] = chunks;
  return chunks.length === 1 ? Buffer.from(only!.buffer, only!.byteOffset, only!.byteLength) : Buffer.concat(chunks);
}

/** An SSE body is written as it comes; anything else is whole once its Response exists. */
function isEventStream(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.trimStart().toLowerCase().startsWith('text/event-stream');
}

/** Writes a streamed body (SSE) as it comes, waiting for the socket to drain; a closed response stops it. */
async function pump(stream: ReadableStream<Uint8Array>, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const reader = stream.getReader();
  let wake: (() => void) | undefined;
  const release = () => {
    wake?.();
    wake = undefined;
  };
  res.on('drain', release);
  signal.addEventListener('abort', release, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) break;
      // Held until the microtasks now running are done: a body that ends at once leaves in one write.
      if (!res.writableCorked) {
        res.cork();
        process.nextTick(() => res.uncork());
      }
      if (!res.write(value) && !signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
    }
  } catch {
    // A stream that fails ends the response, as the SDK's adapter does.
  } finally {
    res.off('drain', release);
    signal.removeEventListener('abort', release);
    if (signal.aborted) void reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function echoableId(json: unknown): string | number | null {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null;
  const { method, id } = json as { method?: unknown; id?: unknown };
  if (typeof method !== 'string') return null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
