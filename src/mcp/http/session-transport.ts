/**
 * One 2025-11-25 session's Streamable HTTP transport on Node's http server: the SDK's
 * WebStandardStreamableHTTPServerTransport in stateful mode (no event store, no DNS-rebinding
 * checks of its own: serve.ts has them), answering the same statuses and JSON-RPC errors, but
 * writing each POST's SSE answer straight to its ServerResponse. A POST's headers go with its
 * first event (or keep-alive), as they did through the SDK's stream, so an answer of one event
 * leaves in one write with its length; a GET opens the session's stream for messages that belong
 * to no request; DELETE ends the session.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  isInitializeRequest,
  isJsonContentType,
  parseJSONRPCMessage,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { Exchange } from './exchange.js';
import type { SessionCalls } from './session-calls.js';
import { isRequest } from '../wire/message-kind.js';

/** The SDK's bound on the messages of one batch. */
const MAX_BATCH_SIZE = 100;
/** The SDK's SSE keep-alive comment interval. */
const KEEP_ALIVE_MS = 15_000;

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' };

export interface SessionTransportOptions {
  readonly onsessioninitialized: (id: string) => void;
  readonly onsessionclosed: (id: string) => void;
  /** When set, the plainest calls are answered without the server (session-calls.ts); the rest reach it. */
  readonly calls?: SessionCalls;
}

export class SessionTransport implements Transport {
  sessionId?: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  #started = false;
  #closed = false;
  #initialized = false;
  #supported: string[] = [...SUPPORTED_PROTOCOL_VERSIONS];
  /** Each request still unanswered, by id: the POST stream its answer goes to. */
  readonly #streams = new Map<RequestId, EventStream>();
  /** The GET stream, for messages related to no request. */
  #standalone: EventStream | undefined;

  constructor(private readonly options: SessionTransportOptions) {}

