/**
 * Request capacity, for profiles whose contract bounds concurrent calls: a transport wrapper that
 * lets at most `workers` counted requests (tools/call) reach the server at once, queues the rest up
 * to `capacity` in all, and answers any beyond that at once with JSON-RPC -32000. It sits between
 * any transport and the SDK server, so every era and wire gets the same rule.
 *
 * A cancelled request gives its place back at once (its answer is dropped anyway); whatever its
 * handler still has to finish is bounded by the profile's own deadline.
 */
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';

export interface CapacityOptions {
  /** Requests of these methods are counted; everything else passes straight through. */
  readonly methods: ReadonlySet<string>;
  /** Counted requests handled at once. */
  readonly workers: number;
  /** Counted requests handled or waiting; one more is refused. */
  readonly capacity: number;
}

/** The JSON-RPC error a request beyond capacity gets. */
export const CAPACITY_EXHAUSTED = { code: -32000, message: 'Request capacity exhausted' } as const;

type Extra = Parameters<NonNullable<Transport['onmessage']>>[1];

/** Wraps `inner` so counted requests respect `options`; the result is the transport the server connects to. */
export function withCapacity(inner: Transport, options: CapacityOptions): Transport {
  return new CapacityGate(inner, options);
}

class CapacityGate implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** Requests handed to the server and not yet answered or cancelled. */
  readonly #running = new Set<RequestId>();
  /** Requests waiting for a worker, oldest first. */
  readonly #waiting: Array<{ message: JSONRPCMessage; extra: Extra; id: RequestId }> = [];

  constructor(
    private readonly inner: Transport,
    private readonly options: CapacityOptions,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => this.#receive(message, extra);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) this.#release(message.id);
    await this.inner.send(message, options);
  }

  async close(): Promise<void> {
    this.#waiting.length = 0;
    this.#running.clear();
    await this.inner.close();
  }

  #receive(message: JSONRPCMessage, extra: Extra): void {
    if (isJSONRPCRequest(message) && this.options.methods.has(message.method)) {
      if (this.#running.size + this.#waiting.length >= this.options.capacity) {
        void this.inner.send({ jsonrpc: '2.0', id: message.id, error: { ...CAPACITY_EXHAUSTED } }).catch((error: Error) => this.onerror?.(error));
        return;
      }
      this.#waiting.push({ message, extra, id: message.id });
      this.#dispatch();
      return;
    }
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const queued = this.#waiting.findIndex((entry) => entry.id === id);
      // Never handed to the server: forgetting it is the whole cancellation.
      if (queued !== -1) {
        this.#waiting.splice(queued, 1);
        return;
      }
      if (id !== undefined) this.#release(id);
    }
    this.onmessage?.(message, extra);
  }

  #release(id: RequestId): void {
    if (this.#running.delete(id)) this.#dispatch();
  }

  #dispatch(): void {
    while (this.#running.size < this.options.workers && this.#waiting.length > 0) {
      const next = this.#waiting.shift()!;
      this.#running.add(next.id);
      this.onmessage?.(next.message, next.extra);
    }
  }
}
