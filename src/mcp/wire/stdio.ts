/**
 * MCP over stdio in both protocol eras, for any profile: the SDK's `serveStdio` owns the era decision
 * (a `server/discover` opening is served as 2026-07-28, an `initialize` opening as 2025-11-25) and
 * builds one server from the factory per connection. Under it runs our own wire, which differs
 * from the SDK's StdioServerTransport in one thing: when stdin ends, the requests already read are
 * answered before the connection closes (the SDK's transport aborts them unanswered).
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, McpServerFactory, RequestId, Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { JsonRpcLines, outboundLine, readableProtocolError } from './json-rpc-lines.js';
import type { JsonLimits } from './json-limits.js';
import { answeredId, cancelledId, isErrorResponse, isRequest } from './message-kind.js';

export interface StdioServing {
  /** Settles once the connection is over: stdin ended and every call read before that was answered, or close() ran. */
  readonly closed: Promise<void>;
  /** Ends the connection now; calls still running are aborted. */
  close(): Promise<void>;
  /** Ends the connection as end of input does: once every call read so far is answered (or the drain limit passes). */
  drain(): Promise<void>;
}

export interface StdioOptions {
  /** The longest the answers in flight at end of input are awaited; calls are bounded by their own deadlines well before. */
  readonly drainLimitMs: number;
  readonly input?: Readable;
  readonly output?: Writable;
  readonly onerror?: (error: Error) => void;
  /** Wraps the wire before the SDK sees it (request capacity: capacity.ts). */
  readonly wrap?: (wire: Transport) => Transport;
  /** A contract's limits on each inbound message (json-limits.ts); without them, only a 16 MiB line cap. */
  readonly limits?: JsonLimits;
  /** Called the moment stdin ends, before the calls in flight are awaited (so they can be ended early). */
  readonly onInputEnd?: () => void;
}

export function serveBothErasOverStdio(factory: McpServerFactory, options: StdioOptions): StdioServing {
  const wire = new DrainingStdioWire(
    options.input ?? process.stdin,
    options.output ?? process.stdout,
    options.drainLimitMs,
    options.limits,
    options.onInputEnd,
  );
  const handle = serveStdio(factory, {
    transport: options.wrap ? options.wrap(wire) : wire,
    ...(options.onerror ? { onerror: options.onerror } : {}),
  });
  return {
    closed: wire.closed,
    close: () => handle.close(),
    drain: () => {
      wire.finish();
      return wire.closed;
    },
  };
}

/**
 * Newline-delimited JSON-RPC on a pair of streams (the SDK's own framing, ReadBuffer and
 * serializeMessage), counting the requests it has read and not yet answered. End of input closes
 * the wire only once that count is zero, or when the drain limit runs out.
 */
class DrainingStdioWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly closed: Promise<void>;
  readonly #buffer: JsonRpcLines;
  /** Requests read and not yet answered: what end of input waits for. */
  readonly #unanswered = new Set<RequestId>();
  #inputEnded = false;
  #isClosed = false;
  #drainTimer?: NodeJS.Timeout;
  #markClosed!: () => void;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly drainLimitMs: number,
    limits?: JsonLimits,
    private readonly onEnd?: () => void,
  ) {
    this.#buffer = new JsonRpcLines(limits);
    this.closed = new Promise((resolve) => (this.#markClosed = resolve));
  }

  async start(): Promise<void> {
    this.input.on('data', this.#onData);
    this.input.on('end', this.#onInputEnd);
    this.input.on('close', this.#onInputEnd);
    this.input.on('error', this.#onInputError);
    this.output.on('error', this.#onOutputError);
    this.input.resume();
    if (this.input.readableEnded || this.input.destroyed) setImmediate(this.#onInputEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#isClosed) throw new Error('the stdio connection is closed');
    const answered = answeredId(message);
    try {
      await this.#write(outboundLine(isErrorResponse(message) ? readableProtocolError(message) : message));
    } finally {
      // Only once the answer is written: the process may exit right after the last one.
      if (answered !== undefined) this.#settle(answered);
    }
  }

  /** No more is expected: close once every request read is answered, as at end of input. */
  finish(): void {
    this.#onInputEnd();
  }

  async close(): Promise<void> {
    if (this.#isClosed) return;
    this.#isClosed = true;
    clearTimeout(this.#drainTimer);
    this.input.off('data', this.#onData);
    this.input.off('end', this.#onInputEnd);
    this.input.off('close', this.#onInputEnd);
    this.input.off('error', this.#onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.#buffer.clear();
    this.onclose?.();
    this.#markClosed();
  }

  #write(line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      this.output.once('error', failed);
      const done = () => {
        this.output.off('error', failed);
        resolve();
      };
      if (this.output.write(line)) done();
      else this.output.once('drain', done);
    });
  }

  readonly #onData = (chunk: Buffer) => {
    this.#buffer.append(chunk);
    for (let inbound = this.#buffer.next(); inbound !== null; inbound = this.#buffer.next()) {
      if ('answer' in inbound) {
        // Not a message the server can take (malformed, unparseable, too long): answered here.
        if (!this.#isClosed) this.#write(outboundLine(inbound.answer)).catch((error: Error) => this.onerror?.(error));
        continue;
      }
      this.#track(inbound.message);
      this.onmessage?.(inbound.message);
    }
  };

  #track(message: JSONRPCMessage): void {
    // An open subscriptions/listen stream is answered only at teardown, so it holds nothing up.
    if (isRequest(message) && message.method !== 'subscriptions/listen') this.#unanswered.add(message.id);
    else {
      const id = cancelledId(message);
      if (id !== undefined) this.#settle(id);
    }
  }

  #settle(id: RequestId): void {
    this.#unanswered.delete(id);
    if (this.#inputEnded && this.#unanswered.size === 0) void this.close();
  }

  readonly #onInputEnd = () => {
    if (this.#inputEnded) return;
    this.#inputEnded = true;
    this.onEnd?.();
    if (this.#unanswered.size === 0) {
      void this.close();
      return;
    }
    this.#drainTimer = setTimeout(() => void this.#giveUp(), this.drainLimitMs);
  };

  /** The drain limit passed: every call still unanswered gets an error now, so no request goes without an answer. */
  async #giveUp(): Promise<void> {
    const ids = [...this.#unanswered];
    this.onerror?.(new Error(`stdin closed; ${ids.length} call(s) still unanswered after ${this.drainLimitMs} ms`));
    await Promise.all(
      ids.map((id) =>
        this.#write(
          outboundLine({
            jsonrpc: '2.0',
            id,
            error: {
              code: -32603,
              message: `the server is shutting down (its input ended) and this call did not finish within ${this.drainLimitMs} ms; it may still have had effects`,
            },
          }),
        ).catch(() => {}),
      ),
    );
    await this.close();
  }

  readonly #onInputError = (error: Error) => this.onerror?.(error);

  readonly #onOutputError = (error: Error) => {
    // The reader is gone (EPIPE): nothing more can be answered.
    if (this.#isClosed) return;
    this.onerror?.(error);
    void this.close();
  };
}