  async start(): Promise<void> {
    if (this.#started) throw new Error('Transport already started');
    this.#started = true;
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.#supported = versions;
  }

  /** Serves one request of this session (or the `initialize` that opens it). */
  async handle(exchange: Exchange, authInfo: AuthInfo | undefined): Promise<void> {
    if (this.#closed) return this.#error(exchange, 404, -32001, 'Session not found');
    switch (exchange.method) {
      case 'POST':
        return this.#post(exchange, authInfo);
      case 'GET':
        return this.#get(exchange);
      case 'DELETE':
        return this.#delete(exchange);
      default:
        this.onerror?.(new Error('Method not allowed.'));
        return exchange.json(405, { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }, { allow: 'GET, POST, DELETE' });
    }
  }

  async #post(exchange: Exchange, authInfo: AuthInfo | undefined): Promise<void> {
    try {
      const accept = exchange.header('accept');
      if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
        return this.#error(exchange, 406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
      }
      if (!isJsonContentType(exchange.header('content-type') ?? null)) return this.#error(exchange, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      const raw = exchange.body.json;
      if (raw === undefined) return this.#error(exchange, 400, -32700, 'Parse error: Invalid JSON');
      if (Array.isArray(raw) && raw.length > MAX_BATCH_SIZE) return this.#error(exchange, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
      let messages: JSONRPCMessage[];
      try {
        messages = Array.isArray(raw) ? raw.map((message) => parseJSONRPCMessage(message)) : [parseJSONRPCMessage(raw)];
      } catch (error) {
        this.onerror?.(error as Error);
        return exchange.json(400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' }, id: null });
      }
      if (this.#closed) return this.#error(exchange, 404, -32001, 'Session not found');
      // Parsed, a message's keys tell its kind (message-kind.ts); only an `initialize` needs the SDK's own test.
      const initializing = messages.some((message) => 'method' in message && message.method === 'initialize' && isInitializeRequest(message));
      if (initializing) {
        if (this.#initialized && this.sessionId !== undefined) return this.#error(exchange, 400, -32600, 'Invalid Request: Server already initialized');
        if (messages.length > 1) return this.#error(exchange, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
        this.sessionId = randomUUID();
        this.#initialized = true;
        this.options.onsessioninitialized(this.sessionId);
      } else if (!this.#validSession(exchange) || !this.#validVersion(exchange)) return;
      if (this.#closed) return this.#error(exchange, 404, -32001, 'Session not found');
      const requests = messages.filter(isRequest);
      const calls = this.options.calls;
      if (requests.length > 0) {
        const stream = new EventStream(exchange.res, this.#sseHeaders(), false);
        for (const { id } of requests) stream.pending.add(id), this.#streams.set(id, stream);
        if (!Array.isArray(raw) && calls?.take(messages[0]!, (response) => this.send(response))) return;
      }
      const extra = { ...(authInfo ? { authInfo } : {}), request: exchange.sdkRequest() };
      for (const message of messages) calls?.notified(message), this.onmessage?.(message, extra);
      if (requests.length === 0) exchange.empty(202);
    } catch (error) {
      this.onerror?.(error as Error);
      if (!exchange.res.headersSent) exchange.json(400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error', data: String(error) }, id: null });
    }
  }

  #get(exchange: Exchange): void {
    if (!exchange.header('accept')?.includes('text/event-stream')) return this.#error(exchange, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    if (!this.#validSession(exchange) || !this.#validVersion(exchange)) return;
    if (this.#standalone !== undefined) return this.#error(exchange, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
    const stream = new EventStream(exchange.res, this.#sseHeaders(), true);
    this.#standalone = stream;
    stream.onGone = () => {
      if (this.#standalone === stream) this.#standalone = undefined;
    };
  }

  async #delete(exchange: Exchange): Promise<void> {
    if (!this.#validSession(exchange) || !this.#validVersion(exchange)) return;
    try {
      this.options.onsessionclosed(this.sessionId!);
      exchange.empty(200);
    } finally {
      await this.close();
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // The server's own messages: a key tells a response, without parsing its whole result again.
    const isResponse = 'result' in message || 'error' in message;
    const requestId = isResponse ? (message.id as RequestId | undefined) : options?.relatedRequestId;
    if (requestId === undefined) {
      if (isResponse) throw new Error('Cannot send a response on a standalone SSE stream unless resuming a previous client request');
      this.#standalone?.event(message);
      return;
    }
    const stream = this.#streams.get(requestId);
    if (!stream) throw new Error(`No connection established for request ID: ${String(requestId)}`);
    if (!isResponse) return stream.event(message);
    this.#streams.delete(requestId);
    stream.pending.delete(requestId);
    const last = stream.pending.size === 0;
    if (stream.gone) {
      if (last) this.onerror?.(new Error(`Response for request ID ${String(requestId)} is undeliverable: per-request stream is disconnected and no eventStore is configured`));
      return;
    }
    stream.event(message, last);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.options.calls?.close();
    for (const stream of new Set(this.#streams.values())) stream.end();
    this.#streams.clear();
    this.#standalone?.end();
    this.#standalone = undefined;
    this.onclose?.();
  }

  #validSession(exchange: Exchange): boolean {
    if (!this.#initialized) return this.#error(exchange, 400, -32000, 'Bad Request: Server not initialized'), false;
    const id = exchange.header('mcp-session-id');
    if (!id) return this.#error(exchange, 400, -32000, 'Bad Request: Mcp-Session-Id header is required'), false;
    if (id !== this.sessionId) return this.#error(exchange, 404, -32001, 'Session not found'), false;
    return true;
  }

  #validVersion(exchange: Exchange): boolean {
    const version = exchange.header('mcp-protocol-version');
    if (version === undefined || this.#supported.includes(version)) return true;
    this.#error(exchange, 400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${this.#supported.join(', ')})`);
    return false;
  }

  /** An event stream's headers: the session's id with them once there is one. */
  #sseHeaders(): Record<string, string> {
    return { ...SSE_HEADERS, ...(this.sessionId !== undefined ? { 'mcp-session-id': this.sessionId } : {}) };
  }

  /** The SDK transport's error answer (id null), reported to onerror as it does. */
  #error(exchange: Exchange, status: number, code: number, message: string): void {
    this.onerror?.(new Error(message));
    exchange.json(status, { jsonrpc: '2.0', error: { code, message }, id: null });
  }
}

/**
 * An SSE answer on one ServerResponse: headers sent with the first event or keep-alive comment
 * (at once for a GET stream), and a whole answer of one event sent in one write with its length.
 */
class EventStream {
  /** The requests of the POST still unanswered. */
  readonly pending = new Set<RequestId>();
  gone = false;
  onGone?: () => void;
  #open = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly headers: Record<string, string>,
    openNow: boolean,
  ) {
    res.once('close', () => {
      if (res.writableEnded) return;
      this.gone = true;
      clearInterval(this.#timer);
      this.onGone?.();
    });
    this.#timer = setInterval(() => {
      this.#openNow();
      this.res.write(': keepalive\n\n');
    }, KEEP_ALIVE_MS);
    this.#timer.unref();
    if (openNow) {
      this.#openNow();
      res.flushHeaders();
    }
  }

  /** Writes `message` as an event; `last` ends the answer with it. */
  event(message: JSONRPCMessage, last = false): void {
    if (this.gone || this.res.writableEnded) return;
    const frame = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
    if (!last) {
      this.#openNow();
      this.res.write(frame);
      return;
    }
    clearInterval(this.#timer);
    if (this.#open) this.res.end(frame);
    else {
      this.res.writeHead(200, { ...this.headers, 'content-length': String(Buffer.byteLength(frame)) }).end(frame);
    }
  }

  /** Ends the answer as it stands (the session closed). */
  end(): void {
    clearInterval(this.#timer);
    if (this.gone || this.res.writableEnded) return;
    this.#openNow();
    this.res.end();
  }

  #openNow(): void {
    if (this.#open || this.gone) return;
    this.#open = true;
    this.res.writeHead(200, this.headers);
  }
}
