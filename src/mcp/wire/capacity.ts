/**
 * Request capacity, for profiles whose contract bounds concurrent calls: a transport wrapper that
 * lets at most `workers` counted requests (tools/call) reach the server at once, queues the rest up
 * to `capacity` in all, and answers any beyond that at once with JSON-RPC -32000. It sits between
 * any transport and the SDK server, so every era and wire gets the same rule.
 *
 * A cancelled request gives its place back at once (its answer is dropped anyway); whatever its
 * handler still has to finish is bounded by the profile's own deadline.
 */
import type { JSONRPCMessage, RequestId, Transport } from '@modelcontextprotocol/server';
import { cancelledId, isRequest } from './message-kind.js';
import { TransportGate, type Extra } from './transport-gate.js';

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

/** Wraps `inner` so counted requests respect `options`; the result is the transport the server connects to. */
export function withCapacity(inner: Transport, options: CapacityOptions): Transport {
  return new CapacityGate(inner, options);
}

class CapacityGate extends TransportGate {
  /** Requests handed to the server and not yet answered or cancelled. */
  readonly #running = new Set<RequestId>();
  /** Requests waiting for a worker, oldest first. */
  readonly #waiting: Array<{ message: JSONRPCMessage; extra: Extra; id: RequestId }> = [];

  constructor(
    inner: Transport,
    private readonly options: CapacityOptions,
  ) {
    super(inner);
  }

  protected reset(): void {
    this.#waiting.length = 0;
    this.#running.clear();
  }

  protected receive(message: JSONRPCMessage, extra: Extra): void {
    if (isRequest(message) && this.options.methods.has(message.method)) {
      if (this.#running.size + this.#waiting.length >= this.options.capacity) {
        this.refuse(message.id, CAPACITY_EXHAUSTED);
        return;
      }
      this.#waiting.push({ message, extra, id: message.id });
      this.#dispatch();
      return;
    }
    const cancelled = cancelledId(message);
    if (cancelled !== undefined) {
      const queued = this.#waiting.findIndex((entry) => entry.id === cancelled);
      // Never handed to the server: forgetting it is the whole cancellation.
      if (queued !== -1) {
        this.#waiting.splice(queued, 1);
        return;
      }
      this.answered(cancelled);
    }
    this.forward(message, extra);
  }

  protected answered(id: RequestId): void {
    if (this.#running.delete(id)) this.#dispatch();
  }

  #dispatch(): void {
    while (this.#running.size < this.options.workers && this.#waiting.length > 0) {
      const next = this.#waiting.shift()!;
      this.#running.add(next.id);
      this.forward(next.message, next.extra);
    }
  }
}
